import ByteCoding
import Testing
import WalletConnect

@Suite struct PairingURITests {
    static let spec =
        "wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&methods=[wc_sessionPropose],[wc_authRequest,wc_authBatchRequest]&relay-protocol=irn&expiryTimestamp=1705667684"

    @Test func specExampleParsesAndItsTopicIsNotTheKeysHash() throws {
        let uri = try PairingURI(parsing: Self.spec)
        #expect(uri.topic == "7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9")
        #expect(Hex.encode(uri.symKey) == "587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303")
        #expect(uri.relayProtocol == "irn")
        #expect(uri.expiryTimestamp == 1_705_667_684)
        #expect(uri.methods == "[wc_sessionPropose],[wc_authRequest,wc_authBatchRequest]")
        #expect(SessionCrypto.topic(symKey: uri.symKey) != uri.topic)
        #expect(try PairingURI(parsing: uri.text) == uri)
    }

    @Test func anExpiredURIIsExpiredNotInvalid() {
        #expect(throws: WalletConnectError.expiredURI(expiry: 1_705_667_684, now: 1_800_000_000)) {
            try PairingURI(parsing: Self.spec, now: 1_800_000_000)
        }
    }

    @Test func encodedFormsAndDeepLinksAreRecognised() throws {
        let uri = try PairingURI(parsing: Self.spec)
        let link = uri.deepLink(scheme: "mywallet")
        #expect(link.hasPrefix("mywallet://wc?uri=wc%3A7f6e"))
        let once = String(link.dropFirst("mywallet://wc?uri=".count))
        let twice = once.replacingOccurrences(of: "%", with: "%25")
        #expect(try PairingURI.parse(Self.spec).encoding == .raw)
        #expect(try PairingURI.parse(once).encoding == .percentEncodedOnce)
        #expect(try PairingURI.parse(twice).encoding == .percentEncodedTwice)
        #expect(try PairingURI.parse(link).uri == uri)
        #expect(try PairingURI(parsing: "wc://" + Self.spec.dropFirst(3)) == uri)
    }

    @Test(arguments: [
        ("http://x", "does not start with wc:"),
        ("wc:abc@2?symKey=00&relay-protocol=irn", "topic must be 64 hex digits"),
        ("wc:" + String(repeating: "a", count: 64) + "@1?bridge=x&key=00", "version 1 is not WalletConnect v2 (@2)"),
        ("wc:" + String(repeating: "a", count: 64) + "@2?relay-protocol=irn", "no symKey"),
        ("wc:" + String(repeating: "a", count: 64) + "@2?symKey=zz&relay-protocol=irn", "symKey must be 64 hex digits"),
        (
            "wc:" + String(repeating: "a", count: 64) + "@2?symKey=" + String(repeating: "b", count: 64),
            "no relay-protocol"
        ),
    ])
    func malformedURIsNameTheirFault(text: String, reason: String) {
        #expect(throws: WalletConnectError.invalidURI(reason)) { try PairingURI(parsing: text) }
    }
}
