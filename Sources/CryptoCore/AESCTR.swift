import COpenSSL

/// AES-128-CTR (NIST SP 800-38A) over OpenSSL. The 16-byte counter block increments as one big-endian
/// 128-bit integer and wraps modulo 2^128, as Web3 Secret Storage requires.
public enum AESCTR {
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case invalidKeyLength(Int)
        case invalidIVLength(Int)
        case openSSL(OpenSSLError)

        public var description: String {
            switch self {
            case .invalidKeyLength(let n): return "AES-128 key must be 16 bytes, got \(n)"
            case .invalidIVLength(let n): return "AES-CTR IV must be 16 bytes, got \(n)"
            case .openSSL(let e): return e.description
            }
        }
    }

    /// Encrypts or decrypts (the same operation in CTR mode).
    public static func apply(key: [UInt8], iv: [UInt8], to input: [UInt8]) throws(Error) -> [UInt8] {
        guard key.count == 16 else { throw .invalidKeyLength(key.count) }
        guard iv.count == 16 else { throw .invalidIVLength(iv.count) }
        do {
            return try EVPCipher.run(EVP_aes_128_ctr(), key: key, iv: iv, encrypting: true, input: input)
        } catch {
            throw .openSSL(error)
        }
    }
}
