/// Why an extended key could not be made, derived or parsed (BIP-32).
public enum ExtendedKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// BIP-32 seeds are 16 to 64 bytes.
    case invalidSeedLength(Int)
    /// The master secret was 0 or ≥ n (probability below 2^-127; use another seed).
    case invalidMasterKey
    /// Child `index` is invalid (I_L ≥ n or a zero/infinite result; probability below 2^-127): BIP-32 says
    /// to skip to the next index.
    case invalidChild(index: UInt32)
    /// A hardened child cannot be derived from a public key.
    case hardenedDerivationFromPublicKey(index: UInt32)
    /// Depth would exceed 255.
    case depthOverflow
    /// The string is not valid Base58Check.
    case base58(Base58Check.Error)
    /// The payload is not 78 bytes.
    case invalidLength(Int)
    /// The 4-byte version is none of xprv, xpub, tprv, tpub.
    case unknownVersion(UInt32)
    /// A public version (xpub/tpub) carries private key data (a 0x00 prefix).
    case publicVersionWithPrivateKey
    /// A private version (xprv/tprv) carries a public key (a 0x02/0x03 prefix).
    case privateVersionWithPublicKey
    /// Private key data must start with 0x00.
    case invalidPrivateKeyPrefix(UInt8)
    /// A compressed public key starts with 0x02 or 0x03.
    case invalidPublicKeyPrefix(UInt8)
    /// The private key is 0 or not below n.
    case invalidPrivateKey
    /// The public key is not a point on secp256k1.
    case invalidPublicKey
    /// Depth 0 (a master key) with a non-zero parent fingerprint.
    case zeroDepthWithParentFingerprint
    /// Depth 0 (a master key) with a non-zero child index.
    case zeroDepthWithChildIndex

    public var description: String {
        switch self {
        case .invalidSeedLength(let n): return "a BIP-32 seed is 16 to 64 bytes, got \(n)"
        case .invalidMasterKey: return "the seed gives an invalid master key"
        case .invalidChild(let index): return "child \(index) is invalid; use the next index"
        case .hardenedDerivationFromPublicKey(let index):
            return "hardened child \(index & 0x7fff_ffff)' cannot be derived from a public key"
        case .depthOverflow: return "derivation depth exceeds 255"
        case .base58(let error): return "\(error)"
        case .invalidLength(let n): return "an extended key is 78 bytes, got \(n)"
        case .unknownVersion(let v): return "unknown extended key version 0x\(String(v, radix: 16))"
        case .publicVersionWithPrivateKey: return "public key version with private key data"
        case .privateVersionWithPublicKey: return "private key version with public key data"
        case .invalidPrivateKeyPrefix(let p):
            return "private key data must start with 0x00, got 0x\(String(p, radix: 16))"
        case .invalidPublicKeyPrefix(let p):
            return "public key must start with 0x02 or 0x03, got 0x\(String(p, radix: 16))"
        case .invalidPrivateKey: return "private key not in 1..n-1"
        case .invalidPublicKey: return "public key is not on the secp256k1 curve"
        case .zeroDepthWithParentFingerprint: return "depth 0 with a non-zero parent fingerprint"
        case .zeroDepthWithChildIndex: return "depth 0 with a non-zero child index"
        }
    }
}
