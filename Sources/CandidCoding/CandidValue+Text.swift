extension CandidValue {
    /// The value in Candid text syntax (Candid spec, "Values"); parsing it back at the same type gives an equal value.
    public var candidText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// An argument list in Candid text syntax: `(v1, v2)`.
    public static func argumentsText(_ values: [CandidValue]) -> String {
        "(" + values.map(\.candidText).joined(separator: ", ") + ")"
    }

    /// A string literal with Candid escapes.
    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7f {
                    output += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }

    /// A `blob "…"` literal in Candid text syntax: printable ASCII as is, every other byte as `\xx`.
    public static func blobLiteral(_ bytes: [UInt8]) -> String {
        var output = "blob \""
        let digits = Array("0123456789abcdef")
        for byte in bytes {
            if byte >= 0x20, byte < 0x7f, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                output += "\\"
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 15)])
            }
        }
        return output + "\""
    }

    static func floatText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return "\(value)"
    }

    private func write(to output: inout String) {
        switch self {
        case .null, .reserved: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .nat(let number): output += number.description
        case .int(let number): output += number.description
        case .nat8(let number): output += String(number)
        case .nat16(let number): output += String(number)
        case .nat32(let number): output += String(number)
        case .nat64(let number): output += String(number)
        case .int8(let number): output += String(number)
        case .int16(let number): output += String(number)
        case .int32(let number): output += String(number)
        case .int64(let number): output += String(number)
        case .float32(let number):
            output += number.isNaN || number.isInfinite ? Self.floatText(Double(number)) : "\(number)"
        case .float64(let number): output += Self.floatText(number)
        case .text(let text): output += Self.quoted(text)
        case .principal(let principal): output += "principal \(Self.quoted(principal.text))"
        case .service(let principal): output += "service \(Self.quoted(principal.text))"
        case .function(let reference):
            output += "func \(Self.quoted(reference.service.text)).\(CandidType.quotedNameIfNeeded(reference.method))"
        case .opt(.none): output += "null"
        case .opt(.some(let value)):
            output += "opt "
            value.write(to: &output)
        case .blob(let bytes): output += Self.blobLiteral(bytes)
        case .vec(let elements):
            if elements.isEmpty {
                output += "vec {}"
                return
            }
            output += "vec { "
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "; " }
                element.write(to: &output)
            }
            output += " }"
        case .record(let fields):
            if fields.isEmpty {
                output += "record {}"
                return
            }
            let isTuple = fields.enumerated().allSatisfy {
                $0.element.label.name == nil && $0.element.label.id == $0.offset
            }
            output += "record { "
            for (index, field) in fields.enumerated() {
                if index > 0 { output += "; " }
                if !isTuple { output += CandidType.labelText(field.label) + " = " }
                field.value.write(to: &output)
            }
            output += " }"
        case .variant(let field):
            output += "variant { " + CandidType.labelText(field.label)
            if field.value != .null {
                output += " = "
                field.value.write(to: &output)
            }
            output += " }"
        }
    }
}
