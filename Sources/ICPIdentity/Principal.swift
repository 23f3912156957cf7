import CryptoCore

/// An Internet Computer principal: the id of a user, canister or the management canister, 0 to 29 bytes.
///
/// Text form (IC interface spec §Textual representation of principals): `Grouped(Base32(CRC32(b) ‖ b))`,
/// the CRC-32 big-endian, base32 lowercase without padding, a dash after every 5 characters.
public struct Principal: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The raw id.
    public let bytes: [UInt8]

    /// The most bytes a principal may have.
    public static let maxLength = 29

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
        switch Base32.decode(digits) {
        case .success(let bytes): decoded = bytes
        case .failure(.invalidLength(let n)): throw .invalidLength(digits: n)
        case .failure(.nonZeroPadding): throw .nonCanonical
        case .failure(.invalidCharacter(let index)):
            preconditionFailure("digit \(index) was checked against the alphabet above")
        }
        guard decoded.count >= 4 else { throw .tooShort }
        let body = Array(decoded[4...])
        guard body.count <= Self.maxLength else { throw .tooLong(body.count) }
        let found = decoded[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let expected = CRC32.checksum(body)
        guard found == expected else { throw .checksumMismatch(expected: expected, found: found) }
        self.bytes = body
    }

    /// The canonical text form, e.g. `ryjl3-tyaaa-aaaaa-aaaba-cai`.
    public var text: String {
        let digits = Base32.encode(CRC32.bigEndianChecksum(bytes) + bytes)
        var out: [UInt8] = []
        out.reserveCapacity(digits.count + digits.count / 5)
        for (index, digit) in digits.enumerated() {
            if index > 0 && index % 5 == 0 { out.append(UInt8(ascii: "-")) }
            out.append(digit)
        }
        return String(decoding: out, as: UTF8.self)
    }

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
