import EthereumTypes
import Foundation
import JSONCoding
import JSONRPC
import Yams

/// Typed reads of a Yams node tree that fail with the node's file:line:column and what was expected.
struct YAMLReader {
    let file: String

    /// One `key: value` pair of a mapping, with both nodes for positions.
    struct Entry {
        var key: String
        var keyNode: Node
        var value: Node
    }

    func location(_ node: Node) -> SourceLocation {
        let mark = node.mark
        return SourceLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func error(_ message: String, at node: Node) -> ScenarioFormatError {
        ScenarioFormatError(message, at: location(node))
    }

    static func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let s): return s.string.isEmpty ? "an empty value" : "the value '\(s.string)'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// The pairs of a mapping, in file order. Keys must be strings and unique.
    func mapping(_ node: Node, _ what: String) throws(ScenarioFormatError) -> [Entry] {
        guard case .mapping(let mapping) = node else {
            throw error("expected a mapping (key: value) for \(what), found \(Self.describe(node))", at: node)
        }
        var seen: Set<String> = []
        var entries: [Entry] = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode else {
                throw error("expected a plain key in \(what), found \(Self.describe(keyNode))", at: keyNode)
            }
            guard seen.insert(scalar.string).inserted else {
                throw error("duplicate key '\(scalar.string)' in \(what)", at: keyNode)
            }
            entries.append(Entry(key: scalar.string, keyNode: keyNode, value: value))
        }
        return entries
    }

    /// Fails on the first key not in `allowed`, suggesting the closest allowed one.
    func allow(_ entries: [Entry], _ allowed: [String], in what: String) throws(ScenarioFormatError) {
        for entry in entries where !allowed.contains(entry.key) {
            var message = "unknown key '\(entry.key)' in \(what)"
            if let guess = Self.closest(entry.key, in: allowed) { message += " (did you mean '\(guess)'?)" }
            message += "; expected one of: " + allowed.joined(separator: ", ")
            throw error(message, at: entry.keyNode)
        }
    }

    func required(_ entries: [Entry], _ key: String, in what: String, at node: Node) throws(ScenarioFormatError) -> Node
    {
        guard let entry = entries.first(where: { $0.key == key }) else {
            throw error("\(what) needs '\(key)'", at: node)
        }
        return entry.value
    }

    func scalar(_ node: Node, _ what: String) throws(ScenarioFormatError) -> String {
        guard case .scalar(let s) = node else {
            throw error("expected a value for \(what), found \(Self.describe(node))", at: node)
        }
        return s.string
    }

    func identifier(_ node: Node, _ what: String) throws(ScenarioFormatError) -> String {
        let text = try scalar(node, what)
        guard Self.isIdentifier(text) else {
            throw error("expected a name for \(what) (letters, digits, _), found '\(text)'", at: node)
        }
        return text
    }

    func bool(_ node: Node, _ what: String) throws(ScenarioFormatError) -> Bool {
        switch try scalar(node, what).lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false for \(what), found \(Self.describe(node))", at: node)
        }
    }

    func unsigned(_ node: Node, _ what: String, range: ClosedRange<UInt64> = 0...UInt64.max) throws(ScenarioFormatError)
        -> UInt64
    {
        let text = try scalar(node, what).replacingOccurrences(of: "_", with: "")
        guard let value = UInt64(text), range.contains(value) else {
            let bounds =
                range.upperBound == .max
                ? "a whole number ≥ \(range.lowerBound)"
                : "a whole number from \(range.lowerBound) to \(range.upperBound)"
            throw error("expected \(bounds) for \(what), found \(Self.describe(node))", at: node)
        }
        return value
    }

    func template(_ node: Node, _ what: String) throws(ScenarioFormatError) -> Template {
        Template(try scalar(node, what), at: location(node))
    }

    /// Parses an amount expression; a syntax error points at the offending column when the scalar is on one
    /// line.
    func expression(_ node: Node, _ what: String) throws(ScenarioFormatError) -> AmountExpression {
        let text = try scalar(node, what)
        let start = location(node)
        do {
            return try AmountExpression(parsing: text, at: start)
        } catch {
            var at = start
            if let offset = error.offset, !text.contains("\n") {
                let quoted: Bool
                if case .scalar(let s) = node {
                    quoted = s.style == .singleQuoted || s.style == .doubleQuoted
                } else {
                    quoted = false
                }
                at.column += offset + (quoted ? 1 : 0)
            }
            throw ScenarioFormatError("invalid amount for \(what): \(error.message)", at: at)
        }
    }

    /// An amount with no references or functions ("1 ether", "0.5 gwei + 1 wei"), folded now.
    func literalAmount(_ node: Node, _ what: String) throws(ScenarioFormatError) -> UInt256 {
        let parsed = try expression(node, what)
        func fold(_ term: AmountExpression.Term) throws(ExpressionError) -> SignedAmount {
            switch term {
            case .literal(let v): return v
            case .negate(let inner):
                let v = try fold(inner)
                return SignedAmount(v.magnitude, negative: !v.negative)
            case .binary(let op, let a, let b):
                let l = try fold(a)
                let r = try fold(b)
                switch op {
                case "+": return try SignedAmount.add(l, r)
                case "-": return try SignedAmount.add(l, SignedAmount(r.magnitude, negative: !r.negative))
                case "*": return try SignedAmount.multiply(l, r)
                default: return try SignedAmount.divide(l, r)
                }
            case .reference, .function:
                throw ExpressionError("node settings take plain amounts, without ${…} or functions")
            }
        }
        let value: SignedAmount
        do {
            value = try fold(parsed.term)
        } catch {
            throw self.error("invalid amount for \(what): \(error.message)", at: node)
        }
        if value.negative { throw self.error("invalid amount for \(what): must not be negative", at: node) }
        return value.magnitude
    }

    /// A duration: seconds, or numbers with s, m, h or d ("90s", "30m", "24h", "2d", "1h30m"), at most
    /// ``QuantityParser/maxDurationSeconds`` (the parser `sandnet`'s flags use too).
    func duration(_ node: Node, _ what: String) throws(ScenarioFormatError) -> UInt64 {
        let text = try scalar(node, what).trimming(" ")
        do throws(QuantityError) {
            return try QuantityParser.seconds(text)
        } catch .invalidDuration {
            throw error(
                "expected a duration for \(what) (seconds, or 90s, 30m, 24h, 2d, 1h30m), found \(Self.describe(node))",
                at: node)
        } catch {
            throw self.error("\(what): \(error)", at: node)
        }
    }

    /// The node as JSON: plain integers and booleans as JSON numbers and booleans, everything else as strings.
    func json(_ node: Node) throws(ScenarioFormatError) -> JSON {
        switch node {
        case .scalar(let s):
            if s.style == .plain {
                if let b = node.bool, ["true", "false"].contains(s.string) { return .bool(b) }
                if s.string.allSatisfy(\.isNumber), !s.string.isEmpty, s.string.allSatisfy(\.isASCII) {
                    return .number(s.string)
                }
                if s.string == "null" || s.string == "~" { return .null }
            }
            return .string(s.string)
        case .sequence(let items):
            var out: [JSON] = []
            for item in items { out.append(try json(item)) }
            return .array(out)
        case .mapping:
            var members: [(String, JSON)] = []
            for entry in try mapping(node, "typed data") { members.append((entry.key, try json(entry.value))) }
            return .object(members)
        case .alias:
            throw error("aliases are not supported here", at: node)
        }
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.isASCIIDigit || $0 == "_" || $0 == "-"
        }
    }

    /// The allowed key at edit distance ≤ 2, if any.
    static func closest(_ key: String, in allowed: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for i in 1...max(a.count, 1) where !a.isEmpty {
                var previous = row[0]
                row[0] = i
                for j in stride(from: 1, through: b.count, by: 1) {
                    let saved = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
                    previous = saved
                }
            }
            return row[b.count]
        }
        let lowered = Array(key.lowercased())
        let scored = allowed.map { ($0, distance(lowered, Array($0.lowercased()))) }.filter { $0.1 <= 2 }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0 }
        // A shortened or lengthened name (`maxPriorityFee` for `maxPriorityFeePerGas`): the closest key that starts
        // with it, or that it starts with, if the shared part is at least 4 characters.
        let lower = key.lowercased()
        guard lower.count >= 4 else { return nil }
        let prefixed = allowed.filter {
            let other = $0.lowercased()
            return other.count >= 4 && (other.hasPrefix(lower) || lower.hasPrefix(other))
        }
        return prefixed.min { abs($0.count - key.count) < abs($1.count - key.count) }
    }

    /// Whether `text` is a block for JSON-RPC as the runner writes it: a tag, a decimal number or a `0x` quantity.
    static func isBlockSelector(_ text: String) -> Bool {
        if ["latest", "pending", "earliest", "safe", "finalized"].contains(text) { return true }
        if text.hasPrefix("0x") { return text.count > 2 && text.dropFirst(2).allSatisfy(\.isHexDigit) }
        return UInt64(text) != nil
    }

    static let blockSelectorHelp = "a number, 0x quantity, latest, pending, earliest, safe or finalized"

    /// A block selector; checked now when it holds no `${…}`.
    func blockSelector(_ node: Node, _ what: String) throws(ScenarioFormatError) -> Template {
        let template = try self.template(node, what)
        if template.references.isEmpty && !Self.isBlockSelector(template.text) {
            throw error("'\(template.text)' is not a block for \(what) (\(Self.blockSelectorHelp))", at: node)
        }
        return template
    }
}
