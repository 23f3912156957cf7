/// Exact conversion between decimal amounts with units ("1.5 ether", "20 gwei") and integer wei.
/// Never floating point.
public enum Units {
    /// Errors from ``Units/parse(_:defaultUnit:)``.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case unknownUnit(String)
        case invalidNumber(String)
        case tooManyDecimals(allowed: Int)
        case overflow

        public var description: String {
            switch self {
            case .empty: return "empty amount"
            case .unknownUnit(let u):
                return "unknown unit '\(u)' (use wei, kwei, mwei, gwei, szabo, finney, ether, or a number of decimals)"
            case .invalidNumber(let s): return "'\(s)' is not a decimal number"
            case .tooManyDecimals(let n): return "more than \(n) decimal places for this unit"
            case .overflow: return "amount does not fit in 256 bits"
            }
        }
    }

    /// Named units and their decimal exponents.
    public static let named: [(name: String, decimals: Int)] = [
        ("wei", 0), ("kwei", 3), ("mwei", 6), ("gwei", 9), ("szabo", 12), ("finney", 15), ("ether", 18),
    ]

    /// Decimal exponent for a unit name (case-insensitive; also "eth"), or a plain number of decimals.
    public static func decimals(of unit: String) -> Int? {
        let u = unit.lowercased()
        if u == "eth" { return 18 }
        if let match = named.first(where: { $0.name == u }) { return match.decimals }
        if let n = Int(u), (0...77).contains(n) { return n }
        return nil
    }

    /// 10^n as UInt256: the one power-of-ten helper of the package.
    /// - Precondition: 0 ≤ n ≤ 77 (10^78 exceeds 2^256 − 1); callers check values from outside first.
    public static func powerOfTen(_ n: Int) -> UInt256 {
        precondition(n >= 0 && n < powersOfTen.count, "10^\(n) is outside 10^0...10^77")
        return powersOfTen[n]
    }

    private static let powersOfTen: [UInt256] = {
        var table = [UInt256(1)]
        for _ in 1...77 { table.append(table[table.count - 1] * 10) }
        return table
    }()

    /// Parses "1.5 ether", "1.5ether", "20 gwei", "100" (in `defaultUnit`) into wei.
    public static func parse(_ text: String, defaultUnit: String = "wei") throws(ParseError) -> UInt256 {
        let trimmed = text.trimmingSpaces()
        guard !trimmed.isEmpty else { throw .empty }
        let numberPart = String(trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "_") })
        let unitPart = String(trimmed.dropFirst(numberPart.count)).trimmingSpaces()
        let unit = unitPart.isEmpty ? defaultUnit : unitPart
        guard let decimals = decimals(of: unit) else { throw .unknownUnit(unit) }
        return try parse(number: numberPart, decimals: decimals)
    }

    /// Parses a plain decimal number scaled by 10^decimals.
    public static func parse(number: String, decimals: Int) throws(ParseError) -> UInt256 {
        let cleaned = number.replacingUnderscores()
        let parts = cleaned.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, !cleaned.isEmpty, cleaned != "." else { throw .invalidNumber(number) }
        let whole = parts[0].isEmpty ? "0" : String(parts[0])
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard whole.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), fraction.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 })
        else { throw .invalidNumber(number) }
        var significantFraction = fraction
        while significantFraction.hasSuffix("0") { significantFraction.removeLast() }
        guard significantFraction.count <= decimals else { throw .tooManyDecimals(allowed: decimals) }
        let digits = whole + significantFraction + String(repeating: "0", count: decimals - significantFraction.count)
        guard let value = UInt256(decimal: digits) else { throw .overflow }
        return value
    }

    /// Formats wei in the given unit, exact, trailing zeros trimmed ("1.5", "0.000000001", "3").
    public static func format(_ wei: UInt256, decimals: Int) -> String {
        guard decimals > 0 else { return wei.description }
        let (whole, fraction) = wei.quotientAndRemainder(dividingBy: powerOfTen(decimals))
        if fraction.isZero { return whole.description }
        var fractionDigits = fraction.description
        fractionDigits = String(repeating: "0", count: decimals - fractionDigits.count) + fractionDigits
        while fractionDigits.hasSuffix("0") { fractionDigits.removeLast() }
        return whole.description + "." + fractionDigits
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return String(s)
    }

    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
