import ByteCoding
import EthereumTypes
import Foundation
import SecretStorage
import Testing

/// Klaytn keystore v4 (KIP-3): writing, reading, and the keyring's limits.
@Suite struct KlaytnKeystoreTests {
    static let fast = KeystoreKDF.scrypt(n: 16, r: 8, p: 1, keyLength: 32, salt: Array(repeating: 5, count: 32))
    static func key(_ n: UInt8) -> [UInt8] { Array(repeating: 0, count: 31) + [n] }

    @Test func roundTripEveryForm() throws {
        let forms: [KlaytnKeyring<[UInt8]>] = [
            .keys([Self.key(1)]), .keys([Self.key(1), Self.key(2), Self.key(3)]),
            .roleBased([[Self.key(1)], [], [Self.key(2), Self.key(3)]]), .roleBased([[Self.key(4)]]),
        ]
        for keys in forms {
            let keystore = try KlaytnKeystore.encrypt(keys: keys, password: Array("pw".utf8), kdf: Self.fast)
            #expect(keystore.keyring.allKeys.count == keys.allKeys.count)
            // Each key gets its own salt and IV.
            let salts = keystore.keyring.allKeys.map { "\($0.kdf)" + Hex.encode($0.iv) }
            #expect(Set(salts).count == salts.count)
            #expect(try keystore.decrypt(password: "pw") == keys)
            let reparsed = try KlaytnKeystore(json: keystore.jsonData())
            #expect(reparsed == keystore)
            #expect(try reparsed.decrypt(password: "pw") == keys)
        }
    }

