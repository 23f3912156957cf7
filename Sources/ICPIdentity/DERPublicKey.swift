import CryptoCore

/// A public key in the DER `SubjectPublicKeyInfo` form the IC hashes into self-authenticating principals
/// and carries in `sender_pubkey` (IC interface spec §Signatures; RFC 8410 for Ed25519, RFC 5480 for ECDSA).
public struct DERPublicKey: Hashable, Sendable {
    /// The signature schemes a self-authenticating sender may use here.
    public enum Algorithm: String, Sendable, Equatable {
        /// Ed25519, OID 1.3.101.112; the raw key is 32 bytes.
        case ed25519
        /// ECDSA on secp256k1, OIDs 1.2.840.10045.2.1 and 1.3.132.0.10; the raw key is the uncompressed
        /// point `0x04 ‖ X ‖ Y` (65 bytes), as agent-js, ic-py and dfx write it.
        case secp256k1
    }

    public let algorithm: Algorithm
    /// The raw key: 32 bytes (Ed25519) or 65 bytes uncompressed (secp256k1).
    public let rawKey: [UInt8]
    /// The whole DER encoding: prefix ‖ raw key.
    public let der: [UInt8]

    /// `SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING (0 unused bits) }` up to the 32 key bytes.
    public static let ed25519Prefix: [UInt8] = [
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ]
    /// `SEQUENCE { SEQUENCE { OID ecPublicKey, OID secp256k1 } BIT STRING (0 unused bits) }` up to the point.
    public static let secp256k1Prefix: [UInt8] = [
        0x30, 0x56, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05, 0x2b, 0x81,
        0x04, 0x00, 0x0a, 0x03, 0x42, 0x00,
    ]

    /// An Ed25519 key from its 32 raw bytes.
    public init(ed25519 rawKey: [UInt8]) throws(DERPublicKeyError) {
        guard rawKey.count == 32 else { throw .invalidKeyLength(algorithm: .ed25519, length: rawKey.count) }
        self.algorithm = .ed25519
        self.rawKey = rawKey
        self.der = Self.ed25519Prefix + rawKey
    }

    /// A secp256k1 key from its 33-byte compressed or 65-byte uncompressed SEC 1 form; the point is checked
    /// to be on the curve and stored uncompressed.
    public init(secp256k1 publicKey: [UInt8]) throws(DERPublicKeyError) {
        let point: [UInt8]
        do { point = try Secp256k1.normalize(publicKey: publicKey, compressed: false) } catch {
            throw .invalidPoint
        }
        self.algorithm = .secp256k1
        self.rawKey = point
        self.der = Self.secp256k1Prefix + point
    }

    /// Reads a DER `SubjectPublicKeyInfo` of one of the two supported algorithms.
    ///
    /// - Throws: ``DERPublicKeyError/unsupportedEncoding`` for any other structure or algorithm.
    public init(der: [UInt8]) throws(DERPublicKeyError) {
        if der.count == Self.ed25519Prefix.count + 32, der.starts(with: Self.ed25519Prefix) {
            try self.init(ed25519: Array(der[Self.ed25519Prefix.count...]))
        } else if der.count == Self.secp256k1Prefix.count + 65, der.starts(with: Self.secp256k1Prefix) {
            try self.init(secp256k1: Array(der[Self.secp256k1Prefix.count...]))
        } else {
            throw .unsupportedEncoding
        }
    }

    /// The self-authenticating principal of this key.
    public var principal: Principal { Principal(selfAuthenticating: self) }
}

/// Why a public key could not be DER-encoded or decoded.
public enum DERPublicKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidKeyLength(algorithm: DERPublicKey.Algorithm, length: Int)
    /// Not a valid secp256k1 point.
    case invalidPoint
    /// Neither the Ed25519 nor the secp256k1 `SubjectPublicKeyInfo` layout.
    case unsupportedEncoding

    public var description: String {
        switch self {
        case .invalidKeyLength(let algorithm, let length):
            return "\(algorithm.rawValue) public key has \(length) bytes"
        case .invalidPoint: return "not a valid secp256k1 public key"
        case .unsupportedEncoding: return "not a DER Ed25519 or secp256k1 SubjectPublicKeyInfo"
        }
    }
}
