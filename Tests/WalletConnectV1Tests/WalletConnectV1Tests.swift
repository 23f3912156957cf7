import ByteCoding
import CryptoCore
import Testing
import WalletConnectV1

/// The v1 pairing URI with its bridge URL encoded the three ways dApps wrote it, and the v1 payload cipher against a
/// vector computed by an independent implementation (pycryptodome's AES-CBC + Python's hmac, the scheme of
/// pywalletconnect's `enc_tunnel` and WalletConnectSwift's codec), with every bad input refused by name.
@Suite struct WalletConnectV1Tests {
    static let key = (0..<32).map { UInt8($0) }
    static let iv = (0..<16).map { UInt8($0) }
    static let message =
        #"{"id":1,"jsonrpc":"2.0","method":"personal_sign","params":["0x48656c6c6f","0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"]}"#
    static let data =
        "122ea308a9547e9dabbd9280e2a7c67ca82f8c2188902b7ecff3d1ba90e12a3ff0a264a4850a369b9a05f4c01ad18c29fc04b634f261be45"
        + "685c78fe9d5f822fd25e9b6f992d24ffefa3597dbe8fef4b75ca2865fb6da789353936ff7a9440e079cb4ba8641c9ceb3a1a61eb05f63fea"
        + "4dc923361ebd4c743340944d23daaadd"
    static let hmac = "a9b78ba61a1f41fe9efb8848ae2616031af03622eb5e72d125217d8a6be0827b"

    @Test(arguments: PairingURI.BridgeEncoding.allCases)
    func uriRoundTripsWithTheBridgeEncodedAnyWay(_ encoding: PairingURI.BridgeEncoding) throws {
        let uri = PairingURI(
            topic: "8f3a3e2c-6f0b-4c4e-9a39-0c7d3c4b2a11", bridge: "https://192.168.1.20:8545/bridge?x=1&y=2",
            key: Self.key)
        let text = uri.text(bridgeEncoding: encoding)
        #expect(try PairingURI(parsing: text) == uri, "\(text)")
    }

    @Test func uriAsTheSpecWritesIt() throws {
        let text =
            "wc:8a5e5bdc-a0e4-4702-ba63-8f1a5655744f@1?bridge=https%3A%2F%2Fbridge.walletconnect.org&key="
            + "41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a"
        let uri = try PairingURI(parsing: text)
        #expect(uri.topic == "8a5e5bdc-a0e4-4702-ba63-8f1a5655744f")
        #expect(uri.bridge == "https://bridge.walletconnect.org")
        #expect(Hex.encode(uri.key) == "41791102999c339c844880b23950704cc43aa840f3739e365323cda4dfa89e7a")
        #expect(uri.text() == text)
    }

    @Test(arguments: [
        ("wc:abc@2?bridge=https%3A%2F%2Fb&key=" + String(repeating: "00", count: 32), "version '2' is not 1"),
        ("wc:@1?bridge=https%3A%2F%2Fb&key=" + String(repeating: "00", count: 32), "empty topic"),
        ("wc:abc@1?key=" + String(repeating: "00", count: 32), "no bridge parameter"),
        ("wc:abc@1?bridge=https%3A%2F%2Fb", "no key parameter"),
        ("wc:abc@1?bridge=https%3A%2F%2Fb&key=00", "key must be 64 hex characters (32 bytes)"),
        (
            "wc:abc@1?bridge=ftp%3A%2F%2Fb&key=" + String(repeating: "00", count: 32),
            "bridge 'ftp%3A%2F%2Fb' is not an http(s) or ws(s) URL"
        ),
        ("https://example.com", "does not start with 'wc:'"),
    ])
    func badURIsAreRefusedByName(_ text: String, _ reason: String) {
        #expect(throws: WalletConnectV1Error.invalidURI(reason)) { try PairingURI(parsing: text) }
    }

    @Test func cipherMatchesTheIndependentVector() throws {
        let sealed = try PayloadCipher.seal(Array(Self.message.utf8), key: Self.key, iv: Self.iv)
        #expect(Hex.encode(sealed.data) == Self.data)
        #expect(Hex.encode(sealed.hmac) == Self.hmac)
        let parsed = try PayloadCipher.Sealed(json: sealed.json)
        #expect(try PayloadCipher.open(parsed, key: Self.key) == Array(Self.message.utf8))
    }

    @Test func randomIVsRoundTrip() throws {
        let one = try PayloadCipher.seal(Array("hello".utf8), key: Self.key)
        let two = try PayloadCipher.seal(Array("hello".utf8), key: Self.key)
        #expect(one.iv != two.iv)
        #expect(try PayloadCipher.open(one, key: Self.key) == Array("hello".utf8))
    }

    @Test func badPayloadsAreRefusedByName() throws {
        let good = try PayloadCipher.seal(Array(Self.message.utf8), key: Self.key, iv: Self.iv)
        var wrongHMAC = good
        wrongHMAC.hmac[0] ^= 1
        #expect(throws: WalletConnectV1Error.hmacMismatch) { try PayloadCipher.open(wrongHMAC, key: Self.key) }
        var otherKey = Self.key
        otherKey[31] ^= 1
        #expect(throws: WalletConnectV1Error.hmacMismatch) { try PayloadCipher.open(good, key: otherKey) }
        var shortIV = good
        shortIV.iv = Array(good.iv.prefix(8))
        #expect(throws: WalletConnectV1Error.invalidPayload("the IV must be 16 bytes, got 8")) {
            try PayloadCipher.open(shortIV, key: Self.key)
        }
        // Bad padding behind a valid HMAC: a block whose last byte is 0x00 after decryption.
        let block = [UInt8](repeating: 0, count: 16)
        let unpadded = try PayloadCipher.seal(block, key: Self.key, iv: Self.iv)
        let firstBlock = Array(unpadded.data.prefix(16))
        let forged = PayloadCipher.Sealed(
            data: firstBlock, hmac: HMAC.authenticate(firstBlock + Self.iv, key: Self.key, digest: .sha256), iv: Self.iv
        )
        #expect(throws: WalletConnectV1Error.invalidPayload("AES-CBC: invalid PKCS#7 padding")) {
            try PayloadCipher.open(forged, key: Self.key)
        }
        #expect(throws: WalletConnectV1Error.self) { try PayloadCipher.Sealed(json: "not json") }
        #expect(throws: WalletConnectV1Error.invalidPayload("no string field 'hmac'")) {
            try PayloadCipher.Sealed(json: #"{"data":"00","iv":"00"}"#)
        }
        #expect(throws: WalletConnectV1Error.invalidPayload("'iv' is not hex")) {
            try PayloadCipher.Sealed(json: #"{"data":"00","hmac":"00","iv":"zz"}"#)
        }
        let huge = PayloadCipher.Sealed(data: [UInt8](repeating: 0, count: 10 << 20), hmac: [], iv: Self.iv)
        #expect(throws: WalletConnectV1Error.invalidPayload("data over 4194304 bytes")) {
            try PayloadCipher.open(huge, key: Self.key)
        }
    }
}
