import Crypto
import Foundation

/// A WalletConnect v2 envelope (WalletConnect specs, clients/core/crypto/crypto-envelopes.md):
/// type 0 `0x00 ‖ iv(12) ‖ ChaCha20-Poly1305 ciphertext ‖ tag(16)`; type 1 adds the sender's X25519 public key
/// after the type byte (`wc_sessionAuthenticate` responses); type 2 `0x02 ‖ JSON`, unencrypted (Link Mode).
public enum Envelope: Sendable, Equatable {
    case type0(sealed: [UInt8])
    case type1(senderPublicKey: [UInt8], sealed: [UInt8])
    case type2(json: [UInt8])

    /// Largest envelope decoded (the relay's message limit is lower).
    public static let maxBytes = 4 << 20

    /// Seals `plaintext` with `symKey` in a type-0 envelope (a type-1 one when `senderPublicKey` is given).
    /// - Parameter nonce: 12 bytes; random when nil (tests pin the published vectors with a fixed one).
    public static func seal(
        _ plaintext: [UInt8], symKey: [UInt8], nonce: [UInt8]? = nil, senderPublicKey: [UInt8]? = nil
    ) throws(WalletConnectError) -> Envelope {
        guard symKey.count == 32 else { throw .invalidKey("a symKey is 32 bytes, got \(symKey.count)") }
        let box: ChaChaPoly.SealedBox
        do {
            let n = try nonce.map { try ChaChaPoly.Nonce(data: $0) } ?? ChaChaPoly.Nonce()
            box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: symKey), nonce: n)
        } catch {
            throw .invalidKey("ChaCha20-Poly1305 nonce must be 12 bytes")
        }
        let sealed = Array(box.combined)
        if let senderPublicKey {
            guard senderPublicKey.count == 32 else { throw .invalidKey("a sender public key is 32 bytes") }
            return .type1(senderPublicKey: senderPublicKey, sealed: sealed)
        }
        return .type0(sealed: sealed)
    }

    /// Decodes the bytes of an envelope.
    public init(bytes: [UInt8]) throws(WalletConnectError) {
        guard bytes.count <= Self.maxBytes else { throw .invalidEnvelope("longer than \(Self.maxBytes) bytes") }
        guard let type = bytes.first else { throw .invalidEnvelope("empty") }
        switch type {
        case 0:
            guard bytes.count >= 1 + 12 + 16 else { throw .invalidEnvelope("type 0 shorter than 29 bytes") }
            self = .type0(sealed: Array(bytes.dropFirst()))
        case 1:
            guard bytes.count >= 1 + 32 + 12 + 16 else { throw .invalidEnvelope("type 1 shorter than 61 bytes") }
            self = .type1(senderPublicKey: Array(bytes[1..<33]), sealed: Array(bytes.dropFirst(33)))
        case 2:
            self = .type2(json: Array(bytes.dropFirst()))
        default:
            throw .invalidEnvelope("unknown type \(type)")
        }
    }

    /// Decodes base64 text (standard or url alphabet, with or without padding).
    public init(base64 text: String) throws(WalletConnectError) {
        guard text.utf8.count <= Self.maxBytes / 3 * 4 + 4 else {
            throw .invalidEnvelope("longer than \(Self.maxBytes) bytes")
        }
        guard let bytes = RelayBase64.decode(text) else { throw .invalidEnvelope("not base64") }
        try self.init(bytes: bytes)
    }

    /// The envelope's bytes.
    public var bytes: [UInt8] {
        switch self {
        case .type0(let sealed): return [0] + sealed
        case .type1(let sender, let sealed): return [1] + sender + sealed
        case .type2(let json): return [2] + json
        }
    }

    /// Standard base64 with padding (relay transport).
    public var base64: String { RelayBase64.encode(bytes) }

    /// base64url without padding (Link Mode).
    public var base64URL: String { RelayBase64.encodeURL(bytes) }

    /// The plaintext: decrypted with `symKey` (types 0 and 1), or the JSON itself (type 2).
    /// - Throws: ``WalletConnectError/decryptionFailed`` when the key or the message is wrong.
    public func open(symKey: [UInt8]) throws(WalletConnectError) -> [UInt8] {
        let sealed: [UInt8]
        switch self {
        case .type2(let json): return json
        case .type0(let s): sealed = s
        case .type1(_, let s): sealed = s
        }
        guard symKey.count == 32 else { throw .invalidKey("a symKey is 32 bytes, got \(symKey.count)") }
        do {
            let box = try ChaChaPoly.SealedBox(combined: sealed)
            return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: symKey)))
        } catch {
            throw .decryptionFailed
        }
    }
}
