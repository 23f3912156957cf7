import ByteCoding
import CryptoCore
import EthereumTypes
import Testing

@Suite struct Secp256k1Tests {
    // Anvil/Hardhat dev account #0 from the `test … junk` mnemonic.
    let key = try! Hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")

    @Test func addressOfKnownKey() throws {
        let pub = try Secp256k1.publicKey(of: key)
        #expect(Address(publicKey: pub)?.checksummed == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        let compressed = try Secp256k1.publicKey(of: key, compressed: true)
        #expect(compressed.count == 33)
        #expect(try Secp256k1.normalize(publicKey: compressed, compressed: false) == pub)
    }

    @Test func signRecoverVerify() throws {
        let digest = Array(0..<32).map { UInt8($0) }
        let sig = try Secp256k1.sign(digest: digest, privateKey: key)
        #expect(sig.isLowS)
        #expect(try Secp256k1.recover(digest: digest, signature: sig) == Secp256k1.publicKey(of: key))
        #expect(Secp256k1.verify(digest: digest, r: sig.r, s: sig.s, publicKey: try Secp256k1.publicKey(of: key)))
        var other = digest
        other[0] ^= 1
        #expect(!Secp256k1.verify(digest: other, r: sig.r, s: sig.s, publicKey: try Secp256k1.publicKey(of: key)))
        // RFC 6979 makes signing deterministic.
        #expect(try Secp256k1.sign(digest: digest, privateKey: key) == sig)
    }

    @Test func rejectsBadKeysAndDigests() {
        #expect(!Secp256k1.isValidPrivateKey([UInt8](repeating: 0, count: 32)))
        #expect(!Secp256k1.isValidPrivateKey(Secp256k1.order))
        #expect(throws: Secp256k1Error.invalidPrivateKey) { try Secp256k1.publicKey(of: [1, 2, 3]) }
        #expect(throws: Secp256k1Error.invalidDigestLength(31)) {
            try Secp256k1.sign(digest: [UInt8](repeating: 1, count: 31), privateKey: key)
        }
        #expect(throws: Secp256k1Error.invalidPublicKey) {
            try Secp256k1.normalize(publicKey: [0x04] + [UInt8](repeating: 1, count: 64), compressed: true)
        }
        let zeroSig = RecoverableSignature(
            r: [UInt8](repeating: 0, count: 32), s: [UInt8](repeating: 0, count: 32), recoveryID: 0)
        #expect(throws: Secp256k1Error.self) {
            try Secp256k1.recover(digest: [UInt8](repeating: 1, count: 32), signature: zeroSig)
        }
    }
}

@Suite struct OpenSSLTests {
    @Test func digests() {
        #expect(
            Hex.encode(Digest.sha256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(Digest.sha224.hash(Array("abc".utf8)))
                == "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")
        #expect(Hex.encode(Digest.ripemd160.hash(Array("abc".utf8))) == "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc")
    }

    @Test func hmacSHA512RFC4231Case2() {
        let mac = HMAC.authenticate(
            Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8), digest: .sha512)
        #expect(Hex.encode(mac).hasPrefix("164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea250554"))
    }

    /// RFC 7914 §12 test vectors 2 (through OpenSSL) and a parameter set OpenSSL refuses (r=1, N=2^16).
    @Test func scryptRFC7914() throws {
        let dk = try KeyDerivation.scrypt(
            password: Array("password".utf8), salt: Array("NaCl".utf8), n: 1024, r: 8, p: 16, keyLength: 64)
        #expect(
            Hex.encode(dk)
                == "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        )
        // Swift ROMix path must agree with OpenSSL where both apply: compare through a parameter set
        // OpenSSL accepts (N=16, r=1, p=1) computed both ways.
        let viaSwift = try KeyDerivation.scryptSwiftForTesting(
            password: [1, 2, 3], salt: [4, 5, 6], n: 16, r: 1, p: 1, keyLength: 32)
        let viaOpenSSL = try KeyDerivation.scrypt(
            password: [1, 2, 3], salt: [4, 5, 6], n: 16, r: 1, p: 1, keyLength: 32)
        #expect(viaSwift == viaOpenSSL)
        let rfc1 = try KeyDerivation.scryptSwiftForTesting(password: [], salt: [], n: 16, r: 1, p: 1, keyLength: 64)
        #expect(
            Hex.encode(rfc1)
                == "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
        )
    }

    @Test func scryptRejectsBadParameters() {
        #expect(throws: KeyDerivation.ParameterError.self) {
            try KeyDerivation.scrypt(password: [], salt: [], n: 1000, r: 8, p: 1, keyLength: 32)
        }
        #expect(throws: KeyDerivation.ParameterError.self) {
            try KeyDerivation.scrypt(password: [], salt: [], n: 1 << 40, r: 8, p: 1, keyLength: 32)
        }
        // Fuzzing regression (Fuzz/Reproducers/keystore): 128·r·(N + p + 2) overflowed UInt64 and trapped.
        #expect(throws: KeyDerivation.ParameterError.invalid("needs more than 4096 MiB of memory")) {
            try KeyDerivation.scrypt(password: [], salt: [], n: 1 << 42, r: 1_048_577, p: 1, keyLength: 32)
        }
        #expect(throws: KeyDerivation.ParameterError.invalid("needs more than 4096 MiB of memory")) {
            try KeyDerivation.scrypt(password: [], salt: [], n: 1 << 39, r: (1 << 30) - 1, p: 1, keyLength: 32)
        }
    }

    @Test func pbkdf2SHA512() throws {
        // BIP-39 seed of the all-zero-entropy English mnemonic with passphrase TREZOR.
        let mnemonic = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
        let seed = try KeyDerivation.pbkdf2(
            password: Array(mnemonic.utf8), salt: Array("mnemonicTREZOR".utf8), iterations: 2048, keyLength: 64,
            digest: .sha512)
        #expect(Hex.encode(seed).hasPrefix("c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e5349553"))
    }

    @Test func aesCTRWrapsTheCounter() throws {
        let key = [UInt8](repeating: 0x2b, count: 16)
        let iv = [UInt8](repeating: 0xff, count: 16)
        let plain = [UInt8](repeating: 0, count: 48)
        let cipher = try AESCTR.apply(key: key, iv: iv, to: plain)
        // Block 2 must use counter 0 (wrapped), block 3 counter 1: compare with encrypting from IV 0.
        let fromZero = try AESCTR.apply(
            key: key, iv: [UInt8](repeating: 0, count: 16), to: [UInt8](repeating: 0, count: 32))
        #expect(Array(cipher[16..<48]) == fromZero)
        #expect(try AESCTR.apply(key: key, iv: iv, to: cipher) == plain)
        #expect(throws: AESCTR.Error.invalidKeyLength(15)) {
            try AESCTR.apply(key: [UInt8](repeating: 0, count: 15), iv: iv, to: plain)
        }
    }

    @Test func constantTimeCompare() {
        #expect(constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEqual([1, 2, 3], [1, 2]))
    }
}
