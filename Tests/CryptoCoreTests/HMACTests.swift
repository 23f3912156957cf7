import ByteCoding
import CryptoCore
import Testing

/// RFC 4231 cases plus key lengths at and around the block size (values from Python's `hmac`).
@Suite struct HMACTests {
    @Test func rfc4231() {
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            Hex.encode(HMAC.authenticate(message, key: longKey, digest: .sha256))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(
            Hex.encode(HMAC.authenticate(message, key: longKey, digest: .sha512))
                == "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f352"
                + "6b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598")
        #expect(
            Hex.encode(
                HMAC.authenticate(Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20), digest: .sha224))
                == "896fb1128abbdf196832107cd49df33f47b4b1169912ba4f53684b22")
    }

    @Test func keyLengthsAroundTheBlockSize() {
        let x = Array("x".utf8)
        #expect(
            Hex.encode(HMAC.authenticate([], key: [], digest: .sha512))
                == "b936cee86c9f87aa5d3c6f2e84cb5a4239a5fe50480a6ec66b70ab5b1f4ac673"
                + "0c6c515421b327ec1d69402e53dfb49ad7381eb067b338fd7b0cb22247225d47")
        #expect(
            Hex.encode(HMAC.authenticate(x, key: [UInt8](repeating: 0x6b, count: 128), digest: .sha512))
                == "edf95587d0befb8ddd478ec775d4ab466c69e5c6185001f0594bfca96ce9bb80"
                + "b8b62b6a15eb8fa7f667c85574e107546fc0755fab4f09e2d3c0d5558497ca9e")
        #expect(
            Hex.encode(HMAC.authenticate(x, key: [UInt8](repeating: 0x6b, count: 64), digest: .sha256))
                == "f91c4c403625fb06910ef93999265bbd2d62baeaec6ff36455498cc124fe3e66")
        #expect(
            Hex.encode(HMAC.authenticate(x, key: [UInt8](repeating: 0x6b, count: 65), digest: .sha256))
                == "75092ca3ee2b307470c227697b42b3e65376aa3bae98fb5a1f7b7536daa9588a")
    }
}
