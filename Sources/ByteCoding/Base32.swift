/// RFC 4648 §6 base32 without padding: written lowercase, read in either case. The IC uses it for principal texts
/// and the ICRC-1 account checksum (IC interface spec §Textual representation of principals).
public enum Base32 {
    /// Why ``decode(_:)`` refused its input.
    public enum DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The digit at `index` is not in the alphabet (`a`–`z`, `A`–`Z`, `2`–`7`).
        case invalidCharacter(index: Int)
        /// A digit count no byte string encodes to (1, 3 or 6 modulo 8).
        case invalidLength(Int)
        /// The unused low bits of the last digit are not zero, so the text is not canonical.
        case nonZeroPadding

        public var description: String {
            switch self {
            case .invalidCharacter(let index): return "invalid base32 digit at index \(index)"
            case .invalidLength(let n): return "\(n) base32 digits, which no byte string encodes to"
            case .nonZeroPadding: return "base32 text is not canonical (non-zero padding bits)"
            }
        }
    }

    static let alphabet: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The value (0–31) of one base32 digit in either case, or nil.
    public static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character &- UInt8(ascii: "a")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character &- UInt8(ascii: "A")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): return character &- UInt8(ascii: "2") &+ 26
        default: return nil
        }
    }

    /// Lowercase base32 digits (ASCII bytes) of `bytes`, unpadded.
    public static func encode(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.underestimatedCount * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int(buffer >> UInt32(bits) & 0x1F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt32(5 - bits) & 0x1F)]) }
        return out
    }

    /// Decodes unpadded base32 digits in either case.
    ///
    /// - Throws: ``DecodingError`` for a digit outside the alphabet, an impossible digit count, or non-zero
    ///   padding bits in the last digit.
    public static func decode(_ digits: some Collection<UInt8>) throws(DecodingError) -> [UInt8] {
        switch digits.count % 8 {
        case 1, 3, 6: throw .invalidLength(digits.count)
        default: break
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for (index, digit) in digits.enumerated() {
            guard let value = value(of: digit) else { throw .invalidCharacter(index: index) }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(buffer >> UInt32(bits) & 0xFF))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        guard buffer == 0 else { throw .nonZeroPadding }
        return out
    }
}
