import ByteCoding
import CryptoCore
import ICPIdentity
import Testing

/// Request signatures for both sender key types, including the high-s ECDSA form.
@Suite struct SigningTests {
    static let requestID = [UInt8](repeating: 0xAB, count: 32)

    @Test func ed25519RequestSignature() throws {
        let identity = try KeyIdentity(ed25519PrivateKey: [UInt8](repeating: 3, count: 32))
        let signature = try identity.signRequest(id: Self.requestID)
        #expect(signature.count == 64)
        #expect(identity.publicKey.verifyRequest(signature: signature, requestID: Self.requestID))
        #expect(
            Ed25519.verify(
                signature, message: [0x0A] + Array("ic-request".utf8) + Self.requestID,
                publicKey: identity.publicKey.rawKey))
        #expect(!identity.publicKey.verifyRequest(signature: signature, requestID: [UInt8](repeating: 0, count: 32)))
    }

    @Test func secp256k1RequestSignatureAcceptsBothS() throws {
        let identity = try KeyIdentity(mnemonic: KeyIdentityTests.abandon)
        let signature = try identity.signRequest(id: Self.requestID)
        #expect(signature.count == 64)
        #expect(identity.publicKey.verifyRequest(signature: signature, requestID: Self.requestID))
        let highS = Array(signature[0..<32]) + Self.subtract(Secp256k1.order, Array(signature[32...]))
        #expect(highS != signature)
        #expect(identity.publicKey.verifyRequest(signature: highS, requestID: Self.requestID))
        let digest = Digest.sha256.hash(RequestAuthentication.message(requestID: Self.requestID))
        #expect(
            !Secp256k1.verify(
                digest: digest, r: Array(highS[0..<32]), s: Array(highS[32...]), publicKey: identity.publicKey.rawKey))
        var tampered = signature
        tampered[5] ^= 1
        #expect(!identity.publicKey.verifyRequest(signature: tampered, requestID: Self.requestID))
        #expect(!identity.publicKey.verifyRequest(signature: Array(signature.dropLast()), requestID: Self.requestID))
    }

    /// a - b for 32-byte big-endian numbers with a ≥ b.
    static func subtract(_ a: [UInt8], _ b: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var borrow = 0
        for index in (0..<32).reversed() {
            var digit = Int(a[index]) - Int(b[index]) - borrow
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 256 }
            out[index] = UInt8(digit)
        }
        return out
    }
}
