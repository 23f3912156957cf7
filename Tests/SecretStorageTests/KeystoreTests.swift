import ByteCoding
import Foundation
import SecretStorage
import Testing

@Suite struct KeystoreTests {
    static let key: [UInt8] = Array(1...32)
    /// Cheap parameters so the tests stay fast; the vectors exercise the real ones.
    static let fastScrypt = KeystoreKDF.scrypt(n: 1024, r: 8, p: 1, keyLength: 32, salt: Array(repeating: 7, count: 32))
    static let fastPBKDF2 = KeystoreKDF.pbkdf2(iterations: 1000, keyLength: 32, salt: Array(repeating: 9, count: 16))

    @Test(arguments: [fastScrypt, fastPBKDF2])
    func roundTrip(kdf: KeystoreKDF) throws {
        let keystore = try Keystore.encrypt(privateKey: Self.key, password: "pässword", kdf: kdf)
        #expect(keystore.address != nil)
        #expect(try keystore.decrypt(password: "pässword") == Self.key)
        let reparsed = try Keystore(json: keystore.jsonData())
        #expect(reparsed == keystore)
        #expect(try reparsed.decrypt(password: "pässword") == Self.key)
        let object = try JSONSerialization.jsonObject(with: keystore.jsonData()) as? [String: Any]
        #expect(object?["version"] as? Int == 3)
        #expect(object?["crypto"] != nil)
    }

    @Test func defaultIsScryptStandard() {
        guard case .scrypt(let n, let r, let p, let dklen, let salt) = KeystoreKDF.defaultScrypt() else {
            Issue.record("default is not scrypt")
            return
        }
        #expect([n, UInt64(r), UInt64(p), UInt64(dklen), UInt64(salt.count)] == [262_144, 8, 1, 32, 32])
    }

    @Test func wrongPasswordIsMACMismatch() throws {
        let keystore = try Keystore.encrypt(privateKey: Self.key, password: "right", kdf: Self.fastPBKDF2)
        #expect(throws: KeystoreError.macMismatch) { try keystore.decrypt(password: "wrong") }
        #expect(KeystoreError.macMismatch.description.hasPrefix("MAC mismatch"))
    }

    @Test func tamperingIsMACMismatch() throws {
        let keystore = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        var ciphertext = keystore
        ciphertext.ciphertext[5] ^= 1
        #expect(throws: KeystoreError.macMismatch) { try ciphertext.decrypt(password: "pw") }
        var mac = keystore
        mac.mac[0] ^= 0x80
        #expect(throws: KeystoreError.macMismatch) { try mac.decrypt(password: "pw") }
        var salt = keystore
        salt.kdf = .pbkdf2(iterations: 1000, keyLength: 32, salt: Array(repeating: 8, count: 16))
        #expect(throws: KeystoreError.macMismatch) { try salt.decrypt(password: "pw") }
    }

