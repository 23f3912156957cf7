import COpenSSL

/// AES-CBC (NIST SP 800-38A §6.2) over OpenSSL, with the padding chosen by the caller: AES-128 for a 16-byte key
/// (keystores), AES-256 for a 32-byte key (WalletConnect v1 payloads).
///
/// OpenSSL's own padding is always switched off: ``Padding/pkcs7`` is added and checked here, so a bad pad is a
/// typed ``Error/invalidPadding`` rather than an OpenSSL error-queue string.
public enum AESCBC {
    /// How the plaintext is brought to a whole number of 16-byte blocks.
    public enum Padding: Sendable, Equatable {
        /// None: the input must already be a multiple of 16 bytes (what web3swift's keystores use for a 32-byte key).
        case none
        /// PKCS#7 (RFC 5652 §6.3): 1 to 16 bytes, each holding the pad length; always at least one byte.
        case pkcs7
    }

    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case invalidKeyLength(Int)
        case invalidIVLength(Int)
        /// The input to decrypt (or, without padding, to encrypt) is not a whole number of 16-byte blocks.
        case invalidInputLength(Int)
        /// The last decrypted block does not end in valid PKCS#7 padding.
        case invalidPadding
        case openSSL(OpenSSLError)

        public var description: String {
            switch self {
            case .invalidKeyLength(let n): return "AES-CBC key must be 16 or 32 bytes, got \(n)"
            case .invalidIVLength(let n): return "AES-CBC IV must be 16 bytes, got \(n)"
            case .invalidInputLength(let n): return "AES-CBC input must be a multiple of 16 bytes, got \(n)"
            case .invalidPadding: return "AES-CBC: invalid PKCS#7 padding"
            case .openSSL(let e): return e.description
            }
        }
    }

    /// Encrypts `plaintext`.
    /// - Throws: ``Error/invalidInputLength(_:)`` when `padding` is `.none` and the length is not a multiple of 16.
    public static func encrypt(key: [UInt8], iv: [UInt8], plaintext: [UInt8], padding: Padding) throws(Error)
        -> [UInt8]
    {
        var input = plaintext
        switch padding {
        case .none:
            guard input.count % 16 == 0 else { throw .invalidInputLength(input.count) }
        case .pkcs7:
            let pad = 16 - input.count % 16
            input.append(contentsOf: repeatElement(UInt8(pad), count: pad))
        }
        return try run(encrypting: true, key: key, iv: iv, input: input)
    }

    /// Decrypts `ciphertext` and, with `.pkcs7`, checks and removes the padding.
    /// - Throws: ``Error/invalidInputLength(_:)``, ``Error/invalidPadding``.
    public static func decrypt(key: [UInt8], iv: [UInt8], ciphertext: [UInt8], padding: Padding) throws(Error)
        -> [UInt8]
    {
        guard ciphertext.count % 16 == 0, padding == .none || !ciphertext.isEmpty else {
            throw .invalidInputLength(ciphertext.count)
        }
        var plain = try run(encrypting: false, key: key, iv: iv, input: ciphertext)
        if padding == .pkcs7 {
            let pad = Int(plain[plain.count - 1])
            guard pad >= 1, pad <= 16, plain.suffix(pad).allSatisfy({ $0 == UInt8(pad) }) else {
                throw .invalidPadding
            }
            plain.removeLast(pad)
        }
        return plain
    }

    /// One pass of EVP AES-128-CBC or AES-256-CBC (by the key's length) without OpenSSL padding over whole blocks.
    private static func run(encrypting: Bool, key: [UInt8], iv: [UInt8], input: [UInt8]) throws(Error) -> [UInt8] {
        guard key.count == 16 || key.count == 32 else { throw .invalidKeyLength(key.count) }
        guard iv.count == 16 else { throw .invalidIVLength(iv.count) }
        guard input.count <= Int(Int32.max) - 16 else { throw .invalidInputLength(input.count) }
        do {
            let cipher = key.count == 32 ? EVP_aes_256_cbc() : EVP_aes_128_cbc()
            return try EVPCipher.run(cipher, key: key, iv: iv, encrypting: encrypting, input: input)
        } catch {
            throw .openSSL(error)
        }
    }
}
