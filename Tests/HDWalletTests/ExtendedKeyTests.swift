import ByteCoding
import CryptoCore
import HDWallet
import Testing

@Suite struct ExtendedKeyTests {
    static let vector1Seed: [UInt8] = Array(0..<16)
    static let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func masterKeyAndFingerprint() throws {
        let master = try ExtendedKey(seed: Self.vector1Seed)
        #expect(master.depth == 0)
        #expect(master.fingerprint == 0x3442_193e)
        #expect(
            master.serialized
                == "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
        )
        let child = try master.child(DerivationPath.hardened(0))
        #expect(child.parentFingerprint == master.fingerprint)
        #expect(child.childIndex == 0x8000_0000)
        #expect(child.depth == 1)
    }

    @Test(arguments: [0, 15, 65, 128])
    func seedLength(bytes: Int) {
        #expect(throws: ExtendedKeyError.invalidSeedLength(bytes)) {
            try ExtendedKey(seed: [UInt8](repeating: 1, count: bytes))
        }
    }

    @Test func publicDerivationMatchesPrivate() throws {
        let master = try ExtendedKey(seed: Self.vector1Seed)
        let account = try master.derived(DerivationPath(parsing: "m/44'/60'/0'"))
        let viaPrivate = try account.derived(DerivationPath(parsing: "m/0/7")).neutered
        let viaPublic = try account.neutered.derived(DerivationPath(parsing: "m/0/7"))
        #expect(viaPublic == viaPrivate)
        #expect(!viaPublic.isPrivate)
    }

    @Test func hardenedFromPublicIsRejected() throws {
        let xpub = try ExtendedKey(seed: Self.vector1Seed).neutered
        #expect(throws: ExtendedKeyError.hardenedDerivationFromPublicKey(index: 0x8000_0001)) {
            try xpub.child(0x8000_0001)
        }
    }

    @Test func icpPathGivesTheSecp256k1Key() throws {
        let master = try ExtendedKey(seed: Mnemonic(phrase: Self.abandon).seed())
        #expect(DerivationPath.icp.description == "m/44'/223'/0'/0/0")
        let key = try master.derived(.icp)
        // Cross-checked with an independent pure-Python BIP-32 (hmac/hashlib and affine secp256k1 arithmetic).
        #expect(Hex.encode(key.privateKey!) == "f60151c409cb357e00a4267ad2cfa0001ff431ef5911110d651b1e7fc03451ac")
        #expect(Hex.encode(key.publicKey) == "03abdb60eb7c96408414d1e251d41ca0ecf89a4541768cba7eed8174c53246d58c")
    }

    @Test func serializationErrors() throws {
        let master = try ExtendedKey(seed: Self.vector1Seed)
        #expect(throws: ExtendedKeyError.base58(.invalidCharacter(offset: 4))) {
            try ExtendedKey(serialized: "xprv0abc")
        }
        #expect(throws: ExtendedKeyError.base58(.tooShort)) { try ExtendedKey(serialized: "1") }
        #expect(throws: ExtendedKeyError.invalidLength(77)) {
            try ExtendedKey(serialized: Base58Check.encode([UInt8](repeating: 0, count: 77)))
        }
        var payload = try Base58Check.decode(master.serialized)
        payload[4] = 255  // depth 255 with a parent fingerprint: valid, but has no children
        payload[5] = 1
        let deepest = try ExtendedKey(serialized: Base58Check.encode(payload))
        #expect(throws: ExtendedKeyError.depthOverflow) { try deepest.child(0) }
        let tprv = try ExtendedKey(seed: Self.vector1Seed, network: .testnet)
        #expect(tprv.serialized.hasPrefix("tprv"))
        #expect(tprv.serializedPublic.hasPrefix("tpub"))
        #expect(try ExtendedKey(serialized: tprv.serializedPublic) == tprv.neutered)
    }

    @Test func descriptionHidesThePrivateKey() throws {
        let master = try ExtendedKey(seed: Self.vector1Seed)
        let text = "\(master)"
        #expect(!text.contains(Hex.encode(master.privateKey!)))
        #expect(text.hasPrefix("ExtendedKey(private, depth 0"))
    }

    @Test func derivationPaths() throws {
        let path = try DerivationPath(parsing: "m/44'/60'/0'/0/0")
        #expect(path == (try DerivationPath(parsing: "m/44h/60H/0h/0/0")))
        #expect(path == .ethereum(index: 0))
        #expect(path.indices == [0x8000_002c, 0x8000_003c, 0x8000_0000, 0, 0])
        #expect(path.description == "m/44'/60'/0'/0/0")
        #expect(try DerivationPath(parsing: "m") == .master)
        #expect(try DerivationPath(parsing: "m/2147483647'").indices == [0xffff_ffff])
        #expect(throws: DerivationPath.ParseError.missingMasterPrefix) { try DerivationPath(parsing: "44'/0") }
        #expect(throws: DerivationPath.ParseError.missingMasterPrefix) { try DerivationPath(parsing: "") }
        #expect(throws: DerivationPath.ParseError.invalidComponent("x", position: 1)) {
            try DerivationPath(parsing: "m/x")
        }
        #expect(throws: DerivationPath.ParseError.invalidComponent("", position: 2)) {
            try DerivationPath(parsing: "m/1//2")
        }
        #expect(throws: DerivationPath.ParseError.invalidComponent("-1", position: 1)) {
            try DerivationPath(parsing: "m/-1")
        }
        #expect(throws: DerivationPath.ParseError.invalidComponent("1'h", position: 1)) {
            try DerivationPath(parsing: "m/1'h")
        }
        #expect(throws: DerivationPath.ParseError.indexOutOfRange("2147483648", position: 1)) {
            try DerivationPath(parsing: "m/2147483648")
        }
        #expect(throws: DerivationPath.ParseError.indexOutOfRange("99999999999'", position: 2)) {
            try DerivationPath(parsing: "m/0/99999999999'")
        }
    }

    @Test func base58Check() throws {
        #expect(Base58Check.encode([]) == "3QJmnh")
        #expect(try Base58Check.decode("3QJmnh") == [])
        let payload: [UInt8] = [0, 0, 1, 2, 255]
        #expect(try Base58Check.decode(Base58Check.encode(payload)) == payload)
        #expect(Base58Check.encode(payload).hasPrefix("11"))
        var text = Array(Base58Check.encode(payload))
        text[text.count - 1] = text[text.count - 1] == "a" ? "b" : "a"
        #expect(throws: Base58Check.Error.checksumMismatch) { try Base58Check.decode(String(text)) }
        #expect(throws: Base58Check.Error.invalidCharacter(offset: 2)) { try Base58Check.decode("11é1") }
    }
}
