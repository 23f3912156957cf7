import ByteCoding
import Foundation
import SecretStorage
import Testing

/// Vectors/generated/keystores.json (scripts/generate-keystore-vectors.py): web3swift `aes-128-cbc` files, geth's
/// 31- and 30-byte keys, and Klaytn v4 keyrings, each decrypted to the expected keys.
@Suite struct GeneratedKeystoreVectorTests {
    /// Read on each use: `Any` payloads cannot live in a shared static.
    static var cases: [String: [String: Any]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Vectors/generated/keystores.json")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let cases = object["cases"] as? [String: [String: Any]]
        else { return [:] }
        return cases
    }

    static func fileData(_ name: String) throws -> Data {
        let json = try #require(cases[name]?["json"])
        return try JSONSerialization.data(withJSONObject: json)
    }

    static func password(_ name: String) -> String { cases[name]?["password"] as? String ?? "" }

    @Test func allCasesArePresent() {
        #expect(Self.cases.count == 9)
    }

    /// web3swift's default (scrypt n=4096 r=6 p=1, CBC without padding), a PBKDF2 one and a PKCS#7-padded one.
    @Test(arguments: ["web3swift_default_scrypt", "web3swift_pbkdf2", "cbc_pkcs7_padded_scrypt"])
    func web3swiftCBC(name: String) throws {
        let keystore = try Keystore(json: Self.fileData(name))
        #expect(keystore.cipher == .aes128CBC)
        #expect(!keystore.cipher.isInteroperable)
        let key = try keystore.decrypt(password: Self.password(name))
        let expected = try #require(Self.cases[name]?["priv"] as? String)
        #expect(Hex.encode(key) == expected)
        // eth-keyfile (eth-account, web3.py) returns something else for the same file: CTR over CBC ciphertext.
        #expect(Self.cases[name]?["eth_keyfile_reads"] as? String != expected)
        #expect(throws: KeystoreError.macMismatch) { try keystore.decrypt(password: "wrong") }
        // Converting keeps the id, address and key, and the result is the interoperable cipher.
        let converted = try keystore.converting(to: .aes128CTR, password: Array(Self.password(name).utf8))
        #expect(converted.cipher == .aes128CTR)
        #expect(converted.id == keystore.id)
        #expect(converted.address == keystore.address)
        #expect(try converted.decrypt(password: Self.password(name)) == key)
        let reparsed = try Keystore(json: converted.jsonData())
        #expect(reparsed == converted)
        let text = String(decoding: converted.jsonData(), as: UTF8.self)
        #expect(text.contains(#""cipher" : "aes-128-ctr""#))
    }

    /// geth's `31_byte_key` and `30_byte_key`: the plaintext is geth's `priv`, read left-padded to 32 bytes.
    @Test(arguments: ["31_byte_key", "30_byte_key"])
    func gethShortKeys(name: String) throws {
        let keystore = try Keystore(json: Self.fileData(name))
        let raw = try #require(Self.cases[name]?["priv"] as? String)
        #expect(keystore.ciphertext.count == raw.count / 2)
        let key = try keystore.decrypt(password: Self.password(name))
        #expect(key.count == 32)
        #expect(Hex.encode(key) == String(repeating: "0", count: 64 - raw.count) + raw)
        #expect(Hex.encode(key) == Self.cases[name]?["padded_priv"] as? String)
        // The padded key re-encrypts into a standard 32-byte file.
        let fresh = try Keystore.encrypt(
            privateKey: key, password: "foo",
            kdf: .scrypt(n: 2, r: 8, p: 1, keyLength: 32, salt: Array(repeating: 3, count: 32)))
        #expect(fresh.ciphertext.count == 32)
        #expect(try fresh.decrypt(password: "foo") == key)
    }

    @Test(arguments: [
        ("klaytn_v4_single", false), ("klaytn_v4_multiple", false), ("klaytn_v4_role_based", true),
        ("klaytn_v4_role_based_all_roles", true),
    ])
    func klaytnV4(name: String, roleBased: Bool) throws {
        let keystore = try KlaytnKeystore(json: Self.fileData(name))
        let json = try #require(Self.cases[name]?["json"] as? [String: Any])
        #expect(keystore.address.lowercased == json["address"] as? String)
        #expect(keystore.id == json["id"] as? String)
        let keys = try keystore.decrypt(password: Self.password(name))
        let expected: KlaytnKeyring<String>
        if roleBased {
            expected = .roleBased(try #require(Self.cases[name]?["keys"] as? [[String]]))
        } else {
            expected = .keys(try #require(Self.cases[name]?["keys"] as? [String]))
        }
        #expect(keys.map { Hex.encode($0) } == expected)
        #expect(throws: KeystoreError.macMismatch) { try keystore.decrypt(password: "wrong") }
        // Written back, the file parses to the same keystore.
        #expect(try KlaytnKeystore(json: keystore.jsonData()) == keystore)
        // A v3 reader refuses it with a message that names the format.
        #expect(throws: KeystoreError.unsupportedVersion(4)) { try Keystore(json: Self.fileData(name)) }
    }
}
