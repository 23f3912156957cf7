import ByteCoding
import Crypto
import Foundation

/// Key agreement and topics (WalletConnect specs, clients/core/crypto/crypto-keys.md): the session's symmetric key
/// is HKDF-SHA256 (empty salt and info, 32 bytes) over the X25519 shared secret, and a settled topic is
/// hex(sha256(symKey)). A pairing topic is random, not derived.
public enum SessionCrypto {
    /// A fresh X25519 key pair: (private, public), 32 bytes each.
    public static func newKeyPair() -> (privateKey: [UInt8], publicKey: [UInt8]) {
        let key = Curve25519.KeyAgreement.PrivateKey()
        return (Array(key.rawRepresentation), Array(key.publicKey.rawRepresentation))
    }

    /// The X25519 public key of a private key.
    public static func publicKey(privateKey: [UInt8]) throws(WalletConnectError) -> [UInt8] {
        Array(try agreementKey(privateKey).publicKey.rawRepresentation)
    }

    /// The raw X25519 shared secret.
    public static func sharedSecret(privateKey: [UInt8], peerPublicKey: [UInt8]) throws(WalletConnectError)
        -> [UInt8]
    {
        try secret(privateKey: privateKey, peerPublicKey: peerPublicKey).withUnsafeBytes { Array($0) }
    }

    /// The session's symmetric key: HKDF-SHA256(X25519(private, peer), salt: empty, info: empty, 32 bytes).
    public static func symmetricKey(privateKey: [UInt8], peerPublicKey: [UInt8]) throws(WalletConnectError)
        -> [UInt8]
    {
        let key = try secret(privateKey: privateKey, peerPublicKey: peerPublicKey).hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: Data(), sharedInfo: Data(), outputByteCount: 32)
        return key.withUnsafeBytes { Array($0) }
    }

    /// A settled topic: hex(sha256(symKey)).
    public static func topic(symKey: [UInt8]) -> String { Hex.encode(Array(SHA256.hash(data: symKey))) }

    /// 32 random bytes (a pairing topic, a pairing symKey, a JWT nonce).
    public static func randomBytes(_ count: Int = 32) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func agreementKey(_ privateKey: [UInt8]) throws(WalletConnectError)
        -> Curve25519.KeyAgreement.PrivateKey
    {
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey)
        } catch {
            throw .invalidKey("an X25519 private key is 32 bytes, got \(privateKey.count)")
        }
    }

    private static func secret(privateKey: [UInt8], peerPublicKey: [UInt8]) throws(WalletConnectError)
        -> SharedSecret
    {
        let key = try agreementKey(privateKey)
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: peerPublicKey)
            return try key.sharedSecretFromKeyAgreement(with: peer)
        } catch {
            throw .invalidKey("peer X25519 public key rejected (\(peerPublicKey.count) bytes)")
        }
    }
}
