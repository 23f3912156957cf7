import EthereumTypes

/// A signed amount of wei (or any integer quantity): sign and 256-bit magnitude. Balance changes are
/// negative, so assertions need the sign.
/// The ICP units amount expressions accept next to Ethereum's: `ICP` (10^8 e8s) and `e8s`.
enum ICPUnits {
    static func decimals(of unit: String) -> Int? {
        switch unit.lowercased() {
        case "icp": return 8
        case "e8s": return 0
        default: return nil
        }
    }
}

public struct SignedAmount: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Decimals of a unit name: Ethereum's (wei … ether) or ICP's (`ICP`, `e8s`).
    static func decimals(of unit: String) -> Int? { ICPUnits.decimals(of: unit) ?? Units.decimals(of: unit) }

    public var negative: Bool
    public var magnitude: UInt256

    public init(_ magnitude: UInt256, negative: Bool = false) {
        self.magnitude = magnitude
        self.negative = negative && !magnitude.isZero
    }

    public static let zero = SignedAmount(.zero)

    public static func < (a: SignedAmount, b: SignedAmount) -> Bool {
        switch (a.negative, b.negative) {
        case (true, false): return true
        case (false, true): return false
        case (false, false): return a.magnitude < b.magnitude
        case (true, true): return b.magnitude < a.magnitude
        }
    }

    /// Decimal wei, with the ether value when it is at least 0.000001 ether ("-1000 (-0.000000000000001 ether)").
    public var description: String {
        let sign = negative ? "-" : ""
        let wei = sign + magnitude.description
        guard magnitude >= UInt256(1_000_000_000_000 as UInt64) else { return wei }
        return "\(wei) (\(sign)\(Units.format(magnitude, decimals: 18)) ether)"
    }

    static func add(_ a: SignedAmount, _ b: SignedAmount) throws(ExpressionError) -> SignedAmount {
        if a.negative == b.negative {
            let (sum, overflow) = a.magnitude.addingReportingOverflow(b.magnitude)
            if overflow { throw ExpressionError("amount does not fit in 256 bits") }
            return SignedAmount(sum, negative: a.negative)
        }
        if a.magnitude >= b.magnitude { return SignedAmount(a.magnitude - b.magnitude, negative: a.negative) }
        return SignedAmount(b.magnitude - a.magnitude, negative: b.negative)
    }

    static func multiply(_ a: SignedAmount, _ b: SignedAmount) throws(ExpressionError) -> SignedAmount {
        let (product, overflow) = a.magnitude.multipliedReportingOverflow(by: b.magnitude)
        if overflow { throw ExpressionError("amount does not fit in 256 bits") }
        return SignedAmount(product, negative: a.negative != b.negative)
    }

    static func divide(_ a: SignedAmount, _ b: SignedAmount) throws(ExpressionError) -> SignedAmount {
        if b.magnitude.isZero { throw ExpressionError("division by zero") }
        return SignedAmount(a.magnitude / b.magnitude, negative: a.negative != b.negative)
    }

    /// Parses one literal: decimal (`1.5`, `1_000`) or `0x` hex, with an optional unit ("1.5 ether",
    /// "20 gwei"), as `${…}` values and YAML numbers arrive.
    public static func parse(_ text: String) throws(ExpressionError) -> SignedAmount {
        var trimmed = Substring(text.trimming(" \t"))
        var negative = false
        if trimmed.first == "-" {
            negative = true
            trimmed = trimmed.dropFirst()
        }
        if trimmed.hasPrefix("0x") || trimmed.hasPrefix("0X") {
            guard let value = UInt256(hexDigits: trimmed.dropFirst(2)), trimmed.count > 2 else {
                throw ExpressionError("'\(text)' is not a hex quantity")
            }
            return SignedAmount(value, negative: negative)
        }
        do {
            let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "_") }
            let unit = String(trimmed.dropFirst(number.count)).trimming(" \t")
            if let decimals = ICPUnits.decimals(of: String(unit)) {
                return SignedAmount(try Units.parse(number: String(number), decimals: decimals), negative: negative)
            }
            return SignedAmount(try Units.parse(String(trimmed)), negative: negative)
        } catch {
            throw ExpressionError("'\(text)' is not an amount: \(error)")
        }
    }
}

