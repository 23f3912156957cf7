import CryptoCore
import KeccakHashing

/// One password-encrypted secp256k1 private key: the `crypto` object of Web3 Secret Storage v3, which is also each
/// entry of a Klaytn v4 (KIP-3) `keyring`.
///
/// The KDF turns the password into a derived key; its first 16 bytes are the AES-128 key and
/// MAC = keccak256(derivedKey[16..<32] ‖ ciphertext) authenticates the ciphertext.
public struct KeystoreCrypto: Sendable, Equatable, CustomStringConvertible {
    /// The cipher named in the file.
    public var cipher: KeystoreCipher
    /// The 16-byte IV (the initial counter block for CTR).
    public var iv: [UInt8]
    /// The encrypted private key.
    public var ciphertext: [UInt8]
    /// The key derivation function and its parameters.
    public var kdf: KeystoreKDF
    /// keccak256(derivedKey[16..<32] ‖ ciphertext).
    public var mac: [UInt8]

    public init(cipher: KeystoreCipher, iv: [UInt8], ciphertext: [UInt8], kdf: KeystoreKDF, mac: [UInt8]) {
        self.cipher = cipher
        self.iv = iv
        self.ciphertext = ciphertext
        self.kdf = kdf
        self.mac = mac
    }

    public var description: String { "\(cipher), \(kdf)" }

    /// Encrypts a 32-byte `privateKey` (CBC without padding, as web3swift writes it).
    /// - Throws: ``KeystoreError/invalidPrivateKey``, ``KeystoreError/invalidKDFParameters(_:)``,
    ///   ``KeystoreError/invalidField(_:reason:)`` for an IV that is not 16 bytes.
    public static func encrypt(
        privateKey: [UInt8], password: [UInt8], kdf: KeystoreKDF, iv: [UInt8]? = nil,
        cipher: KeystoreCipher = .aes128CTR, maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    ) throws(KeystoreError) -> KeystoreCrypto {
        guard privateKey.count == 32, Secp256k1.isValidPrivateKey(privateKey) else { throw .invalidPrivateKey }
        let iv = iv ?? SecureRandom.bytes(16)
        guard iv.count == 16 else { throw .invalidField("iv", reason: "must be 16 bytes, got \(iv.count)") }
        let derived = try kdf.deriveKey(password: password, maxScryptWork: maxKDFWork)
        let ciphertext: [UInt8]
        do {
            switch cipher {
            case .aes128CTR: ciphertext = try AESCTR.apply(key: Array(derived[0..<16]), iv: iv, to: privateKey)
            case .aes128CBC:
                ciphertext = try AESCBC.encrypt(
                    key: Array(derived[0..<16]), iv: iv, plaintext: privateKey, padding: .none)
            }
        } catch {
            throw .invalidField("crypto", reason: "\(error)")
        }
        return KeystoreCrypto(
            cipher: cipher, iv: iv, ciphertext: ciphertext, kdf: kdf,
            mac: mac(derivedKey: derived, ciphertext: ciphertext))
    }

    /// Derives the key, checks the MAC in constant time, decrypts, and reads the plaintext as geth does: a
    /// big-endian number, so keys of 31 or 30 bytes written by software that dropped leading zeros are
    /// left-padded to 32 bytes (geth's `v3_test_vector.json` cases `31_byte_key` and `30_byte_key`).
    /// - Returns: the 32-byte private key.
    /// - Throws: ``KeystoreError/macMismatch`` for a wrong password or a tampered file,
    ///   ``KeystoreError/invalidKDFParameters(_:)``, ``KeystoreError/invalidField(_:reason:)`` (IV, CBC length or
    ///   padding), ``KeystoreError/invalidPrivateKey``.
    /// - Parameter maxKDFWork: the most scrypt work N·r·p to do (``KeystoreKDF/defaultMaximumScryptWork``).
    public func decrypt(password: [UInt8], maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork)
        throws(KeystoreError) -> [UInt8]
    {
        guard iv.count == 16 else { throw .invalidField("crypto.cipherparams.iv", reason: "must be 16 bytes") }
        if cipher == .aes128CBC {
            guard ciphertext.count >= 32, ciphertext.count % 16 == 0 else {
                throw .invalidField(
                    "crypto.ciphertext",
                    reason: "aes-128-cbc needs 32 bytes (no padding) or a longer multiple of 16 (PKCS#7), "
                        + "got \(ciphertext.count)")
            }
        }
        let derived = try kdf.deriveKey(password: password, maxScryptWork: maxKDFWork)
        guard constantTimeEqual(Self.mac(derivedKey: derived, ciphertext: ciphertext), mac) else {
            throw .macMismatch
        }
        let plaintext: [UInt8]
        do {
            switch cipher {
            case .aes128CTR: plaintext = try AESCTR.apply(key: Array(derived[0..<16]), iv: iv, to: ciphertext)
            case .aes128CBC:
                plaintext = try AESCBC.decrypt(
                    key: Array(derived[0..<16]), iv: iv, ciphertext: ciphertext,
                    padding: ciphertext.count == 32 ? .none : .pkcs7)
            }
        } catch {
            throw .invalidField("crypto.ciphertext", reason: "\(error)")
        }
        guard let privateKey = Self.paddedPrivateKey(plaintext) else { throw .invalidPrivateKey }
        return privateKey
    }

    /// The plaintext read as a big-endian number in 32 bytes (geth's `crypto.ToECDSAUnsafe`), if it is a valid
    /// secp256k1 private key (1 ≤ d < n).
    static func paddedPrivateKey(_ plaintext: [UInt8]) -> [UInt8]? {
        let significant = plaintext.drop { $0 == 0 }
        guard significant.count <= 32 else { return nil }
        let key = [UInt8](repeating: 0, count: 32 - significant.count) + significant
        return Secp256k1.isValidPrivateKey(key) ? key : nil
    }

    static func mac(derivedKey: [UInt8], ciphertext: [UInt8]) -> [UInt8] {
        Keccak256.hash(Array(derivedKey[16..<32]) + ciphertext)
    }
}
