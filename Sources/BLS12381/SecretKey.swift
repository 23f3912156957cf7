import CryptoCore

/// A BLS12-381 secret key for the minimal-signature-size scheme the Internet Computer certifies its state with:
/// public keys in G2 (96 bytes compressed), signatures in G1 (48 bytes compressed), `sig = sk · H(message)`
/// (draft-irtf-cfrg-bls-signature §2.6 CoreSign; IC interface spec §Certification).
public struct SecretKey: Sendable, Equatable {
    /// 0 < scalar < r, as four little-endian 64-bit words.
    let scalar: [UInt64]

    /// The ciphersuite the IC signs certificates with: the basic scheme, G1 signatures, hash_to_curve
    /// `BLS12381G1_XMD:SHA-256_SSWU_RO_`.
    public static let icDomainSeparationTag = Array("BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_".utf8)

    /// The order r of G1 and G2, little-endian words.
    static let groupOrder: [UInt64] = [
        0xffff_ffff_0000_0001, 0x53bd_a402_fffe_5bfe, 0x3339_d808_09a1_d805, 0x73ed_a753_299d_7d48,
    ]

    /// The key whose scalar is the 32-byte big-endian `bytes`.
    ///
    /// - Throws: ``BLSError/invalidLength(expected:actual:)`` unless 32 bytes, ``BLSError/scalarOutOfRange`` for
    ///   zero or a value not below r.
    public init(bigEndian bytes: [UInt8]) throws(BLSError) {
        guard bytes.count == 32 else { throw .invalidLength(expected: 32, actual: bytes.count) }
        let words = Self.words(bigEndian: bytes)
        guard words.contains(where: { $0 != 0 }), Self.lessThanOrder(words) else { throw .scalarOutOfRange }
        scalar = words
    }

    /// A key derived from `seed` (any bytes): SHA-256(seed) read big-endian, reduced mod r; should that be zero
    /// (probability 2^-255), SHA-256 of the digest instead. The same seed always gives the same key.
    public init(seed: [UInt8]) {
        var digest = Digest.sha256.hash(seed)
        while true {
            var words = Self.words(bigEndian: digest)
            // 2^256 < 3r, so at most two subtractions reduce it.
            while !Self.lessThanOrder(words) { words = Self.subtractOrder(words) }
            if words.contains(where: { $0 != 0 }) {
                scalar = words
                return
            }
            digest = Digest.sha256.hash(digest)
        }
    }

    /// The scalar, 32 bytes big-endian.
    public var bigEndianBytes: [UInt8] {
        scalar.reversed().flatMap { word in
            stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> UInt64($0)) }
        }
    }

    /// sk · G2 generator.
    public var publicKeyPoint: G2Point { G2Point.generator.multiplied(by: scalar) }

    /// The public key, 96 bytes in the ZCash compressed form.
    public var publicKey: [UInt8] { publicKeyPoint.compressed }

    /// sk · hash_to_G1(message, dst), the signature point.
    public func signaturePoint(_ message: [UInt8], dst: [UInt8] = icDomainSeparationTag) -> G1Point {
        HashToCurve.hashToG1(message, dst: dst).multiplied(by: scalar)
    }

    /// The 48-byte compressed signature of `message` (the basic scheme's Sign).
    public func sign(_ message: [UInt8], dst: [UInt8] = icDomainSeparationTag) -> [UInt8] {
        signaturePoint(message, dst: dst).compressed
    }

    static func words(bigEndian bytes: [UInt8]) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: 4)
        for (index, byte) in bytes.enumerated() {
            let word = 3 - index / 8
            words[word] = words[word] << 8 | UInt64(byte)
        }
        return words
    }

    static func lessThanOrder(_ words: [UInt64]) -> Bool {
        for index in stride(from: 3, through: 0, by: -1) where words[index] != groupOrder[index] {
            return words[index] < groupOrder[index]
        }
        return false
    }

    static func subtractOrder(_ words: [UInt64]) -> [UInt64] {
        var borrow = false
        return (0..<4).map { Fp.sub(words[$0], groupOrder[$0], &borrow) }
    }
}
