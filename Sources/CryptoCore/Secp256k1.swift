import CSecp256k1

/// Errors from secp256k1 operations.
public enum Secp256k1Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// A private key of the wrong length, zero, or not below the group order n.
    case invalidPrivateKey
    /// Bytes that are not a valid serialized public key (off the curve, wrong prefix or length).
    case invalidPublicKey
    /// r or s out of range, or a recovery id other than 0–3.
    case invalidSignature
    /// No public key could be recovered from the signature and digest.
    case recoveryFailed
    /// The digest is not 32 bytes.
    case invalidDigestLength(Int)
    /// A tweak made the key invalid (probability ~2^-127; BIP-32 says skip to the next index).
    case tweakOutOfRange

    public var description: String {
        switch self {
        case .invalidPrivateKey: return "invalid private key"
        case .invalidPublicKey: return "invalid public key"
        case .invalidSignature: return "invalid signature"
        case .recoveryFailed: return "public key recovery failed"
        case .invalidDigestLength(let n): return "digest must be 32 bytes, got \(n)"
        case .tweakOutOfRange: return "tweak out of range"
        }
    }
}

/// The process-wide randomized libsecp256k1 context.
///
/// `@unchecked Sendable`: after `secp256k1_context_randomize` at creation the context is only read;
/// libsecp256k1 documents const-context calls as thread-safe.
final class Secp256k1Context: @unchecked Sendable {
    let pointer: OpaquePointer

    static let shared = Secp256k1Context()

    private init() {
        pointer = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE))!
        var seed = SecureRandom.bytes(32)
        _ = secp256k1_context_randomize(pointer, &seed)
    }

    deinit { secp256k1_context_destroy(pointer) }
}

/// secp256k1 keys and recoverable ECDSA (SEC 1; RFC 6979 nonces; low-s signatures as EIP-2 requires).
public enum Secp256k1 {
    /// The group order n, big-endian.
    public static let order: [UInt8] = [
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
        0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41,
    ]

    /// n / 2, big-endian: the largest s a low-s signature may carry.
    public static let halfOrder: [UInt8] = [
        0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0x5d, 0x57, 0x6e, 0x73, 0x57, 0xa4, 0x50, 0x1d, 0xdf, 0xe9, 0x2f, 0x46, 0x68, 0x1b, 0x20, 0xa0,
    ]

    static var context: OpaquePointer { Secp256k1Context.shared.pointer }

    /// True if `key` is 32 bytes in [1, n-1].
    public static func isValidPrivateKey(_ key: [UInt8]) -> Bool {
        key.count == 32 && secp256k1_ec_seckey_verify(context, key) == 1
    }

    /// The public key of `privateKey`, 33 bytes compressed or 65 bytes uncompressed (`0x04 ‖ X ‖ Y`).
    public static func publicKey(of privateKey: [UInt8], compressed: Bool = false) throws(Secp256k1Error) -> [UInt8] {
        guard privateKey.count == 32 else { throw .invalidPrivateKey }
        var pub = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_create(context, &pub, privateKey) == 1 else { throw .invalidPrivateKey }
        return serialize(pub, compressed: compressed)
    }

    static func serialize(_ pub: secp256k1_pubkey, compressed: Bool) -> [UInt8] {
        var pub = pub
        var length = compressed ? 33 : 65
        var out = [UInt8](repeating: 0, count: length)
        let flags = UInt32(compressed ? SECP256K1_EC_COMPRESSED : SECP256K1_EC_UNCOMPRESSED)
        _ = secp256k1_ec_pubkey_serialize(context, &out, &length, &pub, flags)
        return out
    }

    static func parse(publicKey: [UInt8]) throws(Secp256k1Error) -> secp256k1_pubkey {
        var pub = secp256k1_pubkey()
        guard publicKey.count == 33 || publicKey.count == 65,
            secp256k1_ec_pubkey_parse(context, &pub, publicKey, publicKey.count) == 1
        else { throw .invalidPublicKey }
        return pub
    }

    /// Re-serializes a 33- or 65-byte public key, validating that it is on the curve.
    public static func normalize(publicKey: [UInt8], compressed: Bool) throws(Secp256k1Error) -> [UInt8] {
        serialize(try parse(publicKey: publicKey), compressed: compressed)
    }

