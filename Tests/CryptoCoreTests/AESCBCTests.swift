import ByteCoding
import CryptoCore
import Testing

/// AES-CBC against NIST SP 800-38A appendix F.2.1 (CBC-AES128.Encrypt), F.2.2 (CBC-AES128.Decrypt) and F.2.5
/// (CBC-AES256.Encrypt).
@Suite struct AESCBCTests {
    static let key = try! Hex.decode("2b7e151628aed2a6abf7158809cf4f3c")
    static let iv = try! Hex.decode("000102030405060708090a0b0c0d0e0f")
    static let plaintext = try! Hex.decode(
        "6bc1bee22e409f96e93d7e117393172a" + "ae2d8a571e03ac9c9eb76fac45af8e51"
            + "30c81c46a35ce411e5fbc1191a0a52ef" + "f69f2445df4f9b17ad2b417be66c3710")
    static let ciphertext = try! Hex.decode(
        "7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2"
            + "73bed6b8e3c1743b7116e69e22229516" + "3ff1caa1681fac09120eca307586e1a7")

    @Test func nistF21Encrypt() throws {
        #expect(
            try AESCBC.encrypt(key: Self.key, iv: Self.iv, plaintext: Self.plaintext, padding: .none)
                == Self.ciphertext)
        // Each prefix of blocks is the matching prefix of the ciphertext (the chaining runs forward).
        for blocks in 1...4 {
            let got = try AESCBC.encrypt(
                key: Self.key, iv: Self.iv, plaintext: Array(Self.plaintext.prefix(16 * blocks)), padding: .none)
            #expect(got == Array(Self.ciphertext.prefix(16 * blocks)))
        }
    }

    @Test func nistF22Decrypt() throws {
        #expect(
            try AESCBC.decrypt(key: Self.key, iv: Self.iv, ciphertext: Self.ciphertext, padding: .none)
                == Self.plaintext)
    }

    @Test func pkcs7AddsAWholeBlockToAlignedInput() throws {
        let padded = try AESCBC.encrypt(key: Self.key, iv: Self.iv, plaintext: Self.plaintext, padding: .pkcs7)
        #expect(padded.count == 80)
        #expect(Array(padded.prefix(64)) == Self.ciphertext)
        let raw = try AESCBC.decrypt(key: Self.key, iv: Self.iv, ciphertext: padded, padding: .none)
        #expect(Array(raw.suffix(16)) == [UInt8](repeating: 16, count: 16))
        #expect(try AESCBC.decrypt(key: Self.key, iv: Self.iv, ciphertext: padded, padding: .pkcs7) == Self.plaintext)
        for length in [0, 1, 15, 17, 31] {
            let plain = Array(Self.plaintext.prefix(length))
            let sealed = try AESCBC.encrypt(key: Self.key, iv: Self.iv, plaintext: plain, padding: .pkcs7)
            #expect(sealed.count == (length / 16 + 1) * 16)
            #expect(try AESCBC.decrypt(key: Self.key, iv: Self.iv, ciphertext: sealed, padding: .pkcs7) == plain)
        }
    }

    /// NIST SP 800-38A F.2.5 (CBC-AES256.Encrypt): a 32-byte key selects AES-256 (WalletConnect v1's cipher).
    @Test func nistF25AES256() throws {
        let key = try Hex.decode("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
        let expected = try Hex.decode(
            "f58c4c04d6e5f1ba779eabfb5f7bfbd6" + "9cfc4e967edb808d679f777bc6702c7d"
                + "39f23369a9d9bacfa530e26304231461" + "b2eb05e2c39be9fcda6c19078c6a9d1b")
        #expect(try AESCBC.encrypt(key: key, iv: Self.iv, plaintext: Self.plaintext, padding: .none) == expected)
        #expect(try AESCBC.decrypt(key: key, iv: Self.iv, ciphertext: expected, padding: .none) == Self.plaintext)
        #expect(throws: AESCBC.Error.invalidKeyLength(24)) {
            try AESCBC.encrypt(key: Array(key.prefix(24)), iv: Self.iv, plaintext: [], padding: .pkcs7)
        }
    }

    @Test func errors() throws {
        #expect(throws: AESCBC.Error.invalidKeyLength(15)) {
            try AESCBC.encrypt(key: Array(Self.key.prefix(15)), iv: Self.iv, plaintext: [], padding: .pkcs7)
        }
        #expect(throws: AESCBC.Error.invalidIVLength(8)) {
            try AESCBC.decrypt(key: Self.key, iv: Array(Self.iv.prefix(8)), ciphertext: Self.ciphertext, padding: .none)
        }
        #expect(throws: AESCBC.Error.invalidInputLength(31)) {
            try AESCBC.encrypt(key: Self.key, iv: Self.iv, plaintext: Array(Self.plaintext.prefix(31)), padding: .none)
        }
        #expect(throws: AESCBC.Error.invalidInputLength(0)) {
            try AESCBC.decrypt(key: Self.key, iv: Self.iv, ciphertext: [], padding: .pkcs7)
        }
        // The NIST plaintext's last byte is 0x10 but the block before it is not all 0x10: not PKCS#7.
        #expect(throws: AESCBC.Error.invalidPadding) {
            try AESCBC.decrypt(key: Self.key, iv: Self.iv, ciphertext: Self.ciphertext, padding: .pkcs7)
        }
        #expect(AESCBC.Error.invalidPadding.description == "AES-CBC: invalid PKCS#7 padding")
    }
}
