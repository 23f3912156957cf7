import ByteCoding
import CryptoCore
import EthereumTypes
import Foundation

/// A Klaytn keystore v4 (KIP-3 "Klaytn Keystore Format v4", the file caver-js and caver-java wallets keep):
/// `version` 4, an `id`, the account's `address`, and a `keyring` of v3 `crypto` objects, either an array of them
/// (one key or a multi-signature set) or an array of arrays (role-based: transaction, account update, fee payer).
///
/// Klaytn decouples addresses from keys, so the address is recorded, not derived, and never checked against the
/// keys. Each key has its own salt and IV and decrypts like a v3 `crypto` section (``KeystoreCrypto``).
public struct KlaytnKeystore: Sendable, Equatable, CustomStringConvertible {
    /// The file's UUID.
    public var id: String
    /// The Klaytn account the keys belong to.
    public var address: Address
    /// The encrypted keys.
    public var keyring: KlaytnKeyring<KeystoreCrypto>

    public init(id: String, address: Address, keyring: KlaytnKeyring<KeystoreCrypto>) {
        self.id = id
        self.address = address
        self.keyring = keyring
    }

    public var description: String {
        "KlaytnKeystore(id: \(id), address: \(address.lowercased), keys: \(keyring.allKeys.count))"
    }

    /// Encrypts every key under `password`, each with its own fresh salt (of `kdf`'s length) and IV, as caver does.
    /// - Parameters:
    ///   - keys: 32-byte private keys in the keyring's shape.
    ///   - address: the account; by default the address of the first key (a new, not yet decoupled account).
    ///   - kdf: the function and cost for every key (caver's default: scrypt n=4096 r=8 p=1).
    /// - Throws: ``KeystoreError/invalidKeyring(_:)``, ``KeystoreError/invalidPrivateKey``,
    ///   ``KeystoreError/invalidKDFParameters(_:)``.
    public static func encrypt(
        keys: KlaytnKeyring<[UInt8]>, address: Address? = nil, password: [UInt8],
        kdf: KeystoreKDF = .klaytnDefault(),
        id: String? = nil, maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    ) throws(KeystoreError) -> KlaytnKeystore {
        try keys.validate()
        guard let owner = address ?? keys.allKeys.first.flatMap(Keystore.address(of:)) else {
            throw .invalidPrivateKey
        }
        var first = true
        let keyring = try keys.map { (key: [UInt8]) throws(KeystoreError) -> KeystoreCrypto in
            defer { first = false }
            return try KeystoreCrypto.encrypt(
                privateKey: key, password: password, kdf: first ? kdf : kdf.withFreshSalt(), maxKDFWork: maxKDFWork)
        }
        return KlaytnKeystore(id: id ?? UUID().uuidString.lowercased(), address: owner, keyring: keyring)
    }

    /// Decrypts every key.
    /// - Returns: the 32-byte private keys in the keyring's shape.
    /// - Throws: as ``KeystoreCrypto/decrypt(password:)`` for the first key that fails.
    public func decrypt(password: [UInt8], maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork)
        throws(KeystoreError) -> KlaytnKeyring<[UInt8]>
    {
        try keyring.map { (crypto: KeystoreCrypto) throws(KeystoreError) -> [UInt8] in
            try crypto.decrypt(password: password, maxKDFWork: maxKDFWork)
        }
    }

    /// Decrypts with the UTF-8 bytes of `password`.
    public func decrypt(password: String) throws(KeystoreError) -> KlaytnKeyring<[UInt8]> {
        try decrypt(password: Array(password.utf8))
    }

    /// Re-encrypts every key under `newPassword`, each with a fresh salt and IV, keeping the id, the address, the
    /// keyring's shape and each key's cipher.
    /// - Parameter kdf: the new KDF for every key; by default each key's current one with a fresh salt.
    /// - Throws: as ``decrypt(password:)`` for the old password, for the first key that fails.
    public func changingPassword(
        from oldPassword: [UInt8], to newPassword: [UInt8], kdf: KeystoreKDF? = nil,
        maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    ) throws(KeystoreError) -> KlaytnKeystore {
        let changed = try keyring.map { (crypto: KeystoreCrypto) throws(KeystoreError) -> KeystoreCrypto in
            let key = try crypto.decrypt(password: oldPassword, maxKDFWork: maxKDFWork)
            return try KeystoreCrypto.encrypt(
                privateKey: key, password: newPassword, kdf: kdf?.withFreshSalt() ?? crypto.kdf.withFreshSalt(),
                cipher: crypto.cipher, maxKDFWork: maxKDFWork)
        }
        return KlaytnKeystore(id: id, address: address, keyring: changed)
    }