/// Why an expression could not be parsed or evaluated.
public struct ExpressionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// Offset in the expression text (parse errors only).
    public var offset: Int?

    public init(_ message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    public var description: String { message }
}

/// An amount expression such as `1 ether - 0.1 ether - fee(send1)` or `2 * baseFee() + ${tip}`: parsed
/// when the file is loaded, evaluated when the step runs.
///
/// Grammar: `expr := term (("+" | "-") term)*`, `term := factor (("*" | "/") factor)*`,
/// `factor := "-" factor | "(" expr ")" | number [unit] | name "(" [argument] ")" | "${" reference "}"`.
/// Units: wei, kwei, mwei, gwei, szabo, finney, ether (eth). Functions: see ``functions``.
public struct AmountExpression: Sendable {
    public indirect enum Term: Sendable {
        case literal(SignedAmount)
        case reference(String)
        case function(name: String, argument: String?)
        case negate(Term)
        case binary(Character, Term, Term)
    }

    /// Functions and whether they take an argument (a step id or an account name).
    public static let functions: [String: FunctionArgument] = [
        "fee": .step, "gasUsed": .step, "gasPrice": .step, "value": .step, "blockBaseFee": .step, "balance": .account,
        "baseFee": .none, "nextBaseFee": .none, "blockNumber": .none,
    ]

    public enum FunctionArgument: Sendable { case none, step, account }

    public var text: String
    public var term: Term
    public var location: SourceLocation

    /// Parses `text`; errors carry the offset of the problem.
    public init(parsing text: String, at location: SourceLocation) throws(ExpressionError) {
        var parser = ExpressionParser(Array(text.unicodeScalars))
        self.term = try parser.parseAll()
        self.text = text
        self.location = location
    }

    /// Every `${…}` reference and function call, for validation before the run.
    public var references: [String] { Self.collect(term).references }
    public var calls: [(name: String, argument: String?)] { Self.collect(term).calls }

    private static func collect(_ term: Term) -> (references: [String], calls: [(String, String?)]) {
        switch term {
        case .literal: return ([], [])
        case .reference(let r): return ([r], [])
        case .function(let name, let argument): return ([], [(name, argument)])
        case .negate(let inner): return collect(inner)
        case .binary(_, let a, let b):
            let (ra, ca) = collect(a)
            let (rb, cb) = collect(b)
            return (ra + rb, ca + cb)
        }
    }
}

/// Recursive descent over Unicode scalars.
struct ExpressionParser {
    let input: [Unicode.Scalar]
    var position = 0

    init(_ input: [Unicode.Scalar]) { self.input = input }

    mutating func parseAll() throws(ExpressionError) -> AmountExpression.Term {
        skipSpaces()
        guard position < input.count else { throw ExpressionError("empty expression", offset: 0) }
        let term = try parseSum()
        skipSpaces()
        if position < input.count {
            throw ExpressionError("unexpected '\(input[position])' (expected an operator + - * /)", offset: position)
        }
        return term
    }

    mutating func skipSpaces() {
        while position < input.count, input[position] == " " || input[position] == "\t" { position += 1 }
    }

    mutating func peek() -> Unicode.Scalar? {
        skipSpaces()
        return position < input.count ? input[position] : nil
    }

    mutating func parseSum() throws(ExpressionError) -> AmountExpression.Term {
        var left = try parseProduct()
        while let c = peek(), c == "+" || c == "-" {
            position += 1
            left = .binary(Character(c), left, try parseProduct())
        }
        return left
    }

    mutating func parseProduct() throws(ExpressionError) -> AmountExpression.Term {
        var left = try parseFactor()
        while let c = peek(), c == "*" || c == "/" || c == "×" {
            position += 1
            left = .binary(c == "/" ? "/" : "*", left, try parseFactor())
        }
        return left
    }

