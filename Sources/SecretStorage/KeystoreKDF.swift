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

    /// Most scrypt work N·r·p accepted by default: 2^25, 16 times geth's standard n=2^18 r=8 p=1 (about a second), so
    /// every keystore in the wild passes while parameters inside the memory limit but minutes of work
    /// (n=2^14 r=8 p=2^12) are refused before any work. Callers may allow more (`sandnet keystore --max-kdf-work`).
    public static let defaultMaximumScryptWork: UInt64 = 1 << 25

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

    /// Derives the key from `password`, refusing scrypt parameters whose work N·r·p is over `maxScryptWork` at once.
    func deriveKey(password: [UInt8], maxScryptWork: UInt64) throws(KeystoreError) -> [UInt8] {
        guard keyLength >= 32, keyLength <= 1024 else {
            throw .invalidKDFParameters("dklen must be 32 to 1024 bytes, got \(keyLength)")
        }
        do {
            switch self {
            case .scrypt(let n, let r, let p, let keyLength, let salt):
                try Self.checkScryptWork(n: n, r: r, p: p, limit: maxScryptWork)
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

    /// N·r·p within `limit` (checked arithmetic: the values come from a file).
    static func checkScryptWork(n: UInt64, r: UInt32, p: UInt32, limit: UInt64) throws(KeyDerivation.ParameterError) {
        let (nr, nrOverflow) = n.multipliedReportingOverflow(by: UInt64(r))
        let (work, workOverflow) = nr.multipliedReportingOverflow(by: UInt64(p))
        guard nrOverflow || workOverflow || work > limit else { return }
        let amount = nrOverflow || workOverflow ? "over 2^64" : "\(work)"
        let power = limit > 0 && limit & (limit - 1) == 0 ? " (2^\(limit.trailingZeroBitCount))" : ""
        throw .invalid("work N·r·p = \(amount) is over the limit of \(limit)\(power)")
    }
}
