import Crypto
import Foundation
import JSONCoding

/// The client JWT a WalletConnect v2 client presents to the relay (did-jwt, EdDSA; WalletConnect specs,
/// clients/core/crypto/crypto-authentication.md): `iss` is the did:key of the client's Ed25519 key (its client id,
/// which keys its mailbox), `sub` a random nonce, `aud` the relay URL, `iat`/`exp` in seconds.
///
/// The signature is checked over the received segments, never over a re-encoding (SDKs order the claims
/// differently).
public struct RelayJWT: Sendable, Equatable {
    public let issuer: String
    public let subject: String
    public let audience: String
    public let issuedAt: Int64
    public let expiresAt: Int64
    /// The issuer's Ed25519 public key (from its did:key).
    public let publicKey: [UInt8]
    /// `base64url(header).base64url(payload)`, the signed text.
    let signingInput: String
    let signature: [UInt8]

    /// Largest token accepted (a real one is about 400 bytes).
    public static let maxLength = 4_096

    /// Parses a token (no signature check; see ``verify(now:audiences:)``).
    /// - Throws: ``WalletConnectError/invalidJWT(_:)`` naming what is wrong.
    public init(parsing token: String) throws(WalletConnectError) {
        guard token.utf8.count <= Self.maxLength else {
            throw .invalidJWT("longer than \(Self.maxLength) bytes")
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .invalidJWT("expected 3 segments, found \(parts.count)") }
        guard let headerBytes = RelayBase64.decode(String(parts[0])),
            let payloadBytes = RelayBase64.decode(String(parts[1])),
            let signature = RelayBase64.decode(String(parts[2]))
        else { throw .invalidJWT("a segment is not base64url") }
        let header: JSON
        let payload: JSON
        do {
            header = try JSON.parse(headerBytes)
            payload = try JSON.parse(payloadBytes)
        } catch {
            throw .invalidJWT("a segment is not JSON (\(error))")
        }
        guard header["alg"]?.stringValue == "EdDSA" else { throw .invalidJWT("alg is not EdDSA") }
        guard let iss = payload["iss"]?.stringValue else { throw .invalidJWT("no iss") }
        publicKey = try DIDKey.publicKey(fromDID: iss)
        issuer = iss
        subject = payload["sub"]?.stringValue ?? ""
        audience = payload["aud"]?.stringValue ?? ""
        guard let iat = payload["iat"]?.numberText.flatMap({ Int64($0) }),
            let exp = payload["exp"]?.numberText.flatMap({ Int64($0) })
        else { throw .invalidJWT("iat and exp must be integers") }
        issuedAt = iat
        expiresAt = exp
        signingInput = String(parts[0]) + "." + String(parts[1])
        self.signature = signature
    }

    /// Whether the Ed25519 signature is the issuer's over the received segments.
    public var hasValidSignature: Bool {
        guard signature.count == 64, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey)
        else { return false }
        return key.isValidSignature(signature, for: Array(signingInput.utf8))
    }

    /// Checks the signature, the expiry and (when `audiences` is not empty) the audience, as the hosted relay does.
    /// - Parameters:
    ///   - now: seconds since 1970.
    ///   - audiences: accepted `aud` values; empty accepts any.
    /// - Throws: ``WalletConnectError/invalidJWT(_:)`` naming the failed check.
    public func verify(now: Int64, audiences: [String] = []) throws(WalletConnectError) {
        guard hasValidSignature else { throw .invalidJWT("signature does not verify for \(issuer)") }
        guard expiresAt > now else { throw .invalidJWT("expired at \(expiresAt) (now \(now))") }
        guard audiences.isEmpty || audiences.contains(audience) else {
            throw .invalidJWT("aud \(audience) is not one of \(audiences.joined(separator: ", "))")
        }
    }

    /// Signs a token as the SDKs do (claims in JS order: iss, sub, aud, iat, exp).
    /// - Parameters:
    ///   - seed: the client's Ed25519 private key (32 bytes).
    public static func sign(
        seed: [UInt8], subject: String, audience: String, issuedAt: Int64, expiresAt: Int64
    ) throws(WalletConnectError) -> String {
        let key: Curve25519.Signing.PrivateKey
        do {
            key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
        } catch {
            throw .invalidKey("an Ed25519 seed is 32 bytes, got \(seed.count)")
        }
        let header = JSON.object([("alg", .string("EdDSA")), ("typ", .string("JWT"))])
        let payload = JSON.object([
            ("iss", .string(DIDKey.did(publicKey: Array(key.publicKey.rawRepresentation)))),
            ("sub", .string(subject)), ("aud", .string(audience)), ("iat", .int(issuedAt)), ("exp", .int(expiresAt)),
        ])
        let input = RelayBase64.encodeURL(header.bytes) + "." + RelayBase64.encodeURL(payload.bytes)
        let signature: Data
        do {
            signature = try key.signature(for: Array(input.utf8))
        } catch {
            throw .invalidKey("Ed25519 signing failed: \(error)")
        }
        return input + "." + RelayBase64.encodeURL(Array(signature))
    }
}

/// did:key for Ed25519 keys: `did:key:z` + base58btc(0xED 0x01 ‖ public key) (multicodec ed25519-pub).
public enum DIDKey {
    static let ed25519Prefix: [UInt8] = [0xED, 0x01]

    /// The did:key of an Ed25519 public key.
    public static func did(publicKey: [UInt8]) -> String {
        "did:key:z" + Base58.encode(ed25519Prefix + publicKey)
    }

    /// The Ed25519 public key in a did:key.
    /// - Throws: ``WalletConnectError/invalidJWT(_:)`` when it is not an Ed25519 did:key.
    public static func publicKey(fromDID did: String) throws(WalletConnectError) -> [UInt8] {
        guard did.hasPrefix("did:key:z"), let bytes = Base58.decode(String(did.dropFirst(9))) else {
            throw .invalidJWT("iss is not a did:key (base58btc)")
        }
        guard bytes.count == 34, Array(bytes.prefix(2)) == ed25519Prefix else {
            throw .invalidJWT("iss is not an Ed25519 did:key")
        }
        return Array(bytes.dropFirst(2))
    }
}
