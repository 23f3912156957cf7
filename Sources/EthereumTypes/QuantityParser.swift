/// Durations and amounts as people write them in command-line flags and scenario files ("24h", "1h30m", "90s",
/// "1.5 ether", "0.5" ICP), parsed with every step checked: a value out of range is a ``QuantityError`` naming the
/// limit, never an arithmetic trap. The one parser `sandnet` and the scenario runner share.
public enum QuantityParser {
    /// The longest duration accepted anywhere: 100 years of 365.25 days (3,155,760,000 s). A clock plus this many
    /// seconds, and this many seconds in nanoseconds, both still fit in 64 bits.
    public static let maxDurationSeconds: UInt64 = 3_155_760_000

    /// Seconds per duration unit.
    static let unitSeconds: [Character: UInt64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]

    /// Parses a duration: plain seconds ("90"), or numbers with units s, m, h, d in any combination ("30m", "24h",
    /// "2d", "1h30m").
    ///
    /// - Parameter limit: the largest value accepted, in seconds (at most ``maxDurationSeconds``).
    /// - Throws: ``QuantityError/invalidDuration(_:)`` for anything else, ``QuantityError/durationTooLong(_:limit:)``
    ///   above `limit`.
    public static func seconds(_ text: String, limit: UInt64 = maxDurationSeconds) throws(QuantityError) -> UInt64 {
        let limit = min(limit, maxDurationSeconds)
        let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        guard !trimmed.isEmpty else { throw .invalidDuration(text) }
        var total: UInt64 = 0
        var digits = ""
        func add(_ number: String, _ factor: UInt64) throws(QuantityError) {
            guard !number.isEmpty, number.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw .invalidDuration(text)
            }
            // A number too long for 64 bits is over the limit too (it has only digits).
            guard let n = UInt64(number) else { throw .durationTooLong(text, limit: limit) }
            let (product, o1) = n.multipliedReportingOverflow(by: factor)
            let (sum, o2) = total.addingReportingOverflow(product)
            guard !o1, !o2, sum <= limit else { throw .durationTooLong(text, limit: limit) }
            total = sum
        }
        for c in trimmed {
            if c.isASCII, c.isNumber {
                digits.append(c)
            } else if let factor = unitSeconds[c] {
                try add(digits, factor)
                digits = ""
            } else {
                throw .invalidDuration(text)
            }
        }
        if !digits.isEmpty { try add(digits, 1) }
        return total
    }

    /// Parses an amount with an optional unit ("1.5 ether", "20 gwei", "100" in `defaultUnit`) into base units
    /// (wei), through ``Units/parse(_:defaultUnit:)``.
    ///
    /// - Throws: ``QuantityError/invalidAmount(_:_:)``; an amount above 2^256−1 names that limit.
    public static func amount(_ text: String, defaultUnit: String = "wei") throws(QuantityError) -> UInt256 {
        do {
            return try Units.parse(text, defaultUnit: defaultUnit)
        } catch {
            throw .invalidAmount(text, error)
        }
    }

    /// Parses a plain decimal number of whole units with at most `decimals` decimal places ("100", "0.5") into base
    /// units (10^-decimals), at most `limit`.
    ///
    /// - Throws: ``QuantityError/invalidAmount(_:_:)`` or ``QuantityError/amountTooLarge(_:limit:)``.
    public static func amount(_ text: String, decimals: Int, limit: UInt256) throws(QuantityError) -> UInt256 {
        let value: UInt256
        do {
            value = try Units.parse(number: text, decimals: decimals)
        } catch .overflow {
            throw .amountTooLarge(text, limit: limitText(limit, decimals: decimals))
        } catch {
            throw .invalidAmount(text, error)
        }
        guard value <= limit else { throw .amountTooLarge(text, limit: limitText(limit, decimals: decimals)) }
        return value
    }

    /// `whole` × 10^`decimals` (whole tokens in base units), or nil when that exceeds 2^256−1.
    public static func baseUnits(whole: UInt64, decimals: Int) -> UInt256? {
        guard (0...77).contains(decimals) else { return whole == 0 ? .zero : nil }
        let (value, overflow) = UInt256(whole).multipliedReportingOverflow(by: Units.powerOfTen(decimals))
        return overflow ? nil : value
    }

    static func limitText(_ limit: UInt256, decimals: Int) -> String {
        decimals == 0 ? limit.description : Units.format(limit, decimals: decimals)
    }
}

/// Why a duration or an amount from outside (a flag, a file) was refused; the message names the limit.
public enum QuantityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a duration at all.
    case invalidDuration(String)
    /// A duration longer than `limit` seconds.
    case durationTooLong(String, limit: UInt64)
    /// Not an amount (the reason from ``Units``; its overflow case is the 2^256−1 limit).
    case invalidAmount(String, Units.ParseError)
    /// An amount above `limit` (in whole units, as written).
    case amountTooLarge(String, limit: String)

    public var description: String {
        switch self {
        case .invalidDuration(let text):
            return "invalid duration '\(text)' (use e.g. 24h, 30m, 90s, 1h30m or plain seconds)"
        case .durationTooLong(let text, let limit):
            let years = limit == QuantityParser.maxDurationSeconds ? " (100 years)" : ""
            return "duration '\(text)' is longer than the limit of \(limit) seconds\(years)"
        case .invalidAmount(let text, .overflow):
            return "amount '\(text)' is larger than the limit of 2^256-1 base units"
        case .invalidAmount(let text, let reason):
            return "invalid amount '\(text)': \(reason)"
        case .amountTooLarge(let text, let limit):
            return "amount '\(text)' is larger than the limit of \(limit)"
        }
    }
}
