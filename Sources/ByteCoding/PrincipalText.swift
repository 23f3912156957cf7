/// The textual representation of Internet Computer principals (IC interface spec §Textual representation of
/// principals): `Grouped(Base32(CRC32(b) ‖ b))`, the CRC-32 big-endian, base32 lowercase without padding, a dash
/// after every 5 characters, e.g. `ryjl3-tyaaa-aaaaa-aaaba-cai`. Both principal types (Candid's `principal`
/// value and ICPIdentity's `Principal`) read and write their text here.
public enum PrincipalText {
    /// The most bytes a principal may have (IC interface spec §Principals).
    public static let maximumLength = 29

    /// The canonical text of the principal `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        var data = CRC32.bigEndianChecksum(bytes)
        data.append(contentsOf: bytes)
        let digits = Base32.encode(data)
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + digits.count / 5)
        for (index, digit) in digits.enumerated() {
            if index > 0 && index % 5 == 0 { out.append(UInt8(ascii: "-")) }
            out.append(digit)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The principal bytes of a text. Letters may be in either case; grouping and checksum must be exact.
    ///
    /// - Throws: ``PrincipalError`` naming the offset of a bad character or dash, a digit count no byte string
    ///   encodes to, non-zero padding bits, more than 29 bytes, or the checksum mismatch.
    public static func decode(_ text: some StringProtocol) throws(PrincipalError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        var digits: [UInt8] = []
        digits.reserveCapacity(utf8.count)
        for (offset, character) in utf8.enumerated() {
            let isDashPosition = offset % 6 == 5
            if character == UInt8(ascii: "-") {
                guard isDashPosition, offset != utf8.count - 1 else { throw .misplacedDash(offset: offset) }
                continue
            }
            guard Base32.value(of: character) != nil else {
                let scalar = String(decoding: utf8[offset...].prefix(4), as: UTF8.self).first ?? "?"
                throw .invalidCharacter(offset: offset, character: scalar)
            }
            if isDashPosition { throw .missingDash(offset: offset) }
            digits.append(character)
        }
        let decoded: [UInt8]
        do { decoded = try Base32.decode(digits) } catch {
            switch error {
            case .invalidLength(let n): throw .invalidLength(digits: n)
            case .nonZeroPadding: throw .nonCanonical
            case .invalidCharacter(let index):
                preconditionFailure("digit \(index) was checked against the alphabet above")
            }
        }
        guard decoded.count >= 4 else { throw .tooShort }
        let body = Array(decoded[4...])
        guard body.count <= maximumLength else { throw .tooLong(body.count) }
        let found = BigEndian.read(UInt32.self, from: decoded, at: 0)
        let expected = CRC32.checksum(body)
        guard found == expected else { throw .checksumMismatch(expected: expected, found: found) }
        return body
    }
}
