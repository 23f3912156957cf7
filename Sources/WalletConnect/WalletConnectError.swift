/// Why a WalletConnect v2 value (pairing URI, envelope, key, relay JWT) was refused.
public enum WalletConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pairing URI is malformed; the text says which part.
    case invalidURI(String)
    /// The pairing URI's `expiryTimestamp` is at or before `now` (seconds since 1970).
    case expiredURI(expiry: Int64, now: Int64)
    /// An envelope is malformed (bad base64, unknown type byte, too short).
    case invalidEnvelope(String)
    /// ChaCha20-Poly1305 authentication failed: wrong key or tampered message.
    case decryptionFailed
    /// A key has the wrong length or is not valid for its curve.
    case invalidKey(String)
    /// The relay JWT is malformed, badly signed, expired or for another audience.
    case invalidJWT(String)

    public var description: String {
        switch self {
        case .invalidURI(let why): return "invalid WalletConnect URI: \(why)"
        case .expiredURI(let expiry, let now): return "WalletConnect URI expired at \(expiry) (now \(now))"
        case .invalidEnvelope(let why): return "invalid WalletConnect envelope: \(why)"
        case .decryptionFailed: return "WalletConnect envelope does not decrypt with this key"
        case .invalidKey(let why): return "invalid key: \(why)"
        case .invalidJWT(let why): return "invalid relay JWT: \(why)"
        }
    }
}