    mutating func parseFactor() throws(ExpressionError) -> AmountExpression.Term {
        guard let c = peek() else {
            throw ExpressionError("expression ends early (expected a value)", offset: position)
        }
        if c == "-" {
            position += 1
            return .negate(try parseFactor())
        }
        if c == "(" {
            position += 1
            let inner = try parseSum()
            guard peek() == ")" else { throw ExpressionError("missing ')'", offset: position) }
            position += 1
            return inner
        }
        if c == "$" {
            guard position + 1 < input.count, input[position + 1] == "{" else {
                throw ExpressionError("'$' must start a ${reference}", offset: position)
            }
            let start = position + 2
            var end = start
            while end < input.count, input[end] != "}" { end += 1 }
            guard end < input.count else { throw ExpressionError("missing '}'", offset: position) }
            position = end + 1
            return .reference(String(String.UnicodeScalarView(input[start..<end])))
        }
        if c.properties.numericType != nil, c.isASCII { return try parseNumber() }
        if c.properties.isAlphabetic { return try parseCall() }
        throw ExpressionError("unexpected '\(c)' (expected a number, a function or a ${reference})", offset: position)
    }

    mutating func word() -> String {
        let start = position
        while position < input.count, input[position].properties.isAlphabetic || input[position].isASCIIDigit {
            position += 1
        }
        return String(String.UnicodeScalarView(input[start..<position]))
    }

    mutating func parseNumber() throws(ExpressionError) -> AmountExpression.Term {
        let start = position
        if input[position] == "0", position + 1 < input.count, input[position + 1] == "x" || input[position + 1] == "X"
        {
            position += 2
            while position < input.count, input[position].properties.isASCIIHexDigit { position += 1 }
        } else {
            while position < input.count,
                input[position].isASCIIDigit || input[position] == "." || input[position] == "_"
            {
                position += 1
            }
        }
        let number = String(String.UnicodeScalarView(input[start..<position]))
        // An optional unit right after the number.
        let save = position
        skipSpaces()
        var unit = ""
        if position < input.count, input[position].properties.isAlphabetic {
            let unitStart = position
            let candidate = word()
            if SignedAmount.decimals(of: candidate) != nil && Int(candidate) == nil {
                unit = candidate
            } else if peek() == "(" {
                position = save
            } else {
                throw ExpressionError(
                    "unknown unit '\(candidate)' (use wei, kwei, mwei, gwei, szabo, finney, ether, or ICP and e8s)",
                    offset: unitStart
                )
            }
        } else {
            position = save
        }
        do {
            return .literal(try SignedAmount.parse(unit.isEmpty ? number : number + " " + unit))
        } catch {
            throw ExpressionError(error.message, offset: start)
        }
    }

    mutating func parseCall() throws(ExpressionError) -> AmountExpression.Term {
        let start = position
        let name = word()
        guard let kind = AmountExpression.functions[name] else {
            let known = AmountExpression.functions.keys.sorted().joined(separator: ", ")
            throw ExpressionError("unknown function '\(name)' (known: \(known))", offset: start)
        }
        guard peek() == "(" else { throw ExpressionError("expected '(' after \(name)", offset: position) }
        position += 1
        skipSpaces()
        let argumentStart = position
        let argument = word()
        guard peek() == ")" else { throw ExpressionError("expected ')' to close \(name)(", offset: position) }
        position += 1
        switch (kind, argument.isEmpty) {
        case (.none, false): throw ExpressionError("\(name)() takes no argument", offset: argumentStart)
        case (.step, true):
            throw ExpressionError("\(name)(…) needs a step id, as in \(name)(send1)", offset: argumentStart)
        case (.account, true): throw ExpressionError("\(name)(…) needs an account name", offset: argumentStart)
        default: break
        }
        return .function(name: name, argument: argument.isEmpty ? nil : argument)
    }
}

extension Unicode.Scalar {
    var isASCIIDigit: Bool { value >= 48 && value <= 57 }
}

extension String {
    func trimming(_ set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
