/// An element of the BLS12-381 base field 𝔽p, p = 0x1a0111ea…ffffaaab (381 bits), held in Montgomery form
/// (x·R mod p, R = 2^384) in six 64-bit limbs, least significant first.
///
/// Not constant-time: this signs for a development node, where correctness and speed matter, not side channels.
public struct Fp: Sendable, Hashable {
    typealias Limbs = (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    /// x·R mod p, fully reduced (< p).
    var limbs: Limbs

    init(montgomery limbs: Limbs) { self.limbs = limbs }

    static let modulus: Limbs = (
        0xb9fe_ffff_ffff_aaab, 0x1eab_fffe_b153_ffff, 0x6730_d2a0_f6b0_f624, 0x6477_4b84_f385_12bf,
        0x4b1b_a7b6_434b_acd7, 0x1a01_11ea_397f_e69a
    )
    /// −p⁻¹ mod 2^64.
    static let inverse: UInt64 = 0x89f3_fffc_fffc_fffd
    /// R² mod p: multiplying by it converts into Montgomery form.
    static let r2: Limbs = (
        0xf4df_1f34_1c34_1746, 0x0a76_e6a6_09d1_04f1, 0x8de5_476c_4c95_b6d5, 0x67eb_88a9_939d_83c0,
        0x9a79_3e85_b519_952d, 0x1198_8fe5_92ca_e3aa
    )

    public static let zero = Fp(montgomery: (0, 0, 0, 0, 0, 0))
    /// R mod p.
    public static let one = Fp(
        montgomery: (
            0x7609_0000_0002_fffd, 0xebf4_000b_c40c_0002, 0x5f48_9857_53c7_58ba, 0x77ce_5853_7052_5745,
            0x5c07_1a97_a256_ec6d, 0x15f6_5ec3_fa80_e493
        ))

    // MARK: Conversions

    /// A small integer.
    public init(_ value: UInt64) {
        self = Fp(montgomery: Self.montgomeryProduct((value, 0, 0, 0, 0, 0), Self.r2))
    }

    /// The element whose canonical value is the 48-byte big-endian `bytes`.
    ///
    /// - Throws: ``BLSError/notInField`` when the value is not below p, ``BLSError/invalidLength`` unless 48 bytes.
    public init(bigEndian bytes: some Collection<UInt8>) throws(BLSError) {
        guard bytes.count == 48 else { throw .invalidLength(expected: 48, actual: bytes.count) }
        let raw = Self.limbs(bigEndian: Array(bytes))
        guard Self.lessThanModulus(raw) else { throw .notInField }
        self = Fp(montgomery: Self.montgomeryProduct(raw, Self.r2))
    }

    /// The element from a 96-digit hex string (constants; a programmer error if malformed).
    init(hex: String) {
        var bytes: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            bytes.append(UInt8(Self.nibble(high) << 4 | Self.nibble(low)))
        }
        do { try self.init(bigEndian: bytes) } catch { preconditionFailure("bad field constant \(hex): \(error)") }
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: preconditionFailure("not a hex digit")
        }
    }

    /// `bytes` (64, as hash_to_field's L = 64 for BLS12-381) read big-endian and reduced mod p (RFC 9380 §5.2).
    init(reducing bytes: ArraySlice<UInt8>) {
        precondition(bytes.count == 64)
        let start = bytes.startIndex
        // value = high·2^384 + low, high < 2^128 < p, low < 2^384.
        let high = Self.limbs(bigEndian: [UInt8](repeating: 0, count: 32) + bytes[start..<start + 16])
        let low = Self.limbs(bigEndian: Array(bytes[(start + 16)...]))
        // Montgomery product of an input < 2^384 with R² (< p) stays below 2p, reduced once: low·R.
        let lowMont = Fp(montgomery: Self.montgomeryProduct(low, Self.r2))
        let highMont = Fp(montgomery: Self.montgomeryProduct(high, Self.r2))
        // (high·R)·R²/R = high·2^384·R: the Montgomery form of high·2^384.
        let shifted = Fp(montgomery: Self.montgomeryProduct(highMont.limbs, Self.r2))
        self = lowMont + shifted
    }

    /// The canonical value (not Montgomery form) as limbs.
    var canonicalLimbs: Limbs { Self.montgomeryProduct(limbs, (1, 0, 0, 0, 0, 0)) }

    /// The canonical value, 48 bytes big-endian.
    public var bigEndianBytes: [UInt8] {
        let value = canonicalLimbs
        var out = [UInt8]()
        out.reserveCapacity(48)
        for limb in [value.5, value.4, value.3, value.2, value.1, value.0] {
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: limb >> shift)) }
        }
        return out
    }

    static func limbs(bigEndian bytes: [UInt8]) -> Limbs {
        precondition(bytes.count == 48)
        var words = [UInt64](repeating: 0, count: 6)
        for (index, byte) in bytes.enumerated() {
            let word = 5 - index / 8
            words[word] = words[word] << 8 | UInt64(byte)
        }
        return (words[0], words[1], words[2], words[3], words[4], words[5])
    }

    // MARK: Predicates

    public var isZero: Bool { limbs == Self.zero.limbs }

    public static func == (lhs: Fp, rhs: Fp) -> Bool { lhs.limbs == rhs.limbs }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(limbs.0)
        hasher.combine(limbs.1)
        hasher.combine(limbs.2)
        hasher.combine(limbs.3)
        hasher.combine(limbs.4)
        hasher.combine(limbs.5)
    }

    /// sgn0 of RFC 9380 §4.1: the parity of the canonical value.
    var sgn0: Bool { canonicalLimbs.0 & 1 == 1 }

    /// True when the canonical value is greater than (p − 1)/2 (ZCash's "lexicographically largest" flag).
    var isLexicographicallyLargest: Bool {
        let value = canonicalLimbs
        let negated = (-self).canonicalLimbs
        return Self.compare(value, negated) > 0
    }

    // MARK: Arithmetic

    public static func + (lhs: Fp, rhs: Fp) -> Fp {
        let a = lhs.limbs
        let b = rhs.limbs
        var carry = false
        let r0 = add(a.0, b.0, &carry)
        let r1 = add(a.1, b.1, &carry)
        let r2 = add(a.2, b.2, &carry)
        let r3 = add(a.3, b.3, &carry)
        let r4 = add(a.4, b.4, &carry)
        let r5 = add(a.5, b.5, &carry)
        // Both inputs are below p < 2^382, so the sum never carries out of 384 bits.
        return Fp(montgomery: subtractModulusIfNeeded((r0, r1, r2, r3, r4, r5)))
    }

    public static func - (lhs: Fp, rhs: Fp) -> Fp {
        let a = lhs.limbs
        let b = rhs.limbs
        var borrow = false
        var r = (
            sub(a.0, b.0, &borrow), sub(a.1, b.1, &borrow), sub(a.2, b.2, &borrow), sub(a.3, b.3, &borrow),
            sub(a.4, b.4, &borrow), sub(a.5, b.5, &borrow)
        )
        if borrow {
            let m = modulus
            var carry = false
            r = (
                add(r.0, m.0, &carry), add(r.1, m.1, &carry), add(r.2, m.2, &carry), add(r.3, m.3, &carry),
                add(r.4, m.4, &carry), add(r.5, m.5, &carry)
            )
        }
        return Fp(montgomery: r)
    }

    public static prefix func - (value: Fp) -> Fp { zero - value }

    public static func * (lhs: Fp, rhs: Fp) -> Fp { Fp(montgomery: montgomeryProduct(lhs.limbs, rhs.limbs)) }

    public static func += (lhs: inout Fp, rhs: Fp) { lhs = lhs + rhs }
    public static func -= (lhs: inout Fp, rhs: Fp) { lhs = lhs - rhs }
    public static func *= (lhs: inout Fp, rhs: Fp) { lhs = lhs * rhs }

    public var squared: Fp { self * self }
    public var doubled: Fp { self + self }

    /// self^exponent, the exponent as little-endian 64-bit words.
    func power(_ exponent: [UInt64]) -> Fp {
        var result = Fp.one
        for word in exponent.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result = result.squared
                if (word >> UInt64(bit)) & 1 == 1 { result *= self }
            }
        }
        return result
    }

    /// p − 2, for inversion by Fermat.
    static let pMinus2: [UInt64] = [
        0xb9fe_ffff_ffff_aaa9, 0x1eab_fffe_b153_ffff, 0x6730_d2a0_f6b0_f624, 0x6477_4b84_f385_12bf,
        0x4b1b_a7b6_434b_acd7, 0x1a01_11ea_397f_e69a,
    ]
    /// (p + 1)/4: p ≡ 3 (mod 4), so a square root of a square x is x^((p+1)/4).
    static let pPlus1Over4: [UInt64] = [
        0xee7f_bfff_ffff_eaab, 0x07aa_ffff_ac54_ffff, 0xd9cc_34a8_3dac_3d89, 0xd91d_d2e1_3ce1_44af,
        0x92c6_e9ed_90d2_eb35, 0x0680_447a_8e5f_f9a6,
    ]

    /// The multiplicative inverse (zero maps to zero, RFC 9380's inv0).
    public var inverted: Fp { power(Self.pMinus2) }

    /// A square root, or nil when `self` is not a square.
    public var squareRoot: Fp? {
        let candidate = power(Self.pPlus1Over4)
        return candidate.squared == self ? candidate : nil
    }

    // MARK: Limb helpers

    @inline(__always)
    static func add(_ a: UInt64, _ b: UInt64, _ carry: inout Bool) -> UInt64 {
        let (s1, o1) = a.addingReportingOverflow(b)
        let (s2, o2) = s1.addingReportingOverflow(carry ? 1 : 0)
        carry = o1 || o2
        return s2
    }

    @inline(__always)
    static func sub(_ a: UInt64, _ b: UInt64, _ borrow: inout Bool) -> UInt64 {
        let (d1, o1) = a.subtractingReportingOverflow(b)
        let (d2, o2) = d1.subtractingReportingOverflow(borrow ? 1 : 0)
        borrow = o1 || o2
        return d2
    }

    /// −1, 0, 1 as a < b, a == b, a > b.
    static func compare(_ a: Limbs, _ b: Limbs) -> Int {
        for (x, y) in [(a.5, b.5), (a.4, b.4), (a.3, b.3), (a.2, b.2), (a.1, b.1), (a.0, b.0)] where x != y {
            return x < y ? -1 : 1
        }
        return 0
    }

    static func lessThanModulus(_ a: Limbs) -> Bool { compare(a, modulus) < 0 }

    @inline(__always)
    static func subtractModulusIfNeeded(_ a: Limbs) -> Limbs {
        let m = modulus
        var borrow = false
        let r = (
            sub(a.0, m.0, &borrow), sub(a.1, m.1, &borrow), sub(a.2, m.2, &borrow), sub(a.3, m.3, &borrow),
            sub(a.4, m.4, &borrow), sub(a.5, m.5, &borrow)
        )
        return borrow ? a : r
    }

    /// a·b·R⁻¹ mod p by CIOS (coarsely integrated operand scanning), unrolled over scalar locals (a loop over
    /// buffers ran ten times slower). Correct for a < 2^384 and b < p: the result before the final subtraction is
    /// below 2p.
    @inline(__always)
    static func montgomeryProduct(_ a: Limbs, _ b: Limbs) -> Limbs {
        let (a0, a1, a2, a3, a4, a5) = a
        let (b0, b1, b2, b3, b4, b5) = b
        var t0: UInt64 = 0
        var t1: UInt64 = 0
        var t2: UInt64 = 0
        var t3: UInt64 = 0
        var t4: UInt64 = 0
        var t5: UInt64 = 0
        var t6: UInt64 = 0
        var t7: UInt64 = 0
        var carry: UInt64 = 0
        var k: UInt64 = 0
        // Round 0: t += a·b0, then t = (t + k·p) / 2^64.
        carry = 0
        (t0, carry) = mac(t0, a0, b0, carry)
        (t1, carry) = mac(t1, a1, b0, carry)
        (t2, carry) = mac(t2, a2, b0, carry)
        (t3, carry) = mac(t3, a3, b0, carry)
        (t4, carry) = mac(t4, a4, b0, carry)
        (t5, carry) = mac(t5, a5, b0, carry)
        (t6, t7) = addCarry(t6, carry)
        k = t0 &* inverse
        (_, carry) = mac(t0, k, 0xb9fe_ffff_ffff_aaab, 0)
        (t0, carry) = mac(t1, k, 0x1eab_fffe_b153_ffff, carry)
        (t1, carry) = mac(t2, k, 0x6730_d2a0_f6b0_f624, carry)
        (t2, carry) = mac(t3, k, 0x6477_4b84_f385_12bf, carry)
        (t3, carry) = mac(t4, k, 0x4b1b_a7b6_434b_acd7, carry)
        (t4, carry) = mac(t5, k, 0x1a01_11ea_397f_e69a, carry)
        (t5, carry) = addCarry(t6, carry)
        t6 = t7 &+ carry
        // Round 1: t += a·b1, then t = (t + k·p) / 2^64.
        carry = 0
        (t0, carry) = mac(t0, a0, b1, carry)
        (t1, carry) = mac(t1, a1, b1, carry)
        (t2, carry) = mac(t2, a2, b1, carry)
        (t3, carry) = mac(t3, a3, b1, carry)
        (t4, carry) = mac(t4, a4, b1, carry)
        (t5, carry) = mac(t5, a5, b1, carry)
        (t6, t7) = addCarry(t6, carry)
        k = t0 &* inverse
        (_, carry) = mac(t0, k, 0xb9fe_ffff_ffff_aaab, 0)
        (t0, carry) = mac(t1, k, 0x1eab_fffe_b153_ffff, carry)
        (t1, carry) = mac(t2, k, 0x6730_d2a0_f6b0_f624, carry)
        (t2, carry) = mac(t3, k, 0x6477_4b84_f385_12bf, carry)
        (t3, carry) = mac(t4, k, 0x4b1b_a7b6_434b_acd7, carry)
        (t4, carry) = mac(t5, k, 0x1a01_11ea_397f_e69a, carry)
        (t5, carry) = addCarry(t6, carry)
        t6 = t7 &+ carry
        // Round 2: t += a·b2, then t = (t + k·p) / 2^64.
        carry = 0
        (t0, carry) = mac(t0, a0, b2, carry)
        (t1, carry) = mac(t1, a1, b2, carry)
        (t2, carry) = mac(t2, a2, b2, carry)
        (t3, carry) = mac(t3, a3, b2, carry)
        (t4, carry) = mac(t4, a4, b2, carry)
        (t5, carry) = mac(t5, a5, b2, carry)
        (t6, t7) = addCarry(t6, carry)
        k = t0 &* inverse
        (_, carry) = mac(t0, k, 0xb9fe_ffff_ffff_aaab, 0)
        (t0, carry) = mac(t1, k, 0x1eab_fffe_b153_ffff, carry)
        (t1, carry) = mac(t2, k, 0x6730_d2a0_f6b0_f624, carry)
        (t2, carry) = mac(t3, k, 0x6477_4b84_f385_12bf, carry)
        (t3, carry) = mac(t4, k, 0x4b1b_a7b6_434b_acd7, carry)
        (t4, carry) = mac(t5, k, 0x1a01_11ea_397f_e69a, carry)
        (t5, carry) = addCarry(t6, carry)
        t6 = t7 &+ carry
        // Round 3: t += a·b3, then t = (t + k·p) / 2^64.
        carry = 0
        (t0, carry) = mac(t0, a0, b3, carry)
        (t1, carry) = mac(t1, a1, b3, carry)
        (t2, carry) = mac(t2, a2, b3, carry)
        (t3, carry) = mac(t3, a3, b3, carry)
        (t4, carry) = mac(t4, a4, b3, carry)
        (t5, carry) = mac(t5, a5, b3, carry)
        (t6, t7) = addCarry(t6, carry)
        k = t0 &* inverse
        (_, carry) = mac(t0, k, 0xb9fe_ffff_ffff_aaab, 0)
        (t0, carry) = mac(t1, k, 0x1eab_fffe_b153_ffff, carry)
        (t1, carry) = mac(t2, k, 0x6730_d2a0_f6b0_f624, carry)
        (t2, carry) = mac(t3, k, 0x6477_4b84_f385_12bf, carry)
        (t3, carry) = mac(t4, k, 0x4b1b_a7b6_434b_acd7, carry)
        (t4, carry) = mac(t5, k, 0x1a01_11ea_397f_e69a, carry)
        (t5, carry) = addCarry(t6, carry)
        t6 = t7 &+ carry
        // Round 4: t += a·b4, then t = (t + k·p) / 2^64.
        carry = 0
        (t0, carry) = mac(t0, a0, b4, carry)
        (t1, carry) = mac(t1, a1, b4, carry)
        (t2, carry) = mac(t2, a2, b4, carry)
        (t3, carry) = mac(t3, a3, b4, carry)
        (t4, carry) = mac(t4, a4, b4, carry)
        (t5, carry) = mac(t5, a5, b4, carry)
        (t6, t7) = addCarry(t6, carry)
        k = t0 &* inverse
        (_, carry) = mac(t0, k, 0xb9fe_ffff_ffff_aaab, 0)
        (t0, carry) = mac(t1, k, 0x1eab_fffe_b153_ffff, carry)
        (t1, carry) = mac(t2, k, 0x6730_d2a0_f6b0_f624, carry)
        (t2, carry) = mac(t3, k, 0x6477_4b84_f385_12bf, carry)
        (t3, carry) = mac(t4, k, 0x4b1b_a7b6_434b_acd7, carry)
        (t4, carry) = mac(t5, k, 0x1a01_11ea_397f_e69a, carry)
        (t5, carry) = addCarry(t6, carry)
        t6 = t7 &+ carry
        // Round 5: t += a·b5, then t = (t + k·p) / 2^64.
        carry = 0
        (t0, carry) = mac(t0, a0, b5, carry)
        (t1, carry) = mac(t1, a1, b5, carry)
        (t2, carry) = mac(t2, a2, b5, carry)
        (t3, carry) = mac(t3, a3, b5, carry)
        (t4, carry) = mac(t4, a4, b5, carry)
        (t5, carry) = mac(t5, a5, b5, carry)
        (t6, t7) = addCarry(t6, carry)
        k = t0 &* inverse
        (_, carry) = mac(t0, k, 0xb9fe_ffff_ffff_aaab, 0)
        (t0, carry) = mac(t1, k, 0x1eab_fffe_b153_ffff, carry)
        (t1, carry) = mac(t2, k, 0x6730_d2a0_f6b0_f624, carry)
        (t2, carry) = mac(t3, k, 0x6477_4b84_f385_12bf, carry)
        (t3, carry) = mac(t4, k, 0x4b1b_a7b6_434b_acd7, carry)
        (t4, carry) = mac(t5, k, 0x1a01_11ea_397f_e69a, carry)
        (t5, carry) = addCarry(t6, carry)
        t6 = t7 &+ carry
        let r = (t0, t1, t2, t3, t4, t5)
        if t6 != 0 {
            // r + 2^384 ≥ p: subtract p once, the borrow absorbs t6.
            let m = modulus
            var borrow = false
            return (
                sub(r.0, m.0, &borrow), sub(r.1, m.1, &borrow), sub(r.2, m.2, &borrow), sub(r.3, m.3, &borrow),
                sub(r.4, m.4, &borrow), sub(r.5, m.5, &borrow)
            )
        }
        return subtractModulusIfNeeded(r)
    }

    /// (low, high) of t + x·y + carry (never overflows 128 bits).
    @inline(__always)
    static func mac(_ t: UInt64, _ x: UInt64, _ y: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
        let (high, low) = x.multipliedFullWidth(by: y)
        let (s1, o1) = low.addingReportingOverflow(t)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        return (s2, high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0))
    }

    /// (low, carry) of a + b.
    @inline(__always)
    static func addCarry(_ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return (sum, overflow ? 1 : 0)
    }
}

extension Fp: CustomStringConvertible {
    public var description: String {
        let digits = Array("0123456789abcdef")
        return "0x" + String(bigEndianBytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }
}
