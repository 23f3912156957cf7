/// Why a keystore could not be read, decrypted or written (Web3 Secret Storage v3).
public enum KeystoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not JSON, or a required field is missing or of the wrong type.
    case invalidJSON(String)
    /// Only version 3 is supported.
    case unsupportedVersion(Int)
    /// Only `aes-128-ctr` is supported.
    case unsupportedCipher(String)
    /// Only `scrypt` and `pbkdf2` are supported.
    case unsupportedKDF(String)
    /// PBKDF2 supports only `hmac-sha256`.
    case unsupportedPRF(String)
    /// A field holds a bad value (`field` is its JSON path, e.g. `crypto.cipherparams.iv`).
    case invalidField(String, reason: String)
    /// The KDF parameters are out of range (too much memory or work, not a power of two, …).
    case invalidKDFParameters(String)
    /// The MAC does not match: the password is wrong or the file was changed.
    case macMismatch
    /// The decrypted (or supplied) key is not a valid secp256k1 private key.
    case invalidPrivateKey
    /// The file's `address` is not the address of the decrypted key.
    case addressMismatch(expected: String, actual: String)
    /// A file could not be read or written.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidJSON(let why): return "not a v3 keystore: \(why)"
        case .unsupportedVersion(let v): return "unsupported keystore version \(v) (only 3)"
        case .unsupportedCipher(let c): return "unsupported cipher '\(c)' (only aes-128-ctr)"
        case .unsupportedKDF(let k): return "unsupported kdf '\(k)' (scrypt or pbkdf2)"
        case .unsupportedPRF(let p): return "unsupported pbkdf2 prf '\(p)' (only hmac-sha256)"
        case .invalidField(let field, let reason): return "\(field): \(reason)"
        case .invalidKDFParameters(let why): return "invalid kdf parameters: \(why)"
        case .macMismatch: return "MAC mismatch: wrong password or corrupted keystore"
        case .invalidPrivateKey: return "the key is not a valid secp256k1 private key"
        case .addressMismatch(let expected, let actual):
            return "keystore address \(expected) does not match the decrypted key's address \(actual)"
        case .io(let path, let reason): return "\(path): \(reason)"
        }
    }
}
