/// An arbitrary-precision natural number, the value space of the Candid `nat` type.
///
/// Candid spec, "Types/Primitive types": `nat` is an unbounded natural number, encoded as unsigned LEB128.
/// Values up to `UInt64.max` are stored inline; larger values keep their upper limbs in `high`.
public struct CandidNat: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The lowest 64 bits.
    @usableFromInline var low: UInt64
    /// Limbs above the lowest, little-endian, normalized (no trailing zero limb).
    @usableFromInline var high: [UInt64]

    /// Creates a natural number from a 64-bit value.
    @inlinable public init(_ value: UInt64) {
        self.low = value
        self.high = []
    }

    /// Creates a natural number from little-endian 64-bit limbs.
    public init(limbs: [UInt64]) {
        var limbs = limbs
        while limbs.count > 1, limbs.last == 0 { limbs.removeLast() }
        self.low = limbs.first ?? 0
        self.high = limbs.count > 1 ? Array(limbs[1...]) : []
    }

    /// The little-endian 64-bit limbs of the value (at least one).
    public var limbs: [UInt64] { [low] + high }

    /// The value as `UInt64` when it fits.
    public var uint64Value: UInt64? { high.isEmpty ? low : nil }

    /// Whether the value is zero.
    public var isZero: Bool { low == 0 && high.isEmpty }

    public static func < (lhs: CandidNat, rhs: CandidNat) -> Bool {
        if lhs.high.count != rhs.high.count { return lhs.high.count < rhs.high.count }
        var index = lhs.high.count - 1
        while index >= 0 {
            if lhs.high[index] != rhs.high[index] { return lhs.high[index] < rhs.high[index] }
            index -= 1
        }
        return lhs.low < rhs.low
    }

    // MARK: Arithmetic helpers on limbs

    mutating func multiplyAdd(_ multiplier: UInt64, _ addend: UInt64) {
        var limbs = self.limbs
        var carry = addend
        for index in limbs.indices {
            let product = limbs[index].multipliedFullWidth(by: multiplier)
            let (sum, overflow) = product.low.addingReportingOverflow(carry)
            limbs[index] = sum
            carry = product.high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { limbs.append(carry) }
        self = CandidNat(limbs: limbs)
    }

    /// Divides in place by a small divisor and returns the remainder.
    mutating func divide(by divisor: UInt64) -> UInt64 {
        var limbs = self.limbs
        var remainder: UInt64 = 0
        var index = limbs.count - 1
        while index >= 0 {
            let (quotient, rest) = divisor.dividingFullWidth((high: remainder, low: limbs[index]))
            limbs[index] = quotient
            remainder = rest
            index -= 1
        }
        self = CandidNat(limbs: limbs)
        return remainder
    }

    /// Adds one.
    func incremented() -> CandidNat {
        var limbs = self.limbs
        for index in limbs.indices {
            let (sum, overflow) = limbs[index].addingReportingOverflow(1)
            limbs[index] = sum
            if !overflow { return CandidNat(limbs: limbs) }
        }
        limbs.append(1)
        return CandidNat(limbs: limbs)
    }

    /// Subtracts one; `self` must not be zero.
    func decremented() -> CandidNat {
        var limbs = self.limbs
        for index in limbs.indices {
            let (difference, borrow) = limbs[index].subtractingReportingOverflow(1)
            limbs[index] = difference
            if !borrow { break }
        }
        return CandidNat(limbs: limbs)
    }

    /// The 7 bits at `7 * group` and above.
    func sevenBits(atGroup group: Int) -> UInt8 {
        let bit = group * 7
        let limbIndex = bit / 64
        let shift = bit % 64
        let all = limbs
        guard limbIndex < all.count else { return 0 }
        var value = all[limbIndex] >> UInt64(shift)
        if shift > 57, limbIndex + 1 < all.count {
            value |= all[limbIndex + 1] << UInt64(64 - shift)
        }
        return UInt8(truncatingIfNeeded: value & 0x7f)
    }

    /// Number of significant bits.
    var bitWidth: Int {
        if high.isEmpty { return 64 - low.leadingZeroBitCount }
        return high.count * 64 + 64 - (high.last ?? 0).leadingZeroBitCount
    }

    // MARK: Decimal text

    /// Parses decimal digits, allowing `_` separators (Candid text syntax).
    public init?(decimal text: Substring) {
        var value = CandidNat(0)
        var sawDigit = false
        for character in text.utf8 {
            if character == UInt8(ascii: "_") { continue }
            guard character >= 0x30, character <= 0x39 else { return nil }
            sawDigit = true
            value.multiplyAdd(10, UInt64(character - 0x30))
        }
        guard sawDigit else { return nil }
        self = value
    }

    /// Parses hexadecimal digits (without `0x`), allowing `_` separators.
    public init?(hexadecimal text: Substring) {
        var value = CandidNat(0)
        var sawDigit = false
        for character in text.utf8 {
            if character == UInt8(ascii: "_") { continue }
            guard let digit = hexDigitValue(character) else { return nil }
            sawDigit = true
            value.multiplyAdd(16, UInt64(digit))
        }
        guard sawDigit else { return nil }
        self = value
    }

    /// Decimal representation.
    public var description: String {
        if high.isEmpty { return String(low) }
        var value = self
        var chunks: [UInt64] = []
        let base: UInt64 = 10_000_000_000_000_000_000
        while !value.isZero { chunks.append(value.divide(by: base)) }
        var text = String(chunks.last ?? 0)
        for chunk in chunks.dropLast().reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }
}

@inline(__always)
func hexDigitValue(_ character: UInt8) -> UInt8? {
    switch character {
    case 0x30...0x39: return character - 0x30
    case 0x41...0x46: return character - 0x41 + 10
    case 0x61...0x66: return character - 0x61 + 10
    default: return nil
    }
}

extension CandidNat: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: UInt64) { self.init(value) }
}
