import BLS12381
import ByteCoding
import Testing

private func hex(_ string: String) -> [UInt8] {
    do { return try Hex.decode(string) } catch { preconditionFailure("bad hex in a test vector: \(error)") }
}

/// RFC 9380 §K.1 (expand_message_xmd, SHA-256) and §J.9.1 (BLS12381G1_XMD:SHA-256_SSWU_RO_); the compressed
/// points are the RFC's P.x/P.y in ZCash form, which blst and py_ecc both reproduce.
@Suite struct HashToCurveTests {
    @Test func expandMessageXMDVectors() {
        let dst = Array("QUUX-V01-CS02-with-expander-SHA256-128".utf8)
        #expect(
            HashToCurve.expandMessageXMD([], dst: dst, length: 0x20)
                == hex("68a985b87eb6b46952128911f2a4412bbc302a9d759667f87f7a21d803f07235"))
        #expect(
            HashToCurve.expandMessageXMD(Array("abc".utf8), dst: dst, length: 0x20)
                == hex("d8ccab23b5985ccea865c6c97b6e5b8350e794e603b4b97902f53a8a0d605615"))
    }

    static let suiteDST = Array("QUUX-V01-CS02-with-BLS12381G1_XMD:SHA-256_SSWU_RO_".utf8)

    @Test(arguments: [
        ("", "852926add2207b76ca4fa57a8734416c8dc95e24501772c814278700eed6d1e4e8cf62d9c09db0fac349612b759e79a1"),
        ("abc", "83567bc5ef9c690c2ab2ecdf6a96ef1c139cc0b2f284dca0a9a7943388a49a3aee664ba5379a7655d3c68900be2f6903"),
        (
            "abcdef0123456789",
            "91e0b079dea29a68f0383ee94fed1b940995272407e3bb916bbf268c263ddd57a6a27200a784cbc248e84f357ce82d98"
        ),
        (
            "q128_" + String(repeating: "q", count: 128),
            "b5f68eaa693b95ccb85215dc65fa81038d69629f70aeee0d0f677cf22285e7bf58d7cb86eefe8f2e9bc3f8cb84fac488"
        ),
        (
            "a512_" + String(repeating: "a", count: 512),
            "882aabae8b7dedb0e78aeb619ad3bfd9277a2f77ba7fad20ef6aabdc6c31d19ba5a6d12283553294c1825c4b3ca2dcfe"
        ),
    ])
    func hashToG1Vectors(message: String, compressed: String) {
        let point = HashToCurve.hashToG1(Array(message.utf8), dst: Self.suiteDST)
        #expect(point.isOnCurve(b: G1Point.curveB))
        #expect(point.compressed == hex(compressed))
    }

    @Test func hashToFieldAndAffineAbc() throws {
        let u = HashToCurve.hashToField(Array("abc".utf8), dst: Self.suiteDST, count: 2)
        #expect(
            u[0].bigEndianBytes
                == hex(
                    "0d921c33f2bad966478a03ca35d05719bdf92d347557ea166e5bba579eea9b83e9afa5c088573c2281410369fbd32951"))
        #expect(
            u[1].bigEndianBytes
                == hex(
                    "003574a00b109ada2f26a37a91f9d1e740dffd8d69ec0c35e1e9f4652c7dba61123e9dd2e76c655d956e2b3462611139"))
        let point = try #require(HashToCurve.hashToG1(Array("abc".utf8), dst: Self.suiteDST).affine)
        #expect(
            point.y.bigEndianBytes
                == hex(
                    "0b9c15f3fe6e5cf4211f346271d7b01c8f3b28be689c8429c85b67af215533311f0b8dfaaa154fa6b88176c229f2885d"))
    }
}

@Suite struct CurveTests {
    @Test func generatorsCompress() {
        #expect(G1Point.generator.isOnCurve(b: G1Point.curveB))
        #expect(G2Point.generator.isOnCurve(b: G2Point.curveB))
        #expect(
            G1Point.generator.compressed
                == hex(
                    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"))
        #expect(
            G2Point.generator.compressed
                == hex(
                    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
                        + "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
                ))
    }

    @Test func groupLaws() {
        let g = G1Point.generator
        let three = g + g + g
        #expect(three == g.doubled + g)
        #expect(three == g.multiplied(by: [3]))
        #expect(three + (-three) == .infinity)
        #expect(g.multiplied(by: [0]).isInfinity)
        // r · G = O for both generators.
        let order: [UInt64] = [
            0xffff_ffff_0000_0001, 0x53bd_a402_fffe_5bfe, 0x3339_d808_09a1_d805, 0x73ed_a753_299d_7d48,
        ]
        #expect(g.multiplied(by: order).isInfinity)
        #expect(G2Point.generator.multiplied(by: order).isInfinity)
        #expect(G1Point.infinity.compressed == [0xc0] + [UInt8](repeating: 0, count: 47))
    }

