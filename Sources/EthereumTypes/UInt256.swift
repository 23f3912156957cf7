import ByteCoding

/// A fixed-width 256-bit unsigned integer for Ethereum quantities (balances, fees, values).
///
/// Four 64-bit limbs, least significant first. Arithmetic operators trap on overflow like Swift's
/// integers; use the `…ReportingOverflow` forms on untrusted values.
public struct UInt256: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// Limbs, least significant first.
    public var limbs: (UInt64, UInt64, UInt64, UInt64)

    public static let zero = UInt256(limbs: (0, 0, 0, 0))
    public static let max = UInt256(limbs: (.max, .max, .max, .max))

    public init(limbs: (UInt64, UInt64, UInt64, UInt64)) { self.limbs = limbs }
    public init(_ value: UInt64) { limbs = (value, 0, 0, 0) }
    public init(integerLiteral value: UInt64) { self.init(value) }

    /// Converts an integer that must be non-negative and fit in 64 bits (programmer error otherwise).
    public init<T: BinaryInteger>(_ value: T) {
        precondition(value >= 0, "UInt256 from a negative value")
        limbs = (UInt64(value), 0, 0, 0)
    }

    /// Interprets up to 32 big-endian bytes; nil if longer.
    public init?<Bytes: Collection<UInt8>>(bigEndian bytes: Bytes) {
        guard bytes.count <= 32 else { return nil }
        var value = UInt256.zero
        var shift = 8 * bytes.count
        for byte in bytes {
            shift -= 8
            value[word: shift / 64] |= UInt64(byte) << UInt64(shift % 64)
        }
        limbs = value.limbs
    }

    public static func == (a: UInt256, b: UInt256) -> Bool {
        a.limbs.0 == b.limbs.0 && a.limbs.1 == b.limbs.1 && a.limbs.2 == b.limbs.2 && a.limbs.3 == b.limbs.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(limbs.0)
        hasher.combine(limbs.1)
        hasher.combine(limbs.2)
        hasher.combine(limbs.3)
    }

    public static func < (a: UInt256, b: UInt256) -> Bool {
        if a.limbs.3 != b.limbs.3 { return a.limbs.3 < b.limbs.3 }
        if a.limbs.2 != b.limbs.2 { return a.limbs.2 < b.limbs.2 }
        if a.limbs.1 != b.limbs.1 { return a.limbs.1 < b.limbs.1 }
        return a.limbs.0 < b.limbs.0
    }

    public var isZero: Bool { (limbs.0 | limbs.1 | limbs.2 | limbs.3) == 0 }

    /// The value as UInt64 if it fits.
    public var uint64Value: UInt64? { (limbs.1 | limbs.2 | limbs.3) == 0 ? limbs.0 : nil }

    subscript(word index: Int) -> UInt64 {
        get {
            switch index {
            case 0: return limbs.0
            case 1: return limbs.1
            case 2: return limbs.2
            default: return limbs.3
            }
        }
        set {
            switch index {
            case 0: limbs.0 = newValue
            case 1: limbs.1 = newValue
            case 2: limbs.2 = newValue
            default: limbs.3 = newValue
            }
        }
    }

    /// Number of significant bits (0 for zero).
    public var bitWidthUsed: Int {
        if limbs.3 != 0 { return 256 - limbs.3.leadingZeroBitCount }
        if limbs.2 != 0 { return 192 - limbs.2.leadingZeroBitCount }
        if limbs.1 != 0 { return 128 - limbs.1.leadingZeroBitCount }
        return 64 - limbs.0.leadingZeroBitCount
    }

    // MARK: Arithmetic

    public func addingReportingOverflow(_ other: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (s0, c0) = limbs.0.addingReportingOverflow(other.limbs.0)
        var (s1, c1) = limbs.1.addingReportingOverflow(other.limbs.1)
        var c1b = false
        if c0 { (s1, c1b) = s1.addingReportingOverflow(1) }
        var (s2, c2) = limbs.2.addingReportingOverflow(other.limbs.2)
        var c2b = false
        if c1 || c1b { (s2, c2b) = s2.addingReportingOverflow(1) }
        var (s3, c3) = limbs.3.addingReportingOverflow(other.limbs.3)
        var c3b = false
        if c2 || c2b { (s3, c3b) = s3.addingReportingOverflow(1) }
        return (UInt256(limbs: (s0, s1, s2, s3)), c3 || c3b)
    }

    public func subtractingReportingOverflow(_ other: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        let (d0, b0) = limbs.0.subtractingReportingOverflow(other.limbs.0)
        var (d1, b1) = limbs.1.subtractingReportingOverflow(other.limbs.1)
        var b1b = false
        if b0 { (d1, b1b) = d1.subtractingReportingOverflow(1) }
        var (d2, b2) = limbs.2.subtractingReportingOverflow(other.limbs.2)
        var b2b = false
        if b1 || b1b { (d2, b2b) = d2.subtractingReportingOverflow(1) }
        var (d3, b3) = limbs.3.subtractingReportingOverflow(other.limbs.3)
        var b3b = false
        if b2 || b2b { (d3, b3b) = d3.subtractingReportingOverflow(1) }
        return (UInt256(limbs: (d0, d1, d2, d3)), b3 || b3b)
    }

    public func multipliedReportingOverflow(by other: UInt256) -> (partialValue: UInt256, overflow: Bool) {
        // Both factors within 64 bits (gas × price, the common case): one full-width multiply.
        if (limbs.1 | limbs.2 | limbs.3 | other.limbs.1 | other.limbs.2 | other.limbs.3) == 0 {
            let (hi, lo) = limbs.0.multipliedFullWidth(by: other.limbs.0)
            return (UInt256(limbs: (lo, hi, 0, 0)), false)
        }
        // Schoolbook 4 × 4 words into 8 on the stack (an array here cost an allocation per multiplication).
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 8) { result in
            result.initialize(repeating: 0)
            for i in 0..<4 {
                let a = self[word: i]
                if a == 0 { continue }
                var carry: UInt64 = 0
                for j in 0..<4 {
                    let (hi, lo) = a.multipliedFullWidth(by: other[word: j])
                    let (s1, o1) = result[i + j].addingReportingOverflow(lo)
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    result[i + j] = s2
                    carry = hi &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                }
                var k = i + 4
                while carry != 0 && k < 8 {
                    let (s, o) = result[k].addingReportingOverflow(carry)
                    result[k] = s
                    carry = o ? 1 : 0
                    k += 1
                }
            }
            let overflow = (result[4] | result[5] | result[6] | result[7]) != 0
            return (UInt256(limbs: (result[0], result[1], result[2], result[3])), overflow)
        }
    }

    /// Quotient and remainder; traps on division by zero (programmer error).
    public func quotientAndRemainder(dividingBy divisor: UInt256) -> (quotient: UInt256, remainder: UInt256) {
        precondition(!divisor.isZero, "UInt256 division by zero")
        if self < divisor { return (.zero, self) }
        if let a = uint64Value, let b = divisor.uint64Value { return (UInt256(a / b), UInt256(a % b)) }
        if let d = divisor.uint64Value {
            var q = UInt256.zero
            var r: UInt64 = 0
            for i in stride(from: 3, through: 0, by: -1) {
                let (qi, ri) = d.dividingFullWidth((r, self[word: i]))
                q[word: i] = qi
                r = ri
            }
            return (q, UInt256(r))
        }
        // Shift-subtract long division for wide divisors (rare: only for non-hot paths).
        var quotient = UInt256.zero
        var remainder = UInt256.zero
        for bit in stride(from: bitWidthUsed - 1, through: 0, by: -1) {
            remainder = remainder << 1
            if (self[word: bit / 64] >> UInt64(bit % 64)) & 1 == 1 { remainder.limbs.0 |= 1 }
            if remainder >= divisor {
                remainder = remainder - divisor
                quotient[word: bit / 64] |= 1 << UInt64(bit % 64)
            }
        }
        return (quotient, remainder)
    }

    public static func + (a: UInt256, b: UInt256) -> UInt256 {
        let (r, o) = a.addingReportingOverflow(b)
        precondition(!o, "UInt256 addition overflow")
        return r
    }

    public static func - (a: UInt256, b: UInt256) -> UInt256 {
        let (r, o) = a.subtractingReportingOverflow(b)
        precondition(!o, "UInt256 subtraction underflow")
        return r
    }

    public static func * (a: UInt256, b: UInt256) -> UInt256 {
        let (r, o) = a.multipliedReportingOverflow(by: b)
        precondition(!o, "UInt256 multiplication overflow")
        return r
    }

    public static func / (a: UInt256, b: UInt256) -> UInt256 { a.quotientAndRemainder(dividingBy: b).quotient }
    public static func % (a: UInt256, b: UInt256) -> UInt256 { a.quotientAndRemainder(dividingBy: b).remainder }
    public static func += (a: inout UInt256, b: UInt256) { a = a + b }
    public static func -= (a: inout UInt256, b: UInt256) { a = a - b }

    public static func << (a: UInt256, shift: Int) -> UInt256 {
        guard shift > 0 else { return a }
        guard shift < 256 else { return .zero }
        var out = UInt256.zero
        let wordShift = shift / 64
        let bitShift = UInt64(shift % 64)
        for i in stride(from: 3, through: wordShift, by: -1) {
            var w = a[word: i - wordShift] << bitShift
            if bitShift > 0 && i - wordShift - 1 >= 0 { w |= a[word: i - wordShift - 1] >> (64 - bitShift) }
            out[word: i] = w
        }
        return out
    }

    public static func >> (a: UInt256, shift: Int) -> UInt256 {
        guard shift > 0 else { return a }
        guard shift < 256 else { return .zero }
        var out = UInt256.zero
        let wordShift = shift / 64
        let bitShift = UInt64(shift % 64)
        for i in 0..<(4 - wordShift) {
            var w = a[word: i + wordShift] >> bitShift
            if bitShift > 0 && i + wordShift + 1 < 4 { w |= a[word: i + wordShift + 1] << (64 - bitShift) }
            out[word: i] = w
        }
        return out
    }

    public static func min(_ a: UInt256, _ b: UInt256) -> UInt256 { a < b ? a : b }

    // MARK: Bytes and text

    /// 32 big-endian bytes.
    public var bigEndianBytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        for i in 0..<4 {
            let w = self[word: 3 - i]
            for j in 0..<8 { out[i * 8 + j] = UInt8(truncatingIfNeeded: w >> UInt64(56 - j * 8)) }
        }
        return out
    }

    /// Big-endian bytes without leading zeros (empty for zero), as RLP encodes integers.
    public var minimalBigEndianBytes: [UInt8] {
        let count = (bitWidthUsed + 7) / 8
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count {
                let shift = 8 * (count - 1 - i)
                out[i] = UInt8(truncatingIfNeeded: self[word: shift / 64] >> UInt64(shift % 64))
            }
            initialized = count
        }
    }

    /// Decimal digits.
    public var description: String {
        if let small = uint64Value { return String(small) }
        var digits: [String] = []
        var value = self
        let chunk = UInt256(10_000_000_000_000_000_000 as UInt64)
        while !value.isZero {
            let (q, r) = value.quotientAndRemainder(dividingBy: chunk)
            digits.append(String(r.limbs.0))
            value = q
        }
        var text = digits.last ?? "0"
        for part in digits.dropLast().reversed() {
            text += String(repeating: "0", count: 19 - part.count) + part
        }
        return text
    }

    /// Lowercase hex digits without prefix or leading zeros ("0" for zero).
    public var hexDigits: String {
        if let small = uint64Value { return String(small, radix: 16) }
        var text = ""
        var started = false
        for i in stride(from: 3, through: 0, by: -1) {
            let w = self[word: i]
            if !started {
                if w == 0 { continue }
                text = String(w, radix: 16)
                started = true
            } else {
                let part = String(w, radix: 16)
                text += String(repeating: "0", count: 16 - part.count) + part
            }
        }
        return text
    }

    /// Parses decimal digits (no sign, no separators); nil on any other character or overflow.
    public init?(decimal text: some StringProtocol) {
        guard !text.isEmpty else { return nil }
        var value = UInt256.zero
        for c in text.utf8 {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: UInt256(10 as UInt64))
            let (s, o2) = m.addingReportingOverflow(UInt256(UInt64(c - UInt8(ascii: "0"))))
            if o1 || o2 { return nil }
            value = s
        }
        self = value
    }

    /// Parses hex digits without prefix (leading zeros allowed); nil on a bad digit or more than 64 digits.
    public init?(hexDigits text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        var start = 0
        while start < utf8.count - 1 && utf8[start] == UInt8(ascii: "0") { start += 1 }
        guard !utf8.isEmpty, utf8.count - start <= 64 else { return nil }
        var value = UInt256.zero
        for c in utf8[start...] {
            guard let n = Hex.nibble(c) else { return nil }
            value = (value << 4)
            value.limbs.0 |= UInt64(n)
        }
        self = value
    }
}
