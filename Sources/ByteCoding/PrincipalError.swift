/// Why a principal (bytes or text) was refused. Offsets count UTF-8 bytes of the text from 0.
public enum PrincipalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// More than 29 bytes (IC interface spec §Principals: at most 29 bytes).
    case tooLong(Int)
    /// The text is empty or decodes to fewer than the 4 checksum bytes.
    case tooShort
    /// A character outside the base32 alphabet and the dash.
    case invalidCharacter(offset: Int, character: Character)
    /// A dash where a digit belongs, or a digit where the dash every 5 digits belongs.
    case misplacedDash(offset: Int)
    /// A dash was expected at `offset` (groups of 5 digits separated by dashes).
    case missingDash(offset: Int)
    /// A trailing dash or a digit count no byte string encodes to.
    case invalidLength(digits: Int)
    /// The unused low bits of the last base32 digit are not zero, so the text is not canonical.
    case nonCanonical
    /// The CRC-32 in the text does not match the bytes after it.
    case checksumMismatch(expected: UInt32, found: UInt32)

    public var description: String {
        switch self {
        case .tooLong(let n): return "principal has \(n) bytes; at most 29 are allowed"
        case .tooShort: return "principal text too short to hold its 4-byte checksum"
        case .invalidCharacter(let offset, let character):
            return "invalid character '\(character)' at offset \(offset) of the principal text"
        case .misplacedDash(let offset): return "misplaced '-' at offset \(offset) of the principal text"
        case .missingDash(let offset): return "expected '-' at offset \(offset) of the principal text"
        case .invalidLength(let digits):
            return "principal text has \(digits) base32 digits, which no byte string encodes to"
        case .nonCanonical: return "principal text is not canonical (non-zero padding bits)"
        case .checksumMismatch(let expected, let found):
            return "principal checksum mismatch: expected \(Hex.encode(BigEndian.bytes(expected))), "
                + "found \(Hex.encode(BigEndian.bytes(found)))"
        }
    }
}