    // MARK: JSON

    /// Parses a KIP-3 v4 file.
    /// - Throws: ``KeystoreError/unsupportedVersion(_:)`` unless `version` is 4, ``KeystoreError/invalidKeyring(_:)``
    ///   for a keyring of the wrong shape or size, otherwise ``KeystoreError`` naming the field at fault
    ///   (`keyring[2][1].mac`).
    public init(json: Data) throws(KeystoreError) {
        let file: KlaytnKeystoreFile
        do {
            file = try JSONDecoder().decode(KlaytnKeystoreFile.self, from: json)
        } catch let error as DecodingError {
            throw .invalidJSON(Keystore.describe(error))
        } catch {
            throw .invalidJSON("\(error)")
        }
        guard file.version == 4 else { throw .unsupportedVersion(file.version) }
        guard file.crypto == nil else { throw .invalidJSON("'crypto' and 'keyring' cannot be defined together") }
        guard let entries = file.keyring else { throw .invalidJSON("missing 'keyring'") }
        guard let text = file.address else { throw .invalidJSON("missing 'address'") }
        let address: Address
        do {
            address = try Address(parsing: text.hasPrefix("0x") ? text : "0x" + text)
        } catch {
            throw .invalidField("address", reason: "\(error)")
        }
        let keyring: KlaytnKeyring<KeystoreCrypto>
        switch entries.first {
        case .none:
            throw .invalidKeyring("no keys")
        case .crypto?:
            var keys: [KeystoreCrypto] = []
            for (index, entry) in entries.enumerated() {
                guard case .crypto(let section) = entry else {
                    throw .invalidKeyring("keyring[\(index)] is an array but keyring[0] is a key object")
                }
                keys.append(try KeystoreCrypto(section: section, path: "keyring[\(index)]"))
            }
            keyring = .keys(keys)
        case .role?:
            var roles: [[KeystoreCrypto]] = []
            for (index, entry) in entries.enumerated() {
                guard case .role(let sections) = entry else {
                    throw .invalidKeyring("keyring[\(index)] is a key object but keyring[0] is a role array")
                }
                var keys: [KeystoreCrypto] = []
                for (position, section) in sections.enumerated() {
                    keys.append(try KeystoreCrypto(section: section, path: "keyring[\(index)][\(position)]"))
                }
                roles.append(keys)
            }
            keyring = .roleBased(roles)
        }
        try keyring.validate()
        self.init(id: file.id ?? "", address: address, keyring: keyring)
    }

    /// Parses the file at `path`.
    public init(contentsOf path: String) throws(KeystoreError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, reason: "cannot read the file")
        }
        try self.init(json: data)
    }

    /// The file contents: pretty-printed JSON with sorted keys, `version` 4, a `0x` address (as caver writes it),
    /// lowercase hex without `0x` inside the keyring.
    public func jsonData() -> Data {
        let entries: [KlaytnKeyringEntry]
        switch keyring {
        case .keys(let keys): entries = keys.map { .crypto(CryptoSection($0)) }
        case .roleBased(let roles): entries = roles.map { .role($0.map(CryptoSection.init)) }
        }
        return Keystore.encodePretty(
            KlaytnKeystoreFile(version: 4, id: id, address: address.lowercased, keyring: entries, crypto: nil))
    }

    /// Writes the file with mode 0600, never over an existing file unless `replacing` (then atomically).
    public func write(to path: String, replacing: Bool = false) throws(KeystoreError) {
        let data = [UInt8](jsonData())
        if replacing { try Keystore.replace(path, with: data) } else { try Keystore.writeExclusively(data, to: path) }
    }
}

/// The JSON shape of a v4 file.
struct KlaytnKeystoreFile: Codable {
    var version: Int
    var id: String?
    var address: String?
    var keyring: [KlaytnKeyringEntry]?
    var crypto: CryptoSection?
}

/// One element of `keyring`: a key object, or (role-based) an array of them.
enum KlaytnKeyringEntry: Codable {
    case crypto(CryptoSection)
    case role([CryptoSection])

    init(from decoder: any Decoder) throws {
        // Only a JSON array opens as an unkeyed container: the probe's error just means "not an array".
        if var array = try? decoder.unkeyedContainer() {
            var sections: [CryptoSection] = []
            while !array.isAtEnd { sections.append(try array.decode(CryptoSection.self)) }
            self = .role(sections)
        } else {
            self = .crypto(try CryptoSection(from: decoder))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .crypto(let section): try section.encode(to: encoder)
        case .role(let sections): try sections.encode(to: encoder)
        }
    }
}
