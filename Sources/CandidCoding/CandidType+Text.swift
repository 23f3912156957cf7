extension CandidType {
    static let keywords: Set<String> = [
        "null", "bool", "nat", "int", "nat8", "nat16", "nat32", "nat64", "int8", "int16", "int32", "int64",
        "float32", "float64", "text", "reserved", "empty", "principal", "blob", "opt", "vec", "record", "variant",
        "func", "service", "type", "import", "query", "oneway", "composite_query", "true", "false",
    ]

    /// A name as written in Candid text: bare when it is an identifier and not a keyword, else quoted.
    static func quotedNameIfNeeded(_ name: String) -> String {
        let bytes = Array(name.utf8)
        let isIdentifier =
            !bytes.isEmpty
            && bytes.allSatisfy {
                ($0 >= 0x41 && $0 <= 0x5a) || ($0 >= 0x61 && $0 <= 0x7a) || $0 == 0x5f || ($0 >= 0x30 && $0 <= 0x39)
            } && !(bytes[0] >= 0x30 && bytes[0] <= 0x39)
        return isIdentifier && !keywords.contains(name) ? name : CandidValue.quoted(name)
    }

    static func labelText(_ label: CandidLabel) -> String {
        label.name.map(quotedNameIfNeeded) ?? String(label.id)
    }

    /// The type in Candid text syntax (Candid spec, "Types").
    public var candidText: String {
        if let primitive = primitiveText { return primitive }
        switch self {
        case .opt(let inner): return "opt \(inner.candidText)"
        case .vec(.nat8): return "blob"
        case .vec(let inner): return "vec \(inner.candidText)"
        case .record(let fields):
            let sorted = fields.sorted { $0.label.id < $1.label.id }
            let isTuple = sorted.enumerated().allSatisfy {
                $0.element.label.name == nil && $0.element.label.id == $0.offset
            }
            if sorted.isEmpty { return "record {}" }
            let body = sorted.map {
                isTuple ? $0.type.candidText : "\(Self.labelText($0.label)) : \($0.type.candidText)"
            }
            return "record { \(body.joined(separator: "; ")) }"
        case .variant(let fields):
            if fields.isEmpty { return "variant {}" }
            let body = fields.sorted { $0.label.id < $1.label.id }.map { field in
                field.type == .null
                    ? Self.labelText(field.label) : "\(Self.labelText(field.label)) : \(field.type.candidText)"
            }
            return "variant { \(body.joined(separator: "; ")) }"
        case .function(let function): return "func \(function.candidText)"
        case .service(let service): return "service \(service.candidText)"
        case .named(let name): return name
        default: return "?"
        }
    }

    /// A method type as written in a service body: a function signature or a type name.
    var candidMethodText: String {
        if case .function(let function) = self { return function.candidText }
        return candidText
    }

    private var primitiveText: String? {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .nat: return "nat"
        case .int: return "int"
        case .nat8: return "nat8"
        case .nat16: return "nat16"
        case .nat32: return "nat32"
        case .nat64: return "nat64"
        case .int8: return "int8"
        case .int16: return "int16"
        case .int32: return "int32"
        case .int64: return "int64"
        case .float32: return "float32"
        case .float64: return "float64"
        case .text: return "text"
        case .reserved: return "reserved"
        case .empty: return "empty"
        case .principal: return "principal"
        default: return nil
        }
    }
}

extension CandidFunctionType {
    /// The signature in Candid text syntax: `(args) -> (results) modes`.
    public var candidText: String {
        func list(_ types: [CandidType], _ names: [String?]) -> String {
            types.enumerated().map { index, type in
                let name = index < names.count ? names[index] : nil
                return name.map { "\(CandidType.quotedNameIfNeeded($0)) : \(type.candidText)" } ?? type.candidText
            }.joined(separator: ", ")
        }
        var text = "(\(list(arguments, argumentNames))) -> (\(list(results, resultNames)))"
        for mode in modes { text += " \(mode.keyword)" }
        return text
    }
}

extension CandidServiceType {
    /// The service body in Candid text syntax.
    public var candidText: String {
        if methods.isEmpty { return "{}" }
        let body = methods.map { "\(CandidType.quotedNameIfNeeded($0.name)) : \($0.type.candidMethodText)" }
        return "{ \(body.joined(separator: "; ")) }"
    }
}
