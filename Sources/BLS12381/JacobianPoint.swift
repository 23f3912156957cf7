/// What point arithmetic needs of a coordinate field (𝔽p for G1, 𝔽p² for G2).
public protocol CurveField: Sendable, Equatable {
    static var zero: Self { get }
    static var one: Self { get }
    var isZero: Bool { get }
    var squared: Self { get }
    var doubled: Self { get }
    var inverted: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static prefix func - (value: Self) -> Self
}

extension Fp: CurveField {}
extension Fp2: CurveField {}

/// A point on y² = x³ + b (BLS12-381's curves have a = 0) in Jacobian coordinates: (X/Z², Y/Z³); Z = 0 is the
/// point at infinity. Formulas: dbl-2009-l and add-2007-bl from the Explicit-Formulas Database.
public struct JacobianPoint<Field: CurveField>: Sendable {
    public var x: Field
    public var y: Field
    public var z: Field

    public init(x: Field, y: Field, z: Field) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The affine point (x, y).
    public init(x: Field, y: Field) { self.init(x: x, y: y, z: .one) }

    public static var infinity: JacobianPoint { JacobianPoint(x: .one, y: .one, z: .zero) }

    public var isInfinity: Bool { z.isZero }

    public var doubled: JacobianPoint {
        guard !isInfinity else { return self }
        let a = x.squared
        let b = y.squared
        let c = b.squared
        let d = ((x + b).squared - a - c).doubled
        let e = a.doubled + a
        let f = e.squared
        let x3 = f - d.doubled
        let y3 = e * (d - x3) - c.doubled.doubled.doubled
        let z3 = (y * z).doubled
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    public static func + (lhs: JacobianPoint, rhs: JacobianPoint) -> JacobianPoint {
        if lhs.isInfinity { return rhs }
        if rhs.isInfinity { return lhs }
        let z1z1 = lhs.z.squared
        let z2z2 = rhs.z.squared
        let u1 = lhs.x * z2z2
        let u2 = rhs.x * z1z1
        let s1 = lhs.y * rhs.z * z2z2
        let s2 = rhs.y * lhs.z * z1z1
        let h = u2 - u1
        let r = (s2 - s1).doubled
        if h.isZero { return r.isZero ? lhs.doubled : .infinity }
        let i = h.doubled.squared
        let j = h * i
        let v = u1 * i
        let x3 = r.squared - j - v.doubled
        let y3 = r * (v - x3) - (s1 * j).doubled
        let z3 = ((lhs.z + rhs.z).squared - z1z1 - z2z2) * h
        return JacobianPoint(x: x3, y: y3, z: z3)
    }

    public static prefix func - (point: JacobianPoint) -> JacobianPoint {
        JacobianPoint(x: point.x, y: -point.y, z: point.z)
    }

    /// scalar · self, the scalar as little-endian 64-bit words (double-and-add; not constant-time).
    public func multiplied(by scalar: [UInt64]) -> JacobianPoint {
        var result = JacobianPoint.infinity
        for word in scalar.reversed() {
            for bit in stride(from: 63, through: 0, by: -1) {
                result = result.doubled
                if (word >> UInt64(bit)) & 1 == 1 { result = result + self }
            }
        }
        return result
    }

    /// (x, y) with Z = 1, or nil at infinity.
    public var affine: (x: Field, y: Field)? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverted
        let zInverse2 = zInverse.squared
        return (x * zInverse2, y * zInverse2 * zInverse)
    }

    /// Whether the point satisfies y² = x³ + b (the point at infinity does).
    public func isOnCurve(b: Field) -> Bool {
        guard let (x, y) = affine else { return true }
        return y.squared == x.squared * x + b
    }
}

extension JacobianPoint: Equatable {
    /// Projective equality: the same affine point.
    public static func == (lhs: JacobianPoint, rhs: JacobianPoint) -> Bool {
        if lhs.isInfinity || rhs.isInfinity { return lhs.isInfinity && rhs.isInfinity }
        let z1z1 = lhs.z.squared
        let z2z2 = rhs.z.squared
        return lhs.x * z2z2 == rhs.x * z1z1 && lhs.y * rhs.z * z2z2 == rhs.y * lhs.z * z1z1
    }
}

/// A point of E(𝔽p): y² = x³ + 4, where signatures live.
public typealias G1Point = JacobianPoint<Fp>
/// A point of E′(𝔽p²): y² = x³ + 4(1 + u), where public keys live.
public typealias G2Point = JacobianPoint<Fp2>

extension JacobianPoint where Field == Fp {
    public static var curveB: Fp { g1CurveB }

    /// The standard generator of G1.
    public static var generator: G1Point { g1Generator }
}

private let g1CurveB = Fp(4)
private let g1Generator = G1Point(
    x: Fp(
        hex: "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
    y: Fp(
        hex: "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"))

extension JacobianPoint where Field == Fp {
    /// The ZCash compressed form: 48 bytes of x, big-endian, with bit 7 of byte 0 set (compressed), bit 6 set at
    /// infinity, bit 5 set when y is the larger of ±y.
    public var compressed: [UInt8] {
        guard let (x, y) = affine else { return [0xc0] + [UInt8](repeating: 0, count: 47) }
        var bytes = x.bigEndianBytes
        bytes[0] |= 0x80 | (y.isLexicographicallyLargest ? 0x20 : 0)
        return bytes
    }
}

extension JacobianPoint where Field == Fp2 {
    public static var curveB: Fp2 { g2CurveB }

    /// The standard generator of G2.
    public static var generator: G2Point { g2Generator }
}

private let g2CurveB = Fp2(Fp(4), Fp(4))
private let g2Generator = G2Point(
    x: Fp2(
        Fp(hex: "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
        Fp(hex: "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")),
    y: Fp2(
        Fp(hex: "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
        Fp(hex: "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")))

extension JacobianPoint where Field == Fp2 {
    /// The ZCash compressed form: x.c1 ‖ x.c0 (96 bytes), flags in byte 0 as for G1, the sign taken from y.c1
    /// (from y.c0 when y.c1 = 0).
    public var compressed: [UInt8] {
        guard let (x, y) = affine else { return [0xc0] + [UInt8](repeating: 0, count: 95) }
        var bytes = x.c1.bigEndianBytes + x.c0.bigEndianBytes
        bytes[0] |= 0x80 | (y.isLexicographicallyLargest ? 0x20 : 0)
        return bytes
    }
}
