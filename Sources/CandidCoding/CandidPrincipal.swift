import ByteCoding

/// An Internet Computer principal: an opaque byte string of at most 29 bytes.
///
/// IC interface spec, "Principals" and "Textual representation of principals": the text form is
/// `Grouped(Base32(CRC32(bytes) ‖ bytes))`, lowercase, unpadded, with a dash after every 5 characters.
public struct CandidPrincipal: Sendable, Hashable, CustomStringConvertible {
    /// Maximum principal length in bytes (IC interface spec).
    public static let maximumLength = PrincipalText.maximumLength

    /// The raw principal bytes.
    public var bytes: [UInt8]

    /// Creates a principal from raw bytes (not validated; the binary decoder enforces the length limit).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The management canister principal `aaaaa-aa` (empty byte string).
    public static let managementCanister = CandidPrincipal(bytes: [])
    /// The anonymous principal `2vxsx-fae` (the single byte 0x04).
    public static let anonymous = CandidPrincipal(bytes: [0x04])

    /// Parses the textual form, verifying grouping, alphabet and checksum (``PrincipalText``; letters in either
    /// case).
    ///
    /// - Throws: `CandidTextError` (at line 1) naming what is wrong with the text.
    public init(text: String) throws(CandidTextError) {
        do { bytes = try PrincipalText.decode(text) } catch {
            throw CandidTextError(line: 1, column: 1, "invalid principal text \"\(text)\": \(error)")
        }
    }

    /// The canonical textual form.
    public var text: String { PrincipalText.encode(bytes) }

    public var description: String { text }
}
