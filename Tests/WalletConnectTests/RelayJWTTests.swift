import ByteCoding
import Testing
import WalletConnect

/// The relay auth JWT test case of the WalletConnect specs (crypto-authentication.md) and its negative twin.
@Suite struct RelayJWTTests {
    static let seed = "58e0254c211b858ef7896b00e3f36beeb13d568d47c6031c4218b87718061295"
    static let token =
        "eyJhbGciOiJFZERTQSIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJkaWQ6a2V5Ono2TWtvZEhad25lVlJTaHRhTGY4SktZa3hwREdwMXZHWm5wR21kQnBYOE0yZXh4SCIsInN1YiI6ImM0NzlmZTVkYzQ2NGU3NzFlNzhiMTkzZDIzOWE2NWI1OGQyNzhjYWQxYzM0YmZiMGI1NzE2ZTViYjUxNDkyOGUiLCJhdWQiOiJ3c3M6Ly9yZWxheS53YWxsZXRjb25uZWN0LmNvbSIsImlhdCI6MTY1NjkxMDA5NywiZXhwIjoxNjU2OTk2NDk3fQ.bAKl1swvwqqV_FgwvD4Bx3Yp987B9gTpZctyBviA-EkAuWc8iI8SyokOjkv9GJESgid4U8Tf2foCgrQp2qrxBA"

    @Test func specVectorParsesAndVerifies() throws {
        let jwt = try RelayJWT(parsing: Self.token)
        #expect(jwt.issuer == "did:key:z6MkodHZwneVRShtaLf8JKYkxpDGp1vGZnpGmdBpX8M2exxH")
        #expect(Hex.encode(jwt.publicKey) == "884ab67f787b69e534bfdba8d5beb4e719700e90ac06317ed177d49e5a33be5a")
        #expect(jwt.subject == "c479fe5dc464e771e78b193d239a65b58d278cad1c34bfb0b5716e5bb514928e")
        #expect(jwt.audience == "wss://relay.walletconnect.com")
        #expect(jwt.issuedAt == 1_656_910_097)
        #expect(jwt.expiresAt == 1_656_996_497)
        #expect(jwt.hasValidSignature)
        try jwt.verify(now: 1_656_910_100, audiences: ["wss://relay.walletconnect.com"])
        #expect(throws: WalletConnectError.invalidJWT("expired at 1656996497 (now 1656996497)")) {
            try jwt.verify(now: 1_656_996_497)
        }
        #expect(
            throws: WalletConnectError.invalidJWT(
                "aud wss://relay.walletconnect.com is not one of wss://relay.walletconnect.org")
        ) { try jwt.verify(now: 1_656_910_100, audiences: ["wss://relay.walletconnect.org"]) }
    }

    @Test func signingReproducesTheVector() throws {
        // BoringSSL's Ed25519 (swift-crypto on Linux) is deterministic; CryptoKit's is randomized.
        let token = try RelayJWT.sign(
            seed: Hex.decode(Self.seed), subject: "c479fe5dc464e771e78b193d239a65b58d278cad1c34bfb0b5716e5bb514928e",
            audience: "wss://relay.walletconnect.com", issuedAt: 1_656_910_097, expiresAt: 1_656_996_497)
        #if os(Linux)
            #expect(token == Self.token)
        #endif
        #expect(try RelayJWT(parsing: token).hasValidSignature)
    }

    @Test func tamperedOrMalformedTokensAreRefused() throws {
        var segments = Self.token.split(separator: ".").map(String.init)
        // Another signature over the same claims (reown-swift's mock signer): valid shape, invalid signature.
        segments[2] = String(segments[2].reversed())
        let forged = try RelayJWT(parsing: segments.joined(separator: "."))
        #expect(!forged.hasValidSignature)
        #expect(throws: WalletConnectError.invalidJWT("signature does not verify for \(forged.issuer)")) {
            try forged.verify(now: 1_656_910_100)
        }
        #expect(throws: WalletConnectError.invalidJWT("expected 3 segments, found 1")) {
            try RelayJWT(parsing: "abc")
        }
        #expect(throws: WalletConnectError.invalidJWT("a segment is not base64url")) {
            try RelayJWT(parsing: "a.b*.c")
        }
        #expect(throws: WalletConnectError.invalidJWT("longer than 4096 bytes")) {
            try RelayJWT(parsing: String(repeating: "a", count: 5_000))
        }
    }

    @Test func base58RoundTripsWithLeadingZeros() {
        for bytes: [UInt8] in [[], [0], [0, 0, 1], [0xED, 0x01] + [UInt8](repeating: 0xff, count: 32)] {
            #expect(Base58.decode(Base58.encode(bytes)) == bytes)
        }
        #expect(Base58.decode("0OIl") == nil)
    }
}
