import CryptoCore
import EthereumTypes
import Foundation
import KeccakHashing

/// A Web3 Secret Storage v3 keystore: a secp256k1 private key encrypted with AES-128-CTR under a key
/// derived from a password by scrypt or PBKDF2, authenticated by MAC = keccak256(derivedKey[16..<32] ‖
/// ciphertext). Holds only ciphertext; `description` shows no secret.
public struct Keystore: Sendable, Equatable, CustomStringConvertible {
    /// The file's UUID (random v4 for new files).
    public var id: String
    /// The key's address, when the file records it (new files always do).
    public var address: Address?
    /// The 16-byte AES-128-CTR initial counter block.
    public var iv: [UInt8]
    /// The encrypted private key.
    public var ciphertext: [UInt8]
    /// The key derivation function and its parameters.
    public var kdf: KeystoreKDF
    /// keccak256(derivedKey[16..<32] ‖ ciphertext).
    public var mac: [UInt8]

    public var description: String {
        "Keystore(id: \(id), address: \(address?.checksummed ?? "none"), kdf: \(kdf))"
    }

    public init(id: String, address: Address?, iv: [UInt8], ciphertext: [UInt8], kdf: KeystoreKDF, mac: [UInt8]) {
        self.id = id
        self.address = address
        self.iv = iv
        self.ciphertext = ciphertext
        self.kdf = kdf
        self.mac = mac
    }

    // MARK: Create

    /// Encrypts `privateKey` under `password`.
    /// - Parameters:
    ///   - kdf: defaults to scrypt n=262144 r=8 p=1 with a random 32-byte salt.
    ///   - iv: defaults to 16 random bytes.
    ///   - id: defaults to a random UUID.
    /// - Throws: ``KeystoreError/invalidPrivateKey``, ``KeystoreError/invalidKDFParameters(_:)``.
    public static func encrypt(
        privateKey: [UInt8], password: [UInt8], kdf: KeystoreKDF = .defaultScrypt(), iv: [UInt8]? = nil,
        id: String? = nil
    ) throws(KeystoreError) -> Keystore {
        guard Secp256k1.isValidPrivateKey(privateKey), let publicKey = try? Secp256k1.publicKey(of: privateKey) else {
            throw .invalidPrivateKey
        }
        let iv = iv ?? SecureRandom.bytes(16)
        guard iv.count == 16 else { throw .invalidField("iv", reason: "must be 16 bytes, got \(iv.count)") }
        let derived = try kdf.deriveKey(password: password)
        let ciphertext = try aes(key: derived, iv: iv, input: privateKey)
        return Keystore(
            id: id ?? UUID().uuidString.lowercased(), address: Address(publicKey: publicKey), iv: iv,
            ciphertext: ciphertext, kdf: kdf, mac: Self.mac(derivedKey: derived, ciphertext: ciphertext))
    }

    /// Encrypts with the UTF-8 bytes of `password` (not normalised, as geth and web3.py do).
    public static func encrypt(
        privateKey: [UInt8], password: String, kdf: KeystoreKDF = .defaultScrypt(), iv: [UInt8]? = nil,
        id: String? = nil
    ) throws(KeystoreError) -> Keystore {
        try encrypt(privateKey: privateKey, password: Array(password.utf8), kdf: kdf, iv: iv, id: id)
    }

    // MARK: Decrypt

    /// Derives the key, checks the MAC in constant time, and decrypts.
    /// - Returns: the 32-byte private key.
    /// - Throws: ``KeystoreError/macMismatch`` for a wrong password or a tampered file (never a wrong key),
    ///   ``KeystoreError/invalidKDFParameters(_:)``, ``KeystoreError/invalidPrivateKey``,
    ///   ``KeystoreError/addressMismatch(expected:actual:)`` when the recorded address disagrees.
    public func decrypt(password: [UInt8]) throws(KeystoreError) -> [UInt8] {
        guard iv.count == 16 else { throw .invalidField("crypto.cipherparams.iv", reason: "must be 16 bytes") }
        let derived = try kdf.deriveKey(password: password)
        guard constantTimeEqual(Self.mac(derivedKey: derived, ciphertext: ciphertext), mac) else { throw .macMismatch }
        let privateKey = try Self.aes(key: derived, iv: iv, input: ciphertext)
        guard Secp256k1.isValidPrivateKey(privateKey), let publicKey = try? Secp256k1.publicKey(of: privateKey),
            let actual = Address(publicKey: publicKey)
        else { throw .invalidPrivateKey }
        if let address, address != actual {
            throw .addressMismatch(expected: address.lowercased, actual: actual.lowercased)
        }
        return privateKey
    }

    /// Decrypts with the UTF-8 bytes of `password`.
    public func decrypt(password: String) throws(KeystoreError) -> [UInt8] {
        try decrypt(password: Array(password.utf8))
    }

    /// Re-encrypts the same key under `newPassword` with a fresh salt and IV, keeping the id and address.
    /// - Parameter kdf: the new KDF; by default the current one with a fresh salt.
    /// - Throws: as ``decrypt(password:)`` for the old password.
    public func changingPassword(from oldPassword: [UInt8], to newPassword: [UInt8], kdf: KeystoreKDF? = nil)
        throws(KeystoreError) -> Keystore
    {
        let privateKey = try decrypt(password: oldPassword)
        return try Self.encrypt(
            privateKey: privateKey, password: newPassword, kdf: kdf ?? self.kdf.withFreshSalt(), id: id)
    }

    // MARK: Primitives

    static func mac(derivedKey: [UInt8], ciphertext: [UInt8]) -> [UInt8] {
        Keccak256.hash(Array(derivedKey[16..<32]) + ciphertext)
    }

    static func aes(key derived: [UInt8], iv: [UInt8], input: [UInt8]) throws(KeystoreError) -> [UInt8] {
        do {
            return try AESCTR.apply(key: Array(derived[0..<16]), iv: iv, to: input)
        } catch {
            throw .invalidField("crypto", reason: "\(error)")
        }
    }
}