    @Test func changingPasswordKeepsIdAddressShapeAndCiphers() throws {
        let keys = KlaytnKeyring<[UInt8]>.roleBased([[Self.key(1)], [], [Self.key(2), Self.key(3)]])
        let account = try Address(parsing: "0xa8677855999712d23692a4cad77bb9396a1174cd")
        var keystore = try KlaytnKeystore.encrypt(
            keys: keys, address: account, password: Array("old".utf8), kdf: Self.fast, id: "fixed-id")
        // One key in web3swift's cipher and another KDF: each key keeps its own.
        let last = keystore.keyring.allKeys.last
        keystore.keyring = try keystore.keyring.map {
            (crypto: KeystoreCrypto) throws(KeystoreError) -> KeystoreCrypto in
            guard crypto == last else { return crypto }
            return try KeystoreCrypto.encrypt(
                privateKey: Self.key(3), password: Array("old".utf8),
                kdf: .pbkdf2(iterations: 10, keyLength: 32, salt: Array(repeating: 9, count: 32)), cipher: .aes128CBC)
        }
        let changed = try keystore.changingPassword(from: Array("old".utf8), to: Array("new".utf8))
        #expect(changed.id == "fixed-id")
        #expect(changed.address == account)
        #expect(try changed.decrypt(password: "new") == keys)
        #expect(throws: KeystoreError.macMismatch) { try changed.decrypt(password: "old") }
        let before = keystore.keyring.allKeys
        let after = changed.keyring.allKeys
        #expect(after.map(\.cipher) == [.aes128CTR, .aes128CTR, .aes128CBC])
        #expect(after.map { "\($0.kdf)" } == before.map { "\($0.kdf)" })  // same function and cost
        for (old, new) in zip(before, after) {
            #expect(old.kdf != new.kdf)  // a fresh salt
            #expect(old.iv != new.iv)
        }
        let reparsed = try KlaytnKeystore(json: changed.jsonData())
        #expect(try reparsed.decrypt(password: "new") == keys)

        let pbkdf2 = try keystore.changingPassword(
            from: Array("old".utf8), to: [],
            kdf: .pbkdf2(iterations: 7, keyLength: 32, salt: Array(repeating: 1, count: 32)))
        #expect(
            pbkdf2.keyring.allKeys.map { "\($0.kdf)" } == Array(repeating: "pbkdf2 hmac-sha256 c=7 dklen=32", count: 3))
        let kdfs = pbkdf2.keyring.allKeys.map(\.kdf)
        #expect(kdfs[0] != kdfs[1] && kdfs[1] != kdfs[2] && kdfs[0] != kdfs[2])  // each key its own salt
        #expect(try pbkdf2.decrypt(password: []) == keys)
        #expect(throws: KeystoreError.macMismatch) {
            try keystore.changingPassword(from: Array("wrong".utf8), to: Array("new".utf8))
        }
    }

    @Test func addressDefaultsToTheFirstKeyAndIsKeptWhenGiven() throws {
        let first = try Keystore.encrypt(privateKey: Self.key(7), password: "pw", kdf: Self.fast).address
        let derived = try KlaytnKeystore.encrypt(keys: .keys([Self.key(7)]), password: [], kdf: Self.fast)
        #expect(derived.address == first)
        let account = try Address(parsing: "0xa8677855999712d23692a4cad77bb9396a1174cd")
        let decoupled = try KlaytnKeystore.encrypt(
            keys: .roleBased([[Self.key(7)]]), address: account, password: [], kdf: Self.fast)
        #expect(decoupled.address == account)
        let text = String(decoding: decoupled.jsonData(), as: UTF8.self)
        #expect(text.contains(#""address" : "0xa8677855999712d23692a4cad77bb9396a1174cd""#))
        #expect(text.contains(#""version" : 4"#))
    }

    @Test func keyringLimits() {
        let eleven = (1...11).map { Self.key(UInt8($0)) }
        #expect(
            throws: KeystoreError.invalidKeyring("11 keys; Klaytn allows at most 10 per account key")
        ) { try KlaytnKeystore.encrypt(keys: .keys(eleven), password: [], kdf: Self.fast) }
        #expect(
            throws: KeystoreError.invalidKeyring(
                "4 roles; Klaytn defines 3 (transaction, account-update, fee-payer)")
        ) {
            try KlaytnKeystore.encrypt(
                keys: .roleBased([[Self.key(1)], [], [], [Self.key(2)]]), password: [], kdf: Self.fast)
        }
        #expect(
            throws: KeystoreError.invalidKeyring(
                "role account-update has 11 keys; Klaytn allows at most 10 per role")
        ) { try KlaytnKeystore.encrypt(keys: .roleBased([[], eleven]), password: [], kdf: Self.fast) }
        #expect(throws: KeystoreError.invalidKeyring("no keys")) {
            try KlaytnKeystore.encrypt(keys: .keys([]), password: [], kdf: Self.fast)
        }
        #expect(throws: KeystoreError.invalidKeyring("no keys in any role")) {
            try KlaytnKeystore.encrypt(keys: .roleBased([[], []]), password: [], kdf: Self.fast)
        }
        #expect(
            KeystoreError.invalidKeyring("no keys").description == "invalid Klaytn keyring: no keys")
    }

    @Test func parseErrors() throws {
        let valid = try KlaytnKeystore.encrypt(
            keys: .roleBased([[Self.key(1)], [Self.key(2)]]), password: [], kdf: Self.fast)
        let object = try #require(try JSONSerialization.jsonObject(with: valid.jsonData()) as? [String: Any])
        let roles = try #require(object["keyring"] as? [[Any]])
        func parse(_ change: (inout [String: Any]) -> Void) throws -> KlaytnKeystore {
            var copy = object
            change(&copy)
            return try KlaytnKeystore(json: try JSONSerialization.data(withJSONObject: copy))
        }
        #expect(throws: KeystoreError.unsupportedVersion(3)) { try parse { $0["version"] = 3 } }
        #expect(throws: KeystoreError.invalidJSON("missing 'keyring'")) { try parse { $0["keyring"] = nil } }
        #expect(throws: KeystoreError.invalidJSON("missing 'address'")) { try parse { $0["address"] = nil } }
        #expect(throws: KeystoreError.invalidJSON("'crypto' and 'keyring' cannot be defined together")) {
            try parse { $0["crypto"] = roles[0][0] }
        }
        #expect(throws: KeystoreError.invalidKeyring("no keys")) { try parse { $0["keyring"] = [Any]() } }
        #expect(
            throws: KeystoreError.invalidKeyring("keyring[1] is a key object but keyring[0] is a role array")
        ) { try parse { $0["keyring"] = [roles[0], roles[1][0]] } }
        #expect(
            throws: KeystoreError.invalidKeyring("keyring[1] is an array but keyring[0] is a key object")
        ) { try parse { $0["keyring"] = [roles[0][0], roles[1]] } }
        #expect(throws: KeystoreError.invalidField("keyring[1][0].mac", reason: "must be 32 bytes")) {
            try parse { file in
                var entry = roles[1][0] as! [String: Any]
                entry["mac"] = "00"
                file["keyring"] = [roles[0], [entry]]
            }
        }
        #expect(throws: KeystoreError.unsupportedCipher("aes-256-gcm")) {
            try parse { file in
                var entry = roles[0][0] as! [String: Any]
                entry["cipher"] = "aes-256-gcm"
                file["keyring"] = [[entry]]
            }
        }
        // The same keystore with its keyring as role arrays parses back equal.
        #expect(try parse { _ in } == valid)
    }

    @Test func descriptionShowsNoSecret() throws {
        let keystore = try KlaytnKeystore.encrypt(keys: .keys([Self.key(9)]), password: [], kdf: Self.fast)
        let text = "\(keystore)"
        #expect(!text.contains(Hex.encode(keystore.keyring.allKeys[0].ciphertext)))
        #expect(text.contains("keys: 1"))
    }
}
