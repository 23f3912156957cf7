/// An Internet Computer principal: an opaque byte string of at most 29 bytes.
///
/// IC interface spec, "Principals" and "Textual representation of principals": the text form is
/// `Grouped(Base32(CRC32(bytes) ‖ bytes))`, lowercase, unpadded, with a dash after every 5 characters.
public struct CandidPrincipal: Sendable, Hashable, CustomStringConvertible {
    /// Maximum principal length in bytes (IC interface spec).
    public static let maximumLength = 29

    /// The raw principal bytes.
    public var bytes: [UInt8]

    /// Creates a principal from raw bytes (not validated; the binary decoder enforces the length limit).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The management canister principal `aaaaa-aa` (empty byte string).
    public static let managementCanister = CandidPrincipal(bytes: [])
    /// The anonymous principal `2vxsx-fae` (the single byte 0x04).
    public static let anonymous = CandidPrincipal(bytes: [0x04])

    /// Parses the textual form, verifying grouping, alphabet and checksum.
    ///
    /// - Throws: `CandidTextError` (at line 1) describing what is wrong with the text.
    public init(text: String) throws(CandidTextError) {
        let lowered = text.lowercased()
        var compact: [UInt8] = []
        for byte in lowered.utf8 where byte != UInt8(ascii: "-") { compact.append(byte) }
        guard let decoded = CandidBase32.decode(compact), decoded.count >= 4 else {
            throw CandidTextError(line: 1, column: 1, "invalid principal text \"\(text)\": not base32")
        }
        let body = Array(decoded[4...])
        guard body.count <= Self.maximumLength else {
            throw CandidTextError(line: 1, column: 1, "invalid principal text \"\(text)\": longer than 29 bytes")
        }
        let principal = CandidPrincipal(bytes: body)
        guard principal.text == lowered else {
            throw CandidTextError(line: 1, column: 1, "invalid principal text \"\(text)\": checksum or grouping")
        }
        self = principal
    }

    /// The canonical textual form.
    public var text: String {
        let checksum = CandidCRC32.checksum(bytes)
        var data: [UInt8] = [
            UInt8(truncatingIfNeeded: checksum >> 24), UInt8(truncatingIfNeeded: checksum >> 16),
            UInt8(truncatingIfNeeded: checksum >> 8), UInt8(truncatingIfNeeded: checksum),
        ]
        data += bytes
        let encoded = CandidBase32.encode(data)
        var grouped: [UInt8] = []
        grouped.reserveCapacity(encoded.count + encoded.count / 5)
        for (index, character) in encoded.enumerated() {
            if index > 0, index % 5 == 0 { grouped.append(UInt8(ascii: "-")) }
            grouped.append(character)
        }
        return String(decoding: grouped, as: UTF8.self)
    }

    public var description: String { text }
}