    @Test func fieldInverseAndSquareRoot() throws {
        let x = Fp(12345)
        #expect(x * x.inverted == .one)
        let root = try #require(x.squared.squareRoot)
        #expect(root == x || root == -x)
        let y = Fp2(Fp(7), Fp(9))
        #expect(y * y.inverted == .one)
        #expect(throws: BLSError.notInField) { try Fp(bigEndian: [UInt8](repeating: 0xff, count: 48)) }
        #expect(throws: BLSError.invalidLength(expected: 48, actual: 3)) { try Fp(bigEndian: [1, 2, 3]) }
    }
}

/// The IC's scheme (DST `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`, message `"\x0Dic-state-root" ‖ root`):
/// vectors on which blst (pyblst) and py_ecc agree byte for byte.
@Suite struct SigningTests {
    static let stateRootDomain: [UInt8] = [0x0d] + Array("ic-state-root".utf8)
    static let exampleRoot = hex("eb5c5b2195e62d996b84c9bcc8259d19a83786a2f59e0878cec84c811f669aa0")

    static func key(_ value: UInt8) throws -> SecretKey {
        try SecretKey(bigEndian: [UInt8](repeating: 0, count: 31) + [value])
    }

    @Test func vectorA() throws {
        let key = try Self.key(1)
        #expect(
            key.sign(Self.stateRootDomain + [UInt8](repeating: 0, count: 32))
                == hex(
                    "998ea1af2aaff058abd2eab526d50ec44bba66efea166b7e72b14592f048f0e7093a2c86ce95f8acfe5e6523537d9712"))
        #expect(key.publicKey == G2Point.generator.compressed)
    }

    @Test func vectorB() throws {
        let key = try Self.key(2)
        let message = Self.stateRootDomain + Self.exampleRoot
        let u = HashToCurve.hashToField(message, dst: SecretKey.icDomainSeparationTag, count: 2)
        #expect(
            u[0].bigEndianBytes
                == hex(
                    "168e8b8652a0a105ee34b7d66ae7063b8610100d9343b81a5c2d4f29b9571f761c969ce9df74d2661855a581c2062761"))
        #expect(
            u[1].bigEndianBytes
                == hex(
                    "0676b00f52f04cc7be731c86c9455f2f321117828191a58a1c3740d19e7f7b2349b049c56d0e411b53181257fffc93ea"))
        #expect(
            HashToCurve.hashToG1(message, dst: SecretKey.icDomainSeparationTag).compressed
                == hex(
                    "a10a8c459b5436784712fcc1dbd4b5a38603358f668fb0fada4ae2e9d4f8d61885510ab65a1b8f305987423572398855"))
        #expect(
            key.sign(message)
                == hex(
                    "8129ac1525e03212fe22fa9be0d3ca1a42213a60eb864d8d992b461c4c9048adc02e135e402b813973bb9efa8d13e7a7"))
        #expect(
            key.publicKey
                == hex(
                    "aa4edef9c1ed7f729f520e47730a124fd70662a904ba1074728114d1031e1572c6c886f6b57ec72a6178288c47c33577"
                        + "1638533957d540a9d2370f17cc7ed5863bc0b995b8825e0ee1ea1e1e4d00dbae81f14b0bf3611b78c952aacab827a053"
                ))
    }

    /// Vector C: sk = SHA-256("icp-ledger-mock dev key") mod r, which is what ``SecretKey/init(seed:)`` computes.
    @Test func vectorCFromSeed() {
        let key = SecretKey(seed: Array("icp-ledger-mock dev key".utf8))
        #expect(key.bigEndianBytes == hex("43dbc0aa2d04eb89bb0ce5b67e746b9f839402bd24d1dc45a8a8104e65cfb01f"))
        #expect(
            key.sign(Self.stateRootDomain + Self.exampleRoot)
                == hex(
                    "93808c6f0d536befda408e014677a416947beb0d7eb6a89a82ec0825f63a8ebeb2cc5d248e9a4436f9e3051955a6ccde"))
        #expect(
            key.publicKey
                == hex(
                    "ae7361f93a06aeb28f6ce6b705a89ac7ef36062b5101210074a422fcf300a4cca200a0fc283f585c6dc2ddb89a05ffe8"
                        + "1473ed19fda294b11202807de98f3f14c334bf5a4cb7e747cd7d71aa78a8cc9a6351230ec9b67d738eedbd85fa5dda92"
                ))
    }

    @Test func secretKeyLimits() {
        #expect(throws: BLSError.scalarOutOfRange) { try SecretKey(bigEndian: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: BLSError.scalarOutOfRange) {
            try SecretKey(bigEndian: hex("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001"))
        }
        #expect(throws: BLSError.invalidLength(expected: 32, actual: 31)) {
            try SecretKey(bigEndian: [UInt8](repeating: 1, count: 31))
        }
    }
}
