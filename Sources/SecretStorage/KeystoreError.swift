/// Why a keystore could not be read, decrypted or written (Web3 Secret Storage v3, Klaytn KIP-3 v4).
public enum KeystoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not JSON, or a required field is missing or of the wrong type.
    case invalidJSON(String)
    /// A version other than 3 (or, where Klaytn files are read, 4).
    case unsupportedVersion(Int)
    /// Only `aes-128-ctr` and web3swift's `aes-128-cbc` are supported.
    case unsupportedCipher(String)
    /// A Klaytn v4 `keyring` of the wrong shape or size (more roles or keys than Klaytn allows, mixed forms).
    case invalidKeyring(String)
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
        case .unsupportedVersion(4):
            return "keystore version 4 is a Klaytn KIP-3 keyring, not a v3 keystore (read it with KlaytnKeystore)"
        case .unsupportedVersion(let v): return "unsupported keystore version \(v) (3, or 4 for Klaytn KIP-3)"
        case .unsupportedCipher(let c): return "unsupported cipher '\(c)' (aes-128-ctr or aes-128-cbc)"
        case .invalidKeyring(let why): return "invalid Klaytn keyring: \(why)"
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
