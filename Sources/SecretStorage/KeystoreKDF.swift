import CryptoCore

/// The key derivation function of a keystore and its parameters.
public enum KeystoreKDF: Sendable, Equatable, CustomStringConvertible {
    /// scrypt (RFC 7914). Any n (a power of two), r, p within the memory limit, including sets OpenSSL
    /// refuses such as n=262144 r=1 p=8.
    case scrypt(n: UInt64, r: UInt32, p: UInt32, keyLength: Int, salt: [UInt8])
    /// PBKDF2-HMAC-SHA256 (the only PRF Web3 Secret Storage defines).
    case pbkdf2(iterations: Int, keyLength: Int, salt: [UInt8])

    /// Most PBKDF2 iterations accepted from a file (about a minute of work), so a hostile file cannot hang us.
    public static let maximumIterations = 1 << 24

    /// The default for new keystores: scrypt n=262144 r=8 p=1, 32-byte key, 32 random salt bytes (geth's
    /// "standard" parameters).
    public static func defaultScrypt() -> KeystoreKDF {
        .scrypt(n: 262_144, r: 8, p: 1, keyLength: 32, salt: SecureRandom.bytes(32))
    }

    /// caver's default for Klaytn keystores: scrypt n=4096 r=8 p=1, 32-byte key, 32 random salt bytes.
    public static func klaytnDefault() -> KeystoreKDF {
        .scrypt(n: 4096, r: 8, p: 1, keyLength: 32, salt: SecureRandom.bytes(32))
    }

    /// PBKDF2-HMAC-SHA256 with `iterations` (262,144 by default) and 32 random salt bytes.
    public static func defaultPBKDF2(iterations: Int = 262_144) -> KeystoreKDF {
        .pbkdf2(iterations: iterations, keyLength: 32, salt: SecureRandom.bytes(32))
    }

    /// The same function and cost with a fresh random salt of the same length.
    public func withFreshSalt() -> KeystoreKDF {
        switch self {
        case .scrypt(let n, let r, let p, let keyLength, let salt):
            return .scrypt(n: n, r: r, p: p, keyLength: keyLength, salt: SecureRandom.bytes(max(salt.count, 16)))
        case .pbkdf2(let iterations, let keyLength, let salt):
            return .pbkdf2(iterations: iterations, keyLength: keyLength, salt: SecureRandom.bytes(max(salt.count, 16)))
        }
    }

    public var description: String {
        switch self {
        case .scrypt(let n, let r, let p, let keyLength, _): return "scrypt n=\(n) r=\(r) p=\(p) dklen=\(keyLength)"
        case .pbkdf2(let c, let keyLength, _): return "pbkdf2 hmac-sha256 c=\(c) dklen=\(keyLength)"
        }
    }

    var keyLength: Int {
        switch self {
        case .scrypt(_, _, _, let keyLength, _), .pbkdf2(_, let keyLength, _): return keyLength
        }
    }

    /// Derives the key from `password`.
    func deriveKey(password: [UInt8]) throws(KeystoreError) -> [UInt8] {
        guard keyLength >= 32, keyLength <= 1024 else {
            throw .invalidKDFParameters("dklen must be 32 to 1024 bytes, got \(keyLength)")
        }
        do {
            switch self {
            case .scrypt(let n, let r, let p, let keyLength, let salt):
                return try KeyDerivation.scrypt(password: password, salt: salt, n: n, r: r, p: p, keyLength: keyLength)
            case .pbkdf2(let iterations, let keyLength, let salt):
                guard iterations >= 1, iterations <= Self.maximumIterations else {
                    throw KeyDerivation.ParameterError.invalid("c must be 1 to \(Self.maximumIterations)")
                }
                return try KeyDerivation.pbkdf2(
                    password: password, salt: salt, iterations: iterations, keyLength: keyLength, digest: .sha256)
            }
        } catch {
            throw .invalidKDFParameters("\(error)")
        }
    }
}
