import COpenSSL

/// Message digests from OpenSSL's default provider.
public enum Digest: Sendable {
    case sha224, sha256, sha512, ripemd160

    var name: String {
        switch self {
        case .sha224: return "SHA224"
        case .sha256: return "SHA256"
        case .sha512: return "SHA512"
        case .ripemd160: return "RIPEMD160"
        }
    }

    /// Output length in bytes.
    public var length: Int {
        switch self {
        case .sha224: return 28
        case .sha256: return 32
        case .sha512: return 64
        case .ripemd160: return 20
        }
    }

    /// Input block size in bytes (the HMAC pad length).
    public var blockSize: Int {
        switch self {
        case .sha512: return 128
        case .sha224, .sha256, .ripemd160: return 64
        }
    }

    /// The fetched algorithm, cached per process (fetching is the slow part of a one-shot digest).
    var md: OpaquePointer {
        switch self {
        case .sha224: return FetchedDigests.shared.sha224
        case .sha256: return FetchedDigests.shared.sha256
        case .sha512: return FetchedDigests.shared.sha512
        case .ripemd160: return FetchedDigests.shared.ripemd160
        }
    }

    /// Hashes `data`.
    public func hash<Bytes: ContiguousBytes>(_ data: Bytes) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: length)
        var size: UInt32 = 0
        let ok = data.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &size, md, nil)
        }
        precondition(ok == 1, "EVP_Digest failed for \(name)")
        return out
    }
}

/// Something whose bytes can be borrowed (`[UInt8]`, `ArraySlice<UInt8>`).
public protocol ContiguousBytes {
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Array: ContiguousBytes where Element == UInt8 {}
extension ArraySlice: ContiguousBytes where Element == UInt8 {}

/// `@unchecked Sendable`: the fetched `EVP_MD` objects are immutable, reference-counted by OpenSSL and
/// documented as shareable between threads; they live for the whole process.
final class FetchedDigests: @unchecked Sendable {
    let sha224: OpaquePointer
    let sha256: OpaquePointer
    let sha512: OpaquePointer
    let ripemd160: OpaquePointer

    static let shared = FetchedDigests()

    private init() {
        func fetch(_ name: String) -> OpaquePointer {
            guard let md = EVP_MD_fetch(nil, name, nil) else {
                preconditionFailure("OpenSSL lacks \(name): \(OpenSSLError.drain("EVP_MD_fetch"))")
            }
            return md
        }
        sha224 = fetch("SHA224")
        sha256 = fetch("SHA256")
        sha512 = fetch("SHA512")
        ripemd160 = fetch("RIPEMD160")
    }
}

/// HMAC (RFC 2104) over OpenSSL's digests.
///
/// Built from two digest passes with the process-wide fetched `EVP_MD` rather than OpenSSL 3's one-shot
/// `HMAC()`, which fetches the MAC and the digest by name on every call; BIP-32 derivation runs one HMAC
/// per child key, so that fetch was a measurable share of each derivation.
public enum HMAC {
    /// HMAC of `data` under `key` with `digest`.
    public static func authenticate(_ data: [UInt8], key: [UInt8], digest: Digest) -> [UInt8] {
        let md = digest.md
        let blockSize = digest.blockSize
        let length = digest.length
        guard let ctx = EVP_MD_CTX_new() else { preconditionFailure("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(ctx) }
        var out = [UInt8](repeating: 0, count: length)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128 + 64) { scratch in
            let pad = scratch.baseAddress!
            let inner = pad + 128
            pad.initialize(repeating: 0, count: 128 + 64)
            defer { pad.update(repeating: 0, count: 128 + 64) }  // the padded key is secret
            if key.count > blockSize {
                var size: UInt32 = 0
                precondition(EVP_Digest(key, key.count, pad, &size, md, nil) == 1, "EVP_Digest failed")
            } else {
                key.withUnsafeBufferPointer { k in
                    if let base = k.baseAddress { pad.update(from: base, count: k.count) }
                }
            }
            for i in 0..<blockSize { pad[i] ^= 0x36 }
            var size: UInt32 = 0
            var ok = EVP_DigestInit_ex(ctx, md, nil) == 1
            ok = ok && EVP_DigestUpdate(ctx, pad, blockSize) == 1
            ok = ok && data.withUnsafeBytes { EVP_DigestUpdate(ctx, $0.baseAddress, $0.count) } == 1
            ok = ok && EVP_DigestFinal_ex(ctx, inner, &size) == 1
            for i in 0..<blockSize { pad[i] ^= 0x36 ^ 0x5c }
            ok = ok && EVP_DigestInit_ex(ctx, md, nil) == 1
            ok = ok && EVP_DigestUpdate(ctx, pad, blockSize) == 1
            ok = ok && EVP_DigestUpdate(ctx, inner, length) == 1
            ok = ok && EVP_DigestFinal_ex(ctx, &out, &size) == 1
            precondition(ok, "HMAC digest failed for \(digest.name)")
        }
        return out
    }
}

/// Cryptographically secure random bytes from OpenSSL's DRBG.
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return out }
        precondition(RAND_bytes(&out, Int32(count)) == 1, "RAND_bytes failed")
        return out
    }
}

/// Compares two byte strings in time independent of where they differ (for MACs).
public func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    return CRYPTO_memcmp(a, b, a.count) == 0
}
