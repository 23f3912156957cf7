/// A JSON value whose object keys keep the order they were given in, for output people read.
public indirect enum OrderedJSON: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, already rendered (integers only in this module).
    case number(String)
    case string(String)
    case array([OrderedJSON])
    case object([Member])

    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: OrderedJSON
        public init(_ key: String, _ value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> OrderedJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// Renders the value; `indent` > 0 pretty-prints with that many spaces per level.
    public func rendered(indent: Int = 2) -> String {
        var out = ""
        render(into: &out, indent: indent, level: 0)
        return out
    }

    private func render(into out: inout String, indent: Int, level: Int) {
        let newline = indent > 0 ? "\n" : ""
        let pad = String(repeating: " ", count: indent * (level + 1))
        let closePad = String(repeating: " ", count: indent * level)
        let separator = indent > 0 ? ": " : ":"
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): Self.quote(s, into: &out)
        case .array(let items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "[" + newline
            for (i, item) in items.enumerated() {
                out += pad
                item.render(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < items.count ? "," : "") + newline
            }
            out += closePad + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{" + newline
            for (i, member) in members.enumerated() {
                out += pad
                Self.quote(member.key, into: &out)
                out += separator
                member.value.render(into: &out, indent: indent, level: level + 1)
                out += (i + 1 < members.count ? "," : "") + newline
            }
            out += closePad + "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
