import CryptoCore

/// Request signatures (IC interface spec §Authentication, §Signatures): the sender signs
/// `"\x0Aic-request" ‖ request id`; Ed25519 signs those bytes, ECDSA secp256k1 signs their SHA-256 and writes
/// `r ‖ s` (64 bytes).
public enum RequestAuthentication {
    /// The domain separator of request signatures: length byte 10, then `ic-request`.
    public static let requestDomain: [UInt8] = [0x0A] + Array("ic-request".utf8)

    /// The bytes a sender signs for a request id.
    public static func message(requestID: [UInt8]) -> [UInt8] { requestDomain + requestID }
}

extension KeyIdentity {
    /// Signs `message` the way the IC verifies this key's signatures (Ed25519 over the bytes; secp256k1 ECDSA over
    /// their SHA-256, low-s, as `r ‖ s`).
    public func sign(_ message: [UInt8]) throws(KeyIdentityError) -> [UInt8] {
        switch algorithm {
        case .ed25519:
            do { return try Ed25519.sign(message, privateKey: privateKey) } catch { throw .invalidPrivateKey }
        case .secp256k1:
            do {
                let signature = try Secp256k1.sign(digest: Digest.sha256.hash(message), privateKey: privateKey)
                return signature.r + signature.s
            } catch {
                throw .invalidPrivateKey
            }
        }
    }

    /// The `sender_sig` for a request id.
    public func signRequest(id requestID: [UInt8]) throws(KeyIdentityError) -> [UInt8] {
        try sign(RequestAuthentication.message(requestID: requestID))
    }
}

extension DERPublicKey {
    /// True if `signature` is this key's signature of `message` (high-s ECDSA signatures accepted, as ic-py's
    /// python-ecdsa may produce them).
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        switch algorithm {
        case .ed25519:
            return Ed25519.verify(signature, message: message, publicKey: rawKey)
        case .secp256k1:
            guard signature.count == 64 else { return false }
            return Secp256k1.verify(
                digest: Digest.sha256.hash(message), r: Array(signature[0..<32]), s: Array(signature[32...]),
                publicKey: rawKey, allowHighS: true)
        }
    }

    /// True if `signature` is a valid `sender_sig` of this key for `requestID`.
    public func verifyRequest(signature: [UInt8], requestID: [UInt8]) -> Bool {
        verify(signature: signature, message: RequestAuthentication.message(requestID: requestID))
    }
}
