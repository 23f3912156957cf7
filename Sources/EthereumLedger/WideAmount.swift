import EthereumTypes

/// An unsigned amount of wei that may pass 2^256 − 1: a transaction's cost (gas limit × fee cap + value, up to
/// 2^321) and the sum of a sender's pool costs. geth computes these in `big.Int` and prints them exactly in its
/// error texts (`core/txpool/validation.go`), so Sandnet does too. Little-endian 64-bit limbs, no trailing zeros.
public struct WideAmount: Sendable, Equatable, Comparable, CustomStringConvertible {
    var limbs: [UInt64]

    public static let zero = WideAmount(limbs: [])

    init(limbs: [UInt64]) {
        self.limbs = limbs
        normalize()
    }

    public init(_ value: UInt256) {
        self.init(limbs: [value.limbs.0, value.limbs.1, value.limbs.2, value.limbs.3])
    }

    /// `a × b + c` (a transaction's maximum cost: gas limit × fee cap + value).
    public init(_ a: UInt64, times b: UInt256, plus c: UInt256) {
        let factors = [b.limbs.0, b.limbs.1, b.limbs.2, b.limbs.3]
        var out = [UInt64](repeating: 0, count: 5)
        var carry: UInt64 = 0
        for i in 0..<4 {
            let (high, low) = a.multipliedFullWidth(by: factors[i])
            let (sum, o) = low.addingReportingOverflow(carry)
            out[i] = sum
            carry = high &+ (o ? 1 : 0)
        }
        out[4] = carry
        self = WideAmount(limbs: out) + WideAmount(c)
    }

    mutating func normalize() {
        while let last = limbs.last, last == 0 { limbs.removeLast() }
    }

    /// The value when it fits in 256 bits.
    public var uint256Value: UInt256? {
        guard limbs.count <= 4 else { return nil }
        let l = limbs + [UInt64](repeating: 0, count: 4 - limbs.count)
        return UInt256(limbs: (l[0], l[1], l[2], l[3]))
    }

    public static func + (a: WideAmount, b: WideAmount) -> WideAmount {
        var out = [UInt64](repeating: 0, count: Swift.max(a.limbs.count, b.limbs.count) + 1)
        var carry: UInt64 = 0
        for i in 0..<(out.count - 1) {
            let x = i < a.limbs.count ? a.limbs[i] : 0
            let y = i < b.limbs.count ? b.limbs[i] : 0
            let (s1, o1) = x.addingReportingOverflow(y)
            let (s2, o2) = s1.addingReportingOverflow(carry)
            out[i] = s2
            carry = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        out[out.count - 1] = carry
        return WideAmount(limbs: out)
    }

    /// `a − b` for `a ≥ b` (a precondition: callers compare first).
    public static func - (a: WideAmount, b: WideAmount) -> WideAmount {
        precondition(a >= b, "WideAmount subtraction below zero")
        var out = a.limbs
        var borrow: UInt64 = 0
        for i in 0..<out.count {
            let y = i < b.limbs.count ? b.limbs[i] : 0
            let (d1, o1) = out[i].subtractingReportingOverflow(y)
            let (d2, o2) = d1.subtractingReportingOverflow(borrow)
            out[i] = d2
            borrow = (o1 ? 1 : 0) + (o2 ? 1 : 0)
        }
        return WideAmount(limbs: out)
    }

    public static func < (a: WideAmount, b: WideAmount) -> Bool {
        if a.limbs.count != b.limbs.count { return a.limbs.count < b.limbs.count }
        for i in stride(from: a.limbs.count - 1, through: 0, by: -1) where a.limbs[i] != b.limbs[i] {
            return a.limbs[i] < b.limbs[i]
        }
        return false
    }

    /// Decimal digits, as Go prints a `*big.Int`.
    public var description: String {
        guard !limbs.isEmpty else { return "0" }
        var rest = limbs
        var groups: [UInt64] = []
        let base: UInt64 = 10_000_000_000_000_000_000
        while !rest.isEmpty {
            var remainder: UInt64 = 0
            for i in stride(from: rest.count - 1, through: 0, by: -1) {
                let (q, r) = base.dividingFullWidth((remainder, rest[i]))
                rest[i] = q
                remainder = r
            }
            while let last = rest.last, last == 0 { rest.removeLast() }
            groups.append(remainder)
        }
        var text = String(groups.removeLast())
        for group in groups.reversed() {
            let digits = String(group)
            text += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }
}