    /// Signs a 32-byte digest (never hashes for you). The nonce is RFC 6979; s is always low.
    public static func sign(digest: [UInt8], privateKey: [UInt8]) throws(Secp256k1Error) -> RecoverableSignature {
        guard digest.count == 32 else { throw .invalidDigestLength(digest.count) }
        guard privateKey.count == 32 else { throw .invalidPrivateKey }
        var sig = secp256k1_ecdsa_recoverable_signature()
        guard secp256k1_ecdsa_sign_recoverable(context, &sig, digest, privateKey, nil, nil) == 1 else {
            throw .invalidPrivateKey
        }
        var compact = [UInt8](repeating: 0, count: 64)
        var recid: Int32 = 0
        _ = secp256k1_ecdsa_recoverable_signature_serialize_compact(context, &compact, &recid, &sig)
        return RecoverableSignature(r: Array(compact[0..<32]), s: Array(compact[32..<64]), recoveryID: UInt8(recid))
    }

    /// Recovers the 65-byte uncompressed public key that produced `signature` over `digest`.
    public static func recover(digest: [UInt8], signature: RecoverableSignature) throws(Secp256k1Error) -> [UInt8] {
        guard digest.count == 32 else { throw .invalidDigestLength(digest.count) }
        guard signature.recoveryID < 4 else { throw .invalidSignature }
        var compact = signature.r
        compact.append(contentsOf: signature.s)
        var sig = secp256k1_ecdsa_recoverable_signature()
        guard
            secp256k1_ecdsa_recoverable_signature_parse_compact(context, &sig, compact, Int32(signature.recoveryID))
                == 1
        else { throw .invalidSignature }
        var pub = secp256k1_pubkey()
        guard secp256k1_ecdsa_recover(context, &pub, &sig, digest) == 1 else { throw .recoveryFailed }
        return serialize(pub, compressed: false)
    }

    /// Verifies a (low-s) signature over `digest` by `publicKey` (33 or 65 bytes).
    ///
    /// - Parameter allowHighS: also accept the high-s twin of a valid signature (plain ECDSA as python-ecdsa and
    ///   the IC's request signatures allow); Ethereum callers keep the default, EIP-2's low-s rule.
    public static func verify(
        digest: [UInt8], r: [UInt8], s: [UInt8], publicKey: [UInt8], allowHighS: Bool = false
    ) -> Bool {
        guard digest.count == 32, r.count == 32, s.count == 32,
            let pub = try? parse(publicKey: publicKey)
        else { return false }
        var pubkey = pub
        var sig = secp256k1_ecdsa_signature()
        guard secp256k1_ecdsa_signature_parse_compact(context, &sig, r + s) == 1 else { return false }
        if allowHighS {
            var normalized = secp256k1_ecdsa_signature()
            _ = secp256k1_ecdsa_signature_normalize(context, &normalized, &sig)
            sig = normalized
        }
        return secp256k1_ecdsa_verify(context, &sig, digest, &pubkey) == 1
    }

    /// (key + tweak) mod n, as BIP-32 private derivation needs.
    public static func privateKeyTweakAdd(_ key: [UInt8], tweak: [UInt8]) throws(Secp256k1Error) -> [UInt8] {
        guard key.count == 32, tweak.count == 32 else { throw .invalidPrivateKey }
        var out = key
        guard secp256k1_ec_seckey_tweak_add(context, &out, tweak) == 1 else { throw .tweakOutOfRange }
        return out
    }

    /// point + tweak·G, as BIP-32 public derivation needs.
    public static func publicKeyTweakAdd(
        _ publicKey: [UInt8], tweak: [UInt8], compressed: Bool = true
    ) throws(Secp256k1Error) -> [UInt8] {
        var pub = try parse(publicKey: publicKey)
        guard tweak.count == 32, secp256k1_ec_pubkey_tweak_add(context, &pub, tweak) == 1 else {
            throw .tweakOutOfRange
        }
        return serialize(pub, compressed: compressed)
    }
}

/// A compact ECDSA signature with its recovery id (0 or 1 for signatures libsecp256k1 produces).
public struct RecoverableSignature: Sendable, Equatable, Hashable {
    public var r: [UInt8]
    public var s: [UInt8]
    public var recoveryID: UInt8

    public init(r: [UInt8], s: [UInt8], recoveryID: UInt8) {
        self.r = r
        self.s = s
        self.recoveryID = recoveryID
    }

    /// True when s ≤ n/2 (EIP-2).
    public var isLowS: Bool { s == Secp256k1.halfOrder || s.lexicographicallyPrecedes(Secp256k1.halfOrder) }
}
