/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): a
/// 64-bit state, one addition and three xor-shift-multiplies per draw. The same seed gives the same sequence on
/// every platform, so a schedule built on it replays exactly.
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A generator for one named stream of `seed` (the same seed, another name: an unrelated sequence).
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    /// A uniform double in [0, 1) from the top 53 bits (exact on every platform: no libm).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// True with probability `p` (p ≤ 0: never; p ≥ 1: always, and no draw is skipped either way).
    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A uniform integer in `range` (Lemire's nearly-divisionless method through the standard library).
    public mutating func integer(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// An approximately standard normal draw: the Irwin–Hall sum of four uniforms, centred and scaled to unit
    /// variance (bounded at ±3.46; arithmetic only, so identical on every platform).
    public mutating func normal() -> Double {
        let sum = unit() + unit() + unit() + unit()
        return (sum - 2) * 1.7320508075688772  // sqrt(12 / 4)
    }
}

/// 2^x with IEEE-754 basic operations only (no libm), so that every platform computes the same bits:
/// 2^⌊x⌋ by exponent scaling, 2^f for f in [0, 1) by a degree-7 Taylor polynomial of e^(f·ln 2) (relative error
/// below 1e-7, far inside any statistical tolerance here).
public func exp2Exact(_ x: Double) -> Double {
    guard x.isFinite else { return x > 0 ? .infinity : 0 }
    let clamped = min(max(x, -1_000), 1_000)
    let whole = clamped.rounded(.down)
    let f = (clamped - whole) * 0.6931471805599453
    var term = 1.0
    var sum = 1.0
    for n in 1...7 {
        term = term * f / Double(n)
        sum += term
    }
    return Double(sign: .plus, exponent: Int(whole), significand: sum)
}
