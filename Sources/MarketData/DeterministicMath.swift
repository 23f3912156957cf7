import SeededRandom

/// The elementary functions the price paths need, built from IEEE-754 basic operations only (+, −, ×, ÷ and
/// `squareRoot()`, each correctly rounded by the standard), exact power-of-two scaling and integer arithmetic: no
/// libm, whose `exp` and `log` differ in the last bits between glibc and Apple's libm. Swift does not contract
/// `a * b + c` into a fused multiply-add (it emits no fast-math flags), so every platform computes the same bits and
/// a seed gives the same series on Linux and macOS (checked by the committed values in `MarketPathTests`).
public enum DeterministicMath {
    // Cody–Waite split of ln 2 (fdlibm's constants): k·ln2Hi is exact for |k| < 2^11.
    static let ln2Hi = 6.93147180369123816490e-01
    static let ln2Lo = 1.90821492927058770002e-10
    static let log2e = 1.44269504088896338700e+00
    static let sqrtHalf = 0.70710678118654752440

    /// e^x: x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor series to degree 14 in Horner form (truncation
    /// below 1e-17 relative), then scaled by 2^k exactly.
    public static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.78 { return .infinity }
        if x < -745.2 { return 0 }
        let k = (x * log2e).rounded(.toNearestOrEven)
        let r = (x - k * ln2Hi) - k * ln2Lo
        var s = 1.0
        for n in stride(from: 14, through: 1, by: -1) { s = 1 + s * r / Double(n) }
        return scaled(s, by: Int(k))
    }

    /// The natural logarithm of a positive finite x: x = m·2^e with m in [√½, √2), ln m = 2·atanh(t),
    /// t = (m − 1)/(m + 1) (|t| ≤ 0.1716), by its odd series to t^29; NaN for x ≤ 0 or NaN, +∞ for +∞.
    public static func log(_ x: Double) -> Double {
        guard x > 0 else { return x == 0 ? -.infinity : .nan }
        guard x.isFinite else { return x }
        var e = Int(x.exponent)
        var m = x.significand  // [1, 2), exact
        if m > 2 * sqrtHalf {
            m = m / 2
            e += 1
        }
        let t = (m - 1) / (m + 1)
        let t2 = t * t
        var series = 0.0
        for n in stride(from: 29, through: 3, by: -2) { series = (series + 1 / Double(n)) * t2 }
        let lnM = 2 * t + 2 * t * series
        let k = Double(e)
        return k * ln2Hi + (k * ln2Lo + lnM)
    }

    /// x·2^k, exactly (by steps that keep every intermediate normal).
    static func scaled(_ x: Double, by k: Int) -> Double {
        var result = x
        var k = k
        while k > 1_000 {
            result = result * 0x1.0p1000
            k -= 1_000
        }
        while k < -1_000 {
            result = result * 0x1.0p-1000
            k += 1_000
        }
        return result * Double(sign: .plus, exponent: k, significand: 1)
    }

    /// A standard normal draw by Marsaglia's polar method (exact in distribution, unlike the bounded Irwin–Hall
    /// approximation of ``SplitMix64/normal()``), with this file's `log` and IEEE `squareRoot()`.
    public static func normal(_ random: inout SplitMix64) -> Double {
        while true {
            let u = 2 * random.unit() - 1
            let v = 2 * random.unit() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 { return u * (-2 * log(s) / s).squareRoot() }
        }
    }

    /// A Poisson draw of mean `mean` (Knuth's product of uniforms; for the small means of jump counts, below 30).
    public static func poisson(_ mean: Double, _ random: inout SplitMix64) -> Int {
        guard mean > 0 else { return 0 }
        let limit = exp(-min(mean, 30))
        var count = 0
        var product = random.unit()
        while product > limit {
            count += 1
            product *= random.unit()
        }
        return count
    }

    /// Mixes `value` into `key` (SplitMix64's finaliser): the key of one node, block or stream of a path.
    static func mix(_ key: UInt64, _ value: UInt64) -> UInt64 {
        var z = (key ^ (value &* 0x9E37_79B9_7F4A_7C15)) &+ 0x632B_E59B_D9B4_E019
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