    @Test func changePassword() throws {
        let keystore = try Keystore.encrypt(privateKey: Self.key, password: "old", kdf: Self.fastScrypt)
        let changed = try keystore.changingPassword(from: Array("old".utf8), to: Array("new".utf8))
        #expect(changed.id == keystore.id)
        #expect(changed.address == keystore.address)
        #expect(changed.kdf != keystore.kdf)  // fresh salt
        #expect(changed.iv != keystore.iv)
        #expect(try changed.decrypt(password: "new") == Self.key)
        #expect(throws: KeystoreError.macMismatch) { try changed.decrypt(password: "old") }
        #expect(throws: KeystoreError.macMismatch) {
            try keystore.changingPassword(from: Array("nope".utf8), to: Array("new".utf8))
        }
        let pbkdf2 = try keystore.changingPassword(from: Array("old".utf8), to: [], kdf: Self.fastPBKDF2)
        #expect(try pbkdf2.decrypt(password: "") == Self.key)
    }

    @Test func invalidPrivateKeys() {
        let order = Hex.decodeOrNil("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
        for key in [[UInt8](repeating: 0, count: 32), order, [1, 2, 3]] {
            #expect(throws: KeystoreError.invalidPrivateKey) {
                try Keystore.encrypt(privateKey: key, password: "pw", kdf: Self.fastPBKDF2)
            }
        }
    }

    @Test func addressMismatch() throws {
        var keystore = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        let own = keystore.address!
        let other = try Keystore.encrypt(privateKey: Array(2...33), password: "pw", kdf: Self.fastPBKDF2).address!
        keystore.address = other
        #expect(throws: KeystoreError.addressMismatch(expected: other.lowercased, actual: own.lowercased)) {
            try keystore.decrypt(password: "pw")
        }
    }

    @Test func parseErrors() throws {
        let valid = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        func mutated(_ change: (inout [String: Any]) -> Void) throws -> Data {
            var object = try JSONSerialization.jsonObject(with: valid.jsonData()) as! [String: Any]
            change(&object)
            return try JSONSerialization.data(withJSONObject: object)
        }
        func crypto(_ change: @escaping (inout [String: Any]) -> Void) throws -> Data {
            try mutated { object in
                var section = object["crypto"] as! [String: Any]
                change(&section)
                object["crypto"] = section
            }
        }
        #expect(throws: KeystoreError.invalidJSON("invalid JSON")) { try Keystore(json: Data("{".utf8)) }
        #expect(throws: KeystoreError.unsupportedVersion(2)) { try Keystore(json: mutated { $0["version"] = 2 }) }
        #expect(throws: KeystoreError.invalidJSON("missing 'version'")) {
            try Keystore(json: mutated { $0["version"] = nil })
        }
        #expect(throws: KeystoreError.invalidJSON("missing 'crypto'")) {
            try Keystore(json: mutated { $0["crypto"] = nil })
        }
        #expect(throws: KeystoreError.invalidJSON("missing 'crypto.mac'")) {
            try Keystore(json: crypto { $0["mac"] = nil })
        }
        #expect(throws: KeystoreError.unsupportedCipher("aes-256-gcm")) {
            try Keystore(json: crypto { $0["cipher"] = "aes-256-gcm" })
        }
        #expect(
            KeystoreError.unsupportedCipher("x").description == "unsupported cipher 'x' (aes-128-ctr or aes-128-cbc)")
        // web3swift's cipher is read (see web3swiftStyleCBC).
        #expect(try Keystore(json: crypto { $0["cipher"] = "aes-128-cbc" }).cipher == .aes128CBC)
        #expect(throws: KeystoreError.unsupportedKDF("argon2id")) {
            try Keystore(json: crypto { $0["kdf"] = "argon2id" })
        }
        #expect(throws: KeystoreError.unsupportedPRF("hmac-sha512")) {
            try Keystore(
                json: crypto { section in
                    var params = section["kdfparams"] as! [String: Any]
                    params["prf"] = "hmac-sha512"
                    section["kdfparams"] = params
                })
        }
        #expect(throws: KeystoreError.invalidField("crypto.cipherparams.iv", reason: "must be 16 bytes")) {
            try Keystore(json: crypto { $0["cipherparams"] = ["iv": "00ff"] })
        }
        #expect(throws: KeystoreError.invalidField("crypto.mac", reason: "invalid hex character at position 0")) {
            try Keystore(json: crypto { $0["mac"] = "zz" })
        }
        // The old geth spelling `Crypto` is accepted.
        let legacy = try mutated { object in
            object["Crypto"] = object["crypto"]
            object["crypto"] = nil
        }
        #expect(try Keystore(json: legacy) == valid)
    }

    @Test func hostileKDFParameters() throws {
        var keystore = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        keystore.kdf = .scrypt(n: 1000, r: 8, p: 1, keyLength: 32, salt: [1])
        #expect(throws: KeystoreError.self) { try keystore.decrypt(password: "pw") }
        keystore.kdf = .scrypt(n: 1 << 40, r: 8, p: 1, keyLength: 32, salt: [1])
        #expect(throws: KeystoreError.self) { try keystore.decrypt(password: "pw") }
        keystore.kdf = .pbkdf2(iterations: 1 << 30, keyLength: 32, salt: [1])
        #expect(throws: KeystoreError.self) { try keystore.decrypt(password: "pw") }
        // Fuzzing regression: a file with "n": 4398046511104, "r": 1048577 trapped (UInt64 overflow) instead of
        // being refused.
        keystore.kdf = .scrypt(n: 1 << 42, r: 1_048_577, p: 1, keyLength: 32, salt: [1])
        let json = String(decoding: keystore.jsonData(), as: UTF8.self)
        #expect(json.contains(#""n" : 4398046511104"#) && json.contains(#""r" : 1048577"#))
        let hostile = try Keystore(json: Data(json.utf8))
        // Refused by the work bound (checked arithmetic, issue 38) before the memory bound is reached.
        #expect(
            throws: KeystoreError.invalidKDFParameters(
                "invalid key derivation parameters: work N·r·p = 4611690416473899008 is over the limit of 33554432 (2^25)"
            )
        ) {
            try hostile.decrypt(password: "pw")
        }
        keystore.kdf = .pbkdf2(iterations: 10, keyLength: 16, salt: [1])
        #expect(throws: KeystoreError.invalidKDFParameters("dklen must be 32 to 1024 bytes, got 16")) {
            try keystore.decrypt(password: "pw")
        }
    }

    /// Issue 38: scrypt parameters inside the memory limit but minutes of work (n=2^14 r=8 p=2^12) are refused at
    /// once, naming the limit.
    @Test func hostileScryptWorkIsRefusedAtOnce() throws {
        var keystore = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        keystore.kdf = .scrypt(n: 1 << 14, r: 8, p: 1 << 12, keyLength: 32, salt: [1])
        let hostile = try Keystore(json: keystore.jsonData())
        #expect(
            throws: KeystoreError.invalidKDFParameters(
                "invalid key derivation parameters: work N·r·p = 536870912 is over the limit of 33554432 (2^25)")
        ) {
            try hostile.decrypt(password: "pw")
        }
    }

    @Test func filesAreWrittenOwnerOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-ks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("key.json").path
        let keystore = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        try keystore.write(to: path)
        func mode() throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        }
        #expect(try mode() == 0o600)
        #expect(try Keystore(contentsOf: path) == keystore)
        #expect(throws: KeystoreError.self) { try keystore.write(to: path) }  // never overwritten by accident
        let changed = try keystore.changingPassword(from: Array("pw".utf8), to: Array("new".utf8))
        try changed.write(to: path, replacing: true)
        #expect(try mode() == 0o600)
        #expect(try Keystore(contentsOf: path) == changed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["key.json"])
        #expect(throws: KeystoreError.io(path: dir.path + "/missing.json", reason: "cannot read the file")) {
            try Keystore(contentsOf: dir.path + "/missing.json")
        }
    }

    /// A file written the web3swift way (CBC, no padding) round-trips; the MAC covers the CBC ciphertext.
    @Test func web3swiftStyleCBC() throws {
        let keystore = try Keystore.encrypt(
            privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2, iv: Array(repeating: 1, count: 16),
            cipher: .aes128CBC)
        #expect(keystore.ciphertext.count == 32)
        let ctr = try Keystore.encrypt(
            privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2, iv: Array(repeating: 1, count: 16))
        #expect(ctr.ciphertext != keystore.ciphertext)
        #expect(try keystore.decrypt(password: "pw") == Self.key)
        let text = String(decoding: keystore.jsonData(), as: UTF8.self)
        #expect(text.contains(#""cipher" : "aes-128-cbc""#))
        #expect(try Keystore(json: keystore.jsonData()) == keystore)
        // Reading CBC ciphertext as CTR (what eth-account does) passes the MAC, which does not cover the cipher
        // name, and yields another key: only the recorded address catches it.
        var misread = keystore
        misread.cipher = .aes128CTR
        do {
            let wrong = try misread.decrypt(password: "pw")
            Issue.record("CBC ciphertext read as CTR gave \(wrong.count) bytes")
        } catch {
            guard case .addressMismatch(let expected, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(expected == keystore.address?.lowercased)
        }
        // Change of password keeps the cipher; conversion changes it.
        let changed = try keystore.changingPassword(from: Array("pw".utf8), to: Array("new".utf8))
        #expect(changed.cipher == .aes128CBC)
        let converted = try keystore.converting(to: .aes128CTR, password: Array("pw".utf8))
        #expect(converted.cipher == .aes128CTR)
        #expect(converted.kdf != keystore.kdf)  // fresh salt
        #expect(try converted.decrypt(password: "pw") == Self.key)
        #expect(throws: KeystoreError.macMismatch) {
            try keystore.converting(to: .aes128CTR, password: Array("nope".utf8))
        }
    }

    @Test func cbcCiphertextLengthIsChecked() throws {
        var keystore = try Keystore.encrypt(
            privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2, cipher: .aes128CBC)
        for length in [16, 31, 33] {
            keystore.ciphertext = Array(repeating: 0, count: length)
            #expect(
                throws: KeystoreError.invalidField(
                    "crypto.ciphertext",
                    reason:
                        "aes-128-cbc needs 32 bytes (no padding) or a longer multiple of 16 (PKCS#7), got \(length)")
            ) { try keystore.decrypt(password: "pw") }
        }
    }

    @Test func descriptionShowsNoSecret() throws {
        let keystore = try Keystore.encrypt(privateKey: Self.key, password: "pw", kdf: Self.fastPBKDF2)
        let text = "\(keystore)"
        #expect(!text.contains(Hex.encode(Self.key)))
        #expect(!text.contains(Hex.encode(keystore.ciphertext)))
        #expect(text.contains("pbkdf2"))
    }
}

extension Hex {
    static func decodeOrNil(_ text: String) -> [UInt8] { (try? decode(text)) ?? [] }
}
