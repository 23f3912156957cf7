import ByteCoding
import JSONCoding
import Testing
import WalletConnect

/// The published vectors of WalletConnect v2's crypto (reference file §2.3: reown-swift's KMS tests, the JS
/// monorepo's utils tests, the specs' JWT test case).
@Suite struct CryptoVectorTests {
    static let privA = "1fb63fca5c6ac731246f2f069d3bc2454345d5208254aa8ea7bffc6d110c8862"
    static let pubA = "ff7a7d5767c362b0a17ad92299ebdb7831dcbd9a56959c01368c7404543b3342"
    static let privB = "36bf507903537de91f5e573666eaa69b1fa313974f23b2b59645f20fea505854"
    static let pubB = "590c2c627be7af08597091ff80dd41f7fa28acd10ef7191d7e830e116d3a186a"
    static let symKey = "0653ca620c7b4990392e1c53c4a51c14a2840cd20f0f1524cf435b17b6fe988c"
    static let iv = Array("qwecfaasdads".utf8)
    static let message = #"{"id":1,"jsonrpc":"2.0","method":"test_method","params":{}}"#

    static func hex(_ text: String) -> [UInt8] { (try? Hex.decode(text)) ?? [] }

    @Test func publicKeysOfThePrivateKeys() throws {
        #expect(Hex.encode(try SessionCrypto.publicKey(privateKey: Self.hex(Self.privA))) == Self.pubA)
        #expect(Hex.encode(try SessionCrypto.publicKey(privateKey: Self.hex(Self.privB))) == Self.pubB)
    }

    @Test func sharedSecretSymKeyAndTopicFromBothSides() throws {
        let ab = try SessionCrypto.sharedSecret(privateKey: Self.hex(Self.privA), peerPublicKey: Self.hex(Self.pubB))
        let ba = try SessionCrypto.sharedSecret(privateKey: Self.hex(Self.privB), peerPublicKey: Self.hex(Self.pubA))
        #expect(Hex.encode(ab) == "9c87e48e69b33a613907515bcd5b1b4cc10bbaf15167b19804b00f0a9217e607")
        #expect(ab == ba)
        #expect(
            SessionCrypto.topic(symKey: ab) == "a492906ccc809a411bb53a84572b57329375378c6ad7566f3e1c688200123e77")
        let key = try SessionCrypto.symmetricKey(privateKey: Self.hex(Self.privA), peerPublicKey: Self.hex(Self.pubB))
        #expect(Hex.encode(key) == Self.symKey)
        #expect(
            try SessionCrypto.symmetricKey(privateKey: Self.hex(Self.privB), peerPublicKey: Self.hex(Self.pubA)) == key)
        #expect(
            SessionCrypto.topic(symKey: key) == "2c03712132ad2f85adc472a2242e608d67bfecd4362d05012d69a89143fecd16")
    }

    @Test func chaChaPolySealboxOfReownSwift() throws {
        let envelope = try Envelope.seal(Array("WalletConnect".utf8), symKey: Self.hex(Self.symKey), nonce: Self.iv)
        guard case .type0(let sealed) = envelope else {
            Issue.record("expected type 0, got \(envelope)")
            return
        }
        #expect(RelayBase64.encode(sealed) == "cXdlY2ZhYXNkYWRzVhkbjHqli8hN0rFbAtMPIsJho4zLvWskMTQKSGw=")
        #expect(envelope.base64 == "AHF3ZWNmYWFzZGFkc1YZG4x6pYvITdKxWwLTDyLCYaOMy71rJDE0Ckhs")
        #expect(try envelope.open(symKey: Self.hex(Self.symKey)) == Array("WalletConnect".utf8))
    }

    static let type0 =
        "AHF3ZWNmYWFzZGFkc3paHoQ96/mLAdanVxi17icRXq+jyrqXA8ocVgGmryQZBFMg+uwgc8yLa43EOeY+IWEv84g8hn4L3Ncsgz6397sgNKnsNcL7A9k3Mg=="

    @Test func type0EnvelopeInBothAlphabetsAndWithoutPadding() throws {
        let envelope = try Envelope.seal(Array(Self.message.utf8), symKey: Self.hex(Self.symKey), nonce: Self.iv)
        #expect(envelope.base64 == Self.type0)
        #expect(
            envelope.base64URL
                == "AHF3ZWNmYWFzZGFkc3paHoQ96_mLAdanVxi17icRXq-jyrqXA8ocVgGmryQZBFMg-uwgc8yLa43EOeY-IWEv84g8hn4L3Ncsgz6397sgNKnsNcL7A9k3Mg"
        )
        // pywalletconnect strips the padding: both forms decode to the same envelope.
        let unpadded = String(Self.type0.dropLast(2))
        for text in [Self.type0, unpadded, envelope.base64URL] {
            let decoded = try Envelope(base64: text)
            #expect(decoded == envelope)
            #expect(try decoded.open(symKey: Self.hex(Self.symKey)) == Array(Self.message.utf8))
        }
        #expect(
            RelayHash.messageID(Self.message) == "15112289b5b794e68d1ea3cd91330db55582a37d0596f7b99ea8becdf9d10496")
    }

    @Test func type1AndType2Envelopes() throws {
        let type1 = try Envelope.seal(
            Array(Self.message.utf8), symKey: Self.hex(Self.symKey), nonce: Self.iv,
            senderPublicKey: Self.hex(Self.pubA))
        #expect(
            type1.base64
                == "Af96fVdnw2KwoXrZIpnr23gx3L2aVpWcATaMdARUOzNCcXdlY2ZhYXNkYWRzeloehD3r+YsB1qdXGLXuJxFer6PKupcDyhxWAaavJBkEUyD67CBzzItrjcQ55j4hYS/ziDyGfgvc1yyDPrf3uyA0qew1wvsD2Tcy"
        )
        #expect(try Envelope(base64: type1.base64) == type1)
        let type2 = Envelope.type2(json: Array(Self.message.utf8))
        #expect(type2.base64URL == "AnsiaWQiOjEsImpzb25ycGMiOiIyLjAiLCJtZXRob2QiOiJ0ZXN0X21ldGhvZCIsInBhcmFtcyI6e319")
        #expect(try Envelope(base64: type2.base64URL).open(symKey: []) == Array(Self.message.utf8))
    }

    @Test func wrongKeyTamperingAndGarbageAreErrors() throws {
        let envelope = try Envelope.seal(Array(Self.message.utf8), symKey: Self.hex(Self.symKey), nonce: Self.iv)
        #expect(throws: WalletConnectError.decryptionFailed) {
            try envelope.open(symKey: [UInt8](repeating: 7, count: 32))
        }
        var bytes = envelope.bytes
        bytes[20] ^= 1
        #expect(throws: WalletConnectError.decryptionFailed) {
            try Envelope(bytes: bytes).open(symKey: Self.hex(Self.symKey))
        }
        #expect(throws: WalletConnectError.invalidEnvelope("unknown type 9")) { try Envelope(bytes: [9, 1, 2]) }
        #expect(throws: WalletConnectError.invalidEnvelope("type 0 shorter than 29 bytes")) {
            try Envelope(bytes: [0, 1, 2])
        }
        #expect(throws: WalletConnectError.invalidEnvelope("not base64")) { try Envelope(base64: "*!") }
        #expect(throws: WalletConnectError.invalidEnvelope("empty")) { try Envelope(base64: "") }
    }
}
