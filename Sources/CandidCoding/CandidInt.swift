/// An arbitrary-precision integer, the value space of the Candid `int` type.
///
/// Candid spec, "Types/Primitive types": `int` is an unbounded integer, encoded as signed LEB128.
/// Stored as sign and magnitude; zero is never negative.
public struct CandidInt: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whether the value is below zero.
    public private(set) var isNegative: Bool
    /// The absolute value.
    public private(set) var magnitude: CandidNat

    /// Creates an integer from sign and magnitude.
    public init(isNegative: Bool, magnitude: CandidNat) {
        self.isNegative = isNegative && !magnitude.isZero
        self.magnitude = magnitude
    }

    /// Creates an integer from a natural number.
    public init(_ nat: CandidNat) {
        self.init(isNegative: false, magnitude: nat)
    }

    /// Creates an integer from a 64-bit signed value.
    public init(_ value: Int64) {
        self.init(isNegative: value < 0, magnitude: CandidNat(value.magnitude))
    }

    /// The value as `Int64` when it fits.
    public var int64Value: Int64? {
        guard let magnitude = magnitude.uint64Value else { return nil }
        if isNegative {
            if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// The value as a natural number when it is not negative.
    public var natValue: CandidNat? { isNegative ? nil : magnitude }

    public static func < (lhs: CandidInt, rhs: CandidInt) -> Bool {
        switch (lhs.isNegative, rhs.isNegative) {
        case (true, false): return true
        case (false, true): return false
        case (false, false): return lhs.magnitude < rhs.magnitude
        case (true, true): return rhs.magnitude < lhs.magnitude
        }
    }

    /// Parses an optionally signed decimal number with `_` separators.
    public init?(decimal text: Substring) {
        var body = text
        var negative = false
        if body.first == "-" {
            negative = true
            body = body.dropFirst()
        } else if body.first == "+" {
            body = body.dropFirst()
        }
        guard let magnitude = CandidNat(decimal: body) else { return nil }
        self.init(isNegative: negative, magnitude: magnitude)
    }

    /// Decimal representation with a leading `-` for negative values.
    public var description: String { (isNegative ? "-" : "") + magnitude.description }
}

extension CandidInt: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self.init(value) }
}
