import COpenSSL

/// Password-based key derivation: PBKDF2 (RFC 8018) and scrypt (RFC 7914).
public enum KeyDerivation {
    /// Errors from key derivation parameters.
    public enum ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
        case invalid(String)

        public var description: String {
            switch self {
            case .invalid(let why): return "invalid key derivation parameters: \(why)"
            }
        }
    }

    /// PBKDF2-HMAC with the given digest.
    public static func pbkdf2(
        password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int, digest: Digest
    ) throws(ParameterError) -> [UInt8] {
        guard iterations >= 1, iterations <= Int(Int32.max) else { throw .invalid("iterations out of range") }
        guard keyLength >= 1, keyLength <= 1 << 20 else { throw .invalid("key length out of range") }
        var out = [UInt8](repeating: 0, count: keyLength)
        let ok = password.withUnsafeBufferPointer { pw in
            pw.withMemoryRebound(to: CChar.self) { pwChars in
                PKCS5_PBKDF2_HMAC(
                    pwChars.baseAddress, Int32(pw.count), salt, Int32(salt.count), Int32(iterations),
                    digest.md, Int32(keyLength), &out)
            }
        }
        guard ok == 1 else { throw .invalid(OpenSSLError.drain("PKCS5_PBKDF2_HMAC").description) }
        return out
    }

    /// Largest memory scrypt may use (128·r·N·p-ish); keystores in the wild stay far below.
    public static let scryptMemoryLimit: UInt64 = 4 << 30

    /// scrypt(password, salt, N, r, p, dkLen).
    ///
    /// Uses OpenSSL's `EVP_PBE_scrypt` when OpenSSL accepts the parameters; otherwise (OpenSSL enforces
    /// N < 2^(16r), which real keystores such as n=262144 r=1 p=8 break) a Swift ROMix over OpenSSL's
    /// PBKDF2-HMAC-SHA256 computes the same function.
    public static func scrypt(
        password: [UInt8], salt: [UInt8], n: UInt64, r: UInt32, p: UInt32, keyLength: Int
    ) throws(ParameterError) -> [UInt8] {
        guard n > 1, n & (n - 1) == 0 else { throw .invalid("n must be a power of two greater than 1") }
        guard r >= 1, p >= 1 else { throw .invalid("r and p must be positive") }
        guard UInt64(r) * UInt64(p) < 1 << 30 else { throw .invalid("r·p too large") }
        guard keyLength >= 1, keyLength <= 1 << 20 else { throw .invalid("key length out of range") }
        // 128·r·(N + p + 2) bytes. N < 2^40 and r < 2^30 still allow a product past 2^64, so the
        // multiplication is checked (found by fuzzing: n=2^42 r=1048577 from a keystore file trapped here).
        let (memory, overflow) = (128 * UInt64(r)).multipliedReportingOverflow(by: n + UInt64(p) + 2)
        guard n < UInt64(1) << 40, !overflow, memory <= scryptMemoryLimit else {
            throw .invalid("needs more than \(scryptMemoryLimit >> 20) MiB of memory")
        }
        let openSSLAccepts = r >= 4 || n < UInt64(1) << (16 * UInt64(r))
        if openSSLAccepts {
            var out = [UInt8](repeating: 0, count: keyLength)
            let ok = password.withUnsafeBufferPointer { pw in
                pw.withMemoryRebound(to: CChar.self) { pwChars in
                    EVP_PBE_scrypt(
                        pwChars.baseAddress, pw.count, salt, salt.count, n, UInt64(r), UInt64(p), memory + (1 << 20),
                        &out, keyLength)
                }
            }
            if ok == 1 { return out }
            _ = OpenSSLError.drain("EVP_PBE_scrypt")
        }
        return try Scrypt.derive(password: password, salt: salt, n: Int(n), r: Int(r), p: Int(p), keyLength: keyLength)
    }
}

extension KeyDerivation {
    /// The Swift ROMix path regardless of what OpenSSL would accept; exposed so tests can compare the two.
    public static func scryptSwiftForTesting(
        password: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int, keyLength: Int
    ) throws(ParameterError) -> [UInt8] {
        try Scrypt.derive(password: password, salt: salt, n: n, r: r, p: p, keyLength: keyLength)
    }
}
