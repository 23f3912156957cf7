/// 𝔽p² = 𝔽p[u]/(u² + 1): the field G2's coordinates live in. `c0 + c1·u`.
public struct Fp2: Sendable, Hashable {
    public var c0: Fp
    public var c1: Fp

    public init(_ c0: Fp, _ c1: Fp) {
        self.c0 = c0
        self.c1 = c1
    }

    public static let zero = Fp2(.zero, .zero)
    public static let one = Fp2(.one, .zero)

    public var isZero: Bool { c0.isZero && c1.isZero }

    public static func + (lhs: Fp2, rhs: Fp2) -> Fp2 { Fp2(lhs.c0 + rhs.c0, lhs.c1 + rhs.c1) }
    public static func - (lhs: Fp2, rhs: Fp2) -> Fp2 { Fp2(lhs.c0 - rhs.c0, lhs.c1 - rhs.c1) }
    public static prefix func - (value: Fp2) -> Fp2 { Fp2(-value.c0, -value.c1) }

    /// Karatsuba: three 𝔽p multiplications.
    public static func * (lhs: Fp2, rhs: Fp2) -> Fp2 {
        let a = lhs.c0 * rhs.c0
        let b = lhs.c1 * rhs.c1
        let cross = (lhs.c0 + lhs.c1) * (rhs.c0 + rhs.c1)
        return Fp2(a - b, cross - a - b)
    }

    public var squared: Fp2 {
        // (c0 + c1·u)² = (c0 + c1)(c0 − c1) + 2·c0·c1·u
        let product = c0 * c1
        return Fp2((c0 + c1) * (c0 - c1), product + product)
    }

    public var doubled: Fp2 { self + self }

    /// The inverse through the norm: (c0 − c1·u)/(c0² + c1²); zero maps to zero.
    public var inverted: Fp2 {
        let normInverse = (c0.squared + c1.squared).inverted
        return Fp2(c0 * normInverse, -(c1 * normInverse))
    }

    /// ZCash's sign of a G2 y coordinate: from c1, or from c0 when c1 is zero.
    var isLexicographicallyLargest: Bool {
        c1.isZero ? c0.isLexicographicallyLargest : c1.isLexicographicallyLargest
    }
}
