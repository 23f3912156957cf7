import ByteCoding
import CryptoCore

/// An Internet Computer principal: the id of a user, canister or the management canister, 0 to 29 bytes.
///
/// Text form (IC interface spec §Textual representation of principals): `Grouped(Base32(CRC32(b) ‖ b))`,
/// the CRC-32 big-endian, base32 lowercase without padding, a dash after every 5 characters.
public struct Principal: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw id.
    public let bytes: [UInt8]

    /// The most bytes a principal may have.
    public static let maxLength = PrincipalText.maximumLength

    /// The management canister, `aaaaa-aa` (the empty blob).
    public static let managementCanister = Principal(unchecked: [])
    /// The anonymous principal `2vxsx-fae` (the single byte 0x04).
    public static let anonymous = Principal(unchecked: [0x04])

    /// A principal from its raw bytes.
    ///
    /// - Throws: ``PrincipalError/tooLong(_:)`` past 29 bytes.
    public init(bytes: [UInt8]) throws(PrincipalError) {
        guard bytes.count <= Self.maxLength else { throw .tooLong(bytes.count) }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The self-authenticating principal of a DER-encoded public key: `SHA-224(der) ‖ 0x02`
    /// (IC interface spec §Special forms of principals).
    public init(selfAuthenticating key: DERPublicKey) {
        self.init(unchecked: Digest.sha224.hash(key.der) + [Self.selfAuthenticatingSuffix])
    }

    static let selfAuthenticatingSuffix: UInt8 = 0x02

    /// Parses the text form. Letters may be in either case; grouping and checksum must be exact.
    ///
    /// - Throws: ``PrincipalError`` naming the offset of a bad character or dash, or the checksum mismatch.
    public init(text: String) throws(PrincipalError) {
        self.bytes = try PrincipalText.decode(text)
    }

    /// The canonical text form, e.g. `ryjl3-tyaaa-aaaaa-aaaba-cai`.
    public var text: String { PrincipalText.encode(bytes) }

    public var description: String { text }

    /// The class of id the last byte announces (IC interface spec §Special forms of principals).
    public enum Kind: Sendable, Equatable {
        /// The empty principal `aaaaa-aa`.
        case managementCanister
        /// Minted by the IC (canister ids end in 0x01); anything not in another class.
        case opaque
        /// `SHA-224(DER public key) ‖ 0x02`.
        case selfAuthenticating
        /// `SHA-224(len ‖ registering principal ‖ nonce) ‖ 0x03`.
        case derived
        /// The single byte 0x04.
        case anonymous
        /// `blob ‖ 0x7f` with fewer than 29 bytes of blob.
        case reserved
    }

    public var kind: Kind {
        guard let last = bytes.last else { return .managementCanister }
        switch (last, bytes.count) {
        case (0x02, 29): return .selfAuthenticating
        case (0x03, 29): return .derived
        case (0x04, 1): return .anonymous
        case (0x7f, ..<30): return .reserved
        default: return .opaque
        }
    }

    public var isAnonymous: Bool { bytes == [0x04] }

    /// Orders by bytes, shorter first on a common prefix (the order of the ICP ledger's maps).
    public static func < (lhs: Principal, rhs: Principal) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
