import Foundation

extension JSONValue {
    /// Parses one JSON document (an adapter's response line).
    ///
    /// - Throws: `DecodingError` when the text is not JSON.
    public static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Compact, valid JSON text (RFC 8259): strings escaped, object keys sorted, numbers as written.
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let a):
            out += "["
            for (index, element) in a.enumerated() {
                if index > 0 { out += "," }
                element.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (index, key) in o.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, into: &out)
                out += ":"
                o[key]!.write(into: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// A JSON integer.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    /// The value of a JSON number or decimal string, when it is a whole number in `UInt64`.
    public var uint64: UInt64? {
        switch self {
        case .number(let n), .string(let n): return UInt64(n)
        default: return nil
        }
    }
}
