import COpenSSL

/// Ed25519 (RFC 8032) over OpenSSL's one-shot `EVP_DigestSign`/`EVP_DigestVerify`: the signature scheme of
/// Ed25519 self-authenticating principals on the Internet Computer (dfx and ic-py identities).
public enum Ed25519 {
    /// The 32-byte public key of a 32-byte private key (seed).
    public static func publicKey(of privateKey: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        let key = try PrivateKey(privateKey)
        var out = [UInt8](repeating: 0, count: 32)
        var length = 32
        guard EVP_PKEY_get_raw_public_key(key.pointer, &out, &length) == 1, length == 32 else {
            throw OpenSSLError.drain("EVP_PKEY_get_raw_public_key")
        }
        return out
    }

    /// The 64-byte signature of `message` (Ed25519 hashes the message itself).
    public static func sign(_ message: [UInt8], privateKey: [UInt8]) throws(OpenSSLError) -> [UInt8] {
        try SigningKey(privateKey).sign(message)
    }

    /// A private key imported into OpenSSL once, for signing many messages (a replica's node key signs every
    /// query response). Importing a raw Ed25519 key derives its public key, a scalar multiplication that costs
    /// as much as the signature itself; ``Ed25519/sign(_:privateKey:)`` pays it on every call.
    public struct SigningKey: Sendable {
        let key: PrivateKey

        /// Imports a 32-byte private key (seed).
        public init(_ privateKey: [UInt8]) throws(OpenSSLError) { key = try PrivateKey(privateKey) }

        /// The 64-byte signature of `message` (Ed25519 hashes the message itself). Safe to call from many
        /// threads at once: each call has a signing context of its own over the shared, never-modified key.
        public func sign(_ message: [UInt8]) throws(OpenSSLError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw OpenSSLError.drain("EVP_MD_CTX_new") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, nil, nil, key.pointer) == 1 else {
                throw OpenSSLError.drain("EVP_DigestSignInit")
            }
            var signature = [UInt8](repeating: 0, count: 64)
            var length = 64
            guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1, length == 64 else {
                throw OpenSSLError.drain("EVP_DigestSign")
            }
            return signature
        }
    }

    /// True if `signature` (64 bytes) is `publicKey`'s (32 bytes) signature of `message`.
    public static func verify(_ signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == 64, publicKey.count == 32,
            let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, 32)
        else {
            ERR_clear_error()
            return false
        }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else {
            ERR_clear_error()
            return false
        }
        let ok = EVP_DigestVerify(context, signature, 64, message, message.count) == 1
        ERR_clear_error()
        return ok
    }

    /// Owns one `EVP_PKEY` holding a raw Ed25519 private key.
    ///
    /// `@unchecked Sendable`: the key is never modified after `init`; OpenSSL 3 lets threads sign with one
    /// `EVP_PKEY` concurrently (each `EVP_DigestSignInit` takes a reference of its own, counted atomically).
    final class PrivateKey: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ privateKey: [UInt8]) throws(OpenSSLError) {
            guard privateKey.count == 32,
                let pointer = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, privateKey, 32)
            else {
                throw privateKey.count == 32
                    ? OpenSSLError.drain("EVP_PKEY_new_raw_private_key")
                    : OpenSSLError(
                        operation: "Ed25519 private key", reason: "expected 32 bytes, got \(privateKey.count)")
            }
            self.pointer = pointer
        }

        deinit { EVP_PKEY_free(pointer) }
    }
}
