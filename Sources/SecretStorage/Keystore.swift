import CryptoCore
import EthereumTypes
import Foundation

/// A Web3 Secret Storage v3 keystore: a secp256k1 private key encrypted with AES-128 under a key derived from a
/// password by scrypt or PBKDF2, authenticated by MAC = keccak256(derivedKey[16..<32] ‖ ciphertext). The cipher
/// is `aes-128-ctr` (the standard) or web3swift's `aes-128-cbc`. Holds only ciphertext; `description` shows no
/// secret.
public struct Keystore: Sendable, Equatable, CustomStringConvertible {
    /// The file's UUID (random v4 for new files).
    public var id: String
    /// The key's address, when the file records it (new files always do).
    public var address: Address?
    /// The 16-byte IV (for CTR, the initial counter block).
    public var iv: [UInt8]
    /// The encrypted private key.
    public var ciphertext: [UInt8]
    /// The key derivation function and its parameters.
    public var kdf: KeystoreKDF
    /// keccak256(derivedKey[16..<32] ‖ ciphertext).
    public var mac: [UInt8]
    /// The cipher the file names (new files: `aes-128-ctr`).
    public var cipher: KeystoreCipher

    public var description: String {
        "Keystore(id: \(id), address: \(address?.checksummed ?? "none"), cipher: \(cipher), kdf: \(kdf))"
    }

    public init(
        id: String, address: Address?, iv: [UInt8], ciphertext: [UInt8], kdf: KeystoreKDF, mac: [UInt8],
        cipher: KeystoreCipher = .aes128CTR
    ) {
        self.id = id
        self.address = address
        self.iv = iv
        self.ciphertext = ciphertext
        self.kdf = kdf
        self.mac = mac
        self.cipher = cipher
    }

    /// The `crypto` section.
    public var crypto: KeystoreCrypto {
        KeystoreCrypto(cipher: cipher, iv: iv, ciphertext: ciphertext, kdf: kdf, mac: mac)
    }

    // MARK: Create

    /// Encrypts `privateKey` under `password`.
    /// - Parameters:
    ///   - kdf: defaults to scrypt n=262144 r=8 p=1 with a random 32-byte salt.
    ///   - iv: defaults to 16 random bytes.
    ///   - id: defaults to a random UUID.
    ///   - cipher: `aes-128-ctr` unless a web3swift-style `aes-128-cbc` file is wanted (e.g. for tests).
    /// - Throws: ``KeystoreError/invalidPrivateKey``, ``KeystoreError/invalidKDFParameters(_:)``.
    public static func encrypt(
        privateKey: [UInt8], password: [UInt8], kdf: KeystoreKDF = .defaultScrypt(), iv: [UInt8]? = nil,
        id: String? = nil, cipher: KeystoreCipher = .aes128CTR,
        maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    ) throws(KeystoreError) -> Keystore {
        guard let address = Self.address(of: privateKey) else { throw .invalidPrivateKey }
        let crypto = try KeystoreCrypto.encrypt(
            privateKey: privateKey, password: password, kdf: kdf, iv: iv, cipher: cipher, maxKDFWork: maxKDFWork)
        return Keystore(id: id ?? UUID().uuidString.lowercased(), address: address, crypto: crypto)
    }

    /// A keystore holding `crypto`.
    public init(id: String, address: Address?, crypto: KeystoreCrypto) {
        self.init(
            id: id, address: address, iv: crypto.iv, ciphertext: crypto.ciphertext, kdf: crypto.kdf, mac: crypto.mac,
            cipher: crypto.cipher)
    }

    /// Encrypts with the UTF-8 bytes of `password` (not normalised, as geth and web3.py do).
    public static func encrypt(
        privateKey: [UInt8], password: String, kdf: KeystoreKDF = .defaultScrypt(), iv: [UInt8]? = nil,
        id: String? = nil, cipher: KeystoreCipher = .aes128CTR
    ) throws(KeystoreError) -> Keystore {
        try encrypt(privateKey: privateKey, password: Array(password.utf8), kdf: kdf, iv: iv, id: id, cipher: cipher)
    }

    // MARK: Decrypt

    /// Derives the key, checks the MAC in constant time, and decrypts (``KeystoreCrypto/decrypt(password:)``: a
    /// key stored in fewer than 32 bytes is left-padded, as geth reads it).
    /// - Returns: the 32-byte private key.
    /// - Throws: ``KeystoreError/macMismatch`` for a wrong password or a tampered file (never a wrong key),
    ///   ``KeystoreError/invalidKDFParameters(_:)``, ``KeystoreError/invalidPrivateKey``,
    ///   ``KeystoreError/addressMismatch(expected:actual:)`` when the recorded address disagrees.
    public func decrypt(password: [UInt8], maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork)
        throws(KeystoreError)
        -> [UInt8]
    {
        let privateKey = try crypto.decrypt(password: password, maxKDFWork: maxKDFWork)
        guard let actual = Self.address(of: privateKey) else { throw .invalidPrivateKey }
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
    public func changingPassword(
        from oldPassword: [UInt8], to newPassword: [UInt8], kdf: KeystoreKDF? = nil,
        maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    ) throws(KeystoreError) -> Keystore {
        let privateKey = try decrypt(password: oldPassword, maxKDFWork: maxKDFWork)
        return try Self.encrypt(
            privateKey: privateKey, password: newPassword, kdf: kdf ?? self.kdf.withFreshSalt(), id: id, cipher: cipher,
            maxKDFWork: maxKDFWork)
    }

    /// Re-encrypts the same key with `cipher` under the same password, with a fresh salt and IV, keeping the id and
    /// address (e.g. a web3swift `aes-128-cbc` file to the `aes-128-ctr` every wallet reads).
    /// - Parameter kdf: the new KDF; by default the current one with a fresh salt.
    /// - Throws: as ``decrypt(password:)``.
    public func converting(
        to cipher: KeystoreCipher, password: [UInt8], kdf: KeystoreKDF? = nil,
        maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    ) throws(KeystoreError) -> Keystore {
        let privateKey = try decrypt(password: password, maxKDFWork: maxKDFWork)
        return try Self.encrypt(
            privateKey: privateKey, password: password, kdf: kdf ?? self.kdf.withFreshSalt(), id: id, cipher: cipher,
            maxKDFWork: maxKDFWork)
    }

    // MARK: Primitives

    static func address(of privateKey: [UInt8]) -> Address? {
        guard Secp256k1.isValidPrivateKey(privateKey), let publicKey = try? Secp256k1.publicKey(of: privateKey) else {
            return nil
        }
        return Address(publicKey: publicKey)
    }
}
