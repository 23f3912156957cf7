/// Parses Candid text: argument lists, values, types and `.did` files (Candid spec, "Textual representation" and
/// "Interface description").
public struct CandidTextParser {
    private var tokens: [CandidLexer.Token]
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 200

    /// Creates a parser over a text.
    ///
    /// - Throws: `CandidTextError` for a lexical error (bad escape, unterminated string or comment).
    public init(_ text: String) throws(CandidTextError) {
        self.tokens = try CandidLexer.tokenize(text)
    }

    // MARK: Entry points

    /// Parses a complete argument list such as `(42 : nat, "x", opt record { a = 1 })`.
    public static func parseArguments(_ text: String) throws(CandidTextError) -> [CandidTextValue] {
        var parser = try CandidTextParser(text)
        let values = try parser.arguments()
        try parser.expectEnd()
        return values
    }

    /// Parses an argument type list such as `(nat, text)`; a single type without parentheses is accepted too.
    public static func parseArgumentTypes(_ text: String) throws(CandidTextError) -> [CandidType] {
        var parser = try CandidTextParser(text)
        let types: [CandidType]
        if parser.isSymbol("(") {
            types = try parser.typeTuple().map(\.type)
        } else {
            types = [try parser.type()]
        }
        try parser.expectEnd()
        return types
    }

    /// Parses a single type.
    public static func parseType(_ text: String) throws(CandidTextError) -> CandidType {
        var parser = try CandidTextParser(text)
        let type = try parser.type()
        try parser.expectEnd()
        return type
    }

    /// Parses and checks a `.did` file (imports are not followed): type definitions and an optional service.
    public static func parseInterface(_ text: String) throws(CandidTextError) -> CandidInterface {
        try DIDProgram(parsing: text).interface
    }

    // MARK: Token helpers

    private var current: CandidLexer.Token { tokens[min(index, tokens.count - 1)] }

    private func error(_ message: String) -> CandidTextError {
        CandidTextError(line: current.line, column: current.column, message)
    }

    private func describe(_ token: CandidLexer.Token) -> String {
        switch token.kind {
        case .identifier(let name): return "'\(name)'"
        case .number(let text): return "number \(text)"
        case .string: return "string literal"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "end of input"
        }
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }
    private func isKeyword(_ keyword: String) -> Bool { current.kind == .identifier(keyword) }

    private mutating func expect(_ symbol: String) throws(CandidTextError) {
        guard isSymbol(symbol) else { throw error("expected '\(symbol)' but found \(describe(current))") }
        index += 1
    }

    private mutating func accept(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        index += 1
        return true
    }

    private mutating func acceptKeyword(_ keyword: String) -> Bool {
        guard isKeyword(keyword) else { return false }
        index += 1
        return true
    }

    mutating func expectEnd() throws(CandidTextError) {
        guard current.kind == .end else { throw error("unexpected \(describe(current)) after the end") }
    }

    private mutating func identifier(_ what: String) throws(CandidTextError) -> String {
        guard case .identifier(let name) = current.kind else {
            throw error("expected \(what) but found \(describe(current))")
        }
        index += 1
        return name
    }

    private mutating func stringLiteral(_ what: String) throws(CandidTextError) -> [UInt8] {
        guard case .string(let bytes) = current.kind else {
            throw error("expected \(what) but found \(describe(current))")
        }
        index += 1
        return bytes
    }

    private mutating func textLiteral(_ what: String) throws(CandidTextError) -> String {
        let position = current
        let bytes = try stringLiteral(what)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CandidTextError(line: position.line, column: position.column, "\(what) is not valid UTF-8")
        }
        return text
    }

    private mutating func nest() throws(CandidTextError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    }

    // MARK: Values

    mutating func arguments() throws(CandidTextError) -> [CandidTextValue] {
        try expect("(")
        var values: [CandidTextValue] = []
        while !isSymbol(")") {
            values.append(try annotatedValue())
            if !accept(",") { break }
        }
        try expect(")")
        return values
    }

    private mutating func annotatedValue() throws(CandidTextError) -> CandidTextValue {
        let value = try self.value()
        if accept(":") { return .annotated(value, try type()) }
        return value
    }

    mutating func value() throws(CandidTextError) -> CandidTextValue {
        try nest()
        defer { depth -= 1 }
        let token = current
        switch token.kind {
        case .number(let text):
            index += 1
            return .number(text)
        case .string:
            return .text(try textLiteral("text"))
        case .symbol("("):
            index += 1
            let inner = try annotatedValue()
            try expect(")")
            return inner
        case .symbol("-"), .symbol("+"):
            throw error("expected a value but found \(describe(token))")
        case .identifier(let keyword):
            index += 1
            switch keyword {
            case "null": return .null
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "nan", "inf": return .number(keyword)
            case "opt": return .opt(try value())
            case "blob": return .blob(try stringLiteral("blob literal"))
            case "principal": return .principal(try textLiteral("principal text"))
            case "service": return .service(try textLiteral("service principal text"))
            case "func":
                let service = try textLiteral("function service principal")
                try expect(".")
                let method: String
                if case .string = current.kind {
                    method = try textLiteral("method name")
                } else {
                    method = try identifier("method name")
                }
                return .function(service: service, method: method)
            case "vec":
                try expect("{")
                var elements: [CandidTextValue] = []
                while !isSymbol("}") {
                    elements.append(try annotatedValue())
                    if !accept(";") { break }
                }
                try expect("}")
                return .vec(elements)
            case "record":
                try expect("{")
                var fields: [(label: CandidLabel?, value: CandidTextValue)] = []
                while !isSymbol("}") {
                    let label = try optionalLabel(followedBy: "=")
                    fields.append((label, try annotatedValue()))
                    if !accept(";") { break }
                }
                try expect("}")
                return .record(fields)
            case "variant":
                try expect("{")
                var found = try optionalLabel(followedBy: "=")
                if found == nil { found = try bareLabel() }
                guard let label = found else { throw error("variant needs exactly one tag") }
                var payload = CandidTextValue.null
                if tokens[index - 1].kind == .symbol("=") { payload = try annotatedValue() }
                _ = accept(";")
                try expect("}")
                return .variant(label, payload)
            default:
                throw CandidTextError(line: token.line, column: token.column, "unexpected '\(keyword)' in a value")
            }
        default:
            throw error("expected a value but found \(describe(token))")
        }
    }

    /// A label followed by `separator` (consumed), or nil without consuming anything.
    private mutating func optionalLabel(followedBy separator: String) throws(CandidTextError) -> CandidLabel? {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .symbol(separator) else { return nil }
        let label = try bareLabel()
        index += 1
        return label
    }

    /// A label: identifier, number or string; nil when the current token is none of these.
    private mutating func bareLabel() throws(CandidTextError) -> CandidLabel? {
        switch current.kind {
        case .identifier(let name):
            index += 1
            return CandidLabel(name)
        case .number(let text):
            guard let id = UInt32(text.filter { $0 != "_" }) else { throw error("field id \(text) is not a u32") }
            index += 1
            return CandidLabel(id: id)
        case .string:
            return CandidLabel(try textLiteral("field name"))
        default:
            return nil
        }
    }

    // MARK: Types

    mutating func type() throws(CandidTextError) -> CandidType {
        try nest()
        defer { depth -= 1 }
        let token = current
        let keyword = try identifier("a type")
        switch keyword {
        case "null": return .null
        case "bool": return .bool
        case "nat": return .nat
        case "int": return .int
        case "nat8": return .nat8
        case "nat16": return .nat16
        case "nat32": return .nat32
        case "nat64": return .nat64
        case "int8": return .int8
        case "int16": return .int16
        case "int32": return .int32
        case "int64": return .int64
        case "float32": return .float32
        case "float64": return .float64
        case "text": return .text
        case "reserved": return .reserved
        case "empty": return .empty
        case "principal": return .principal
        case "blob": return .blob
        case "opt": return .opt(try type())
        case "vec": return .vec(try type())
        case "record":
            return .record(try fieldTypes(record: true))
        case "variant":
            return .variant(try fieldTypes(record: false))
        case "func":
            return .function(try functionType())
        case "service":
            return .service(try serviceBody())
        default:
            _ = token
            return .named(keyword)
        }
    }

    private mutating func fieldTypes(record: Bool) throws(CandidTextError) -> [CandidFieldType] {
        try expect("{")
        var fields: [CandidFieldType] = []
        var nextId: UInt32 = 0
        while !isSymbol("}") {
            let position = current
            if let label = try optionalLabel(followedBy: ":") {
                fields.append(CandidFieldType(label, try type()))
                nextId = label.id &+ 1
            } else if !record, let label = try bareLabel() {
                fields.append(CandidFieldType(label, .null))
                nextId = label.id &+ 1
            } else {
                fields.append(CandidFieldType(CandidLabel(id: nextId), try type()))
                nextId &+= 1
            }
            let ids = fields.map(\.label.id)
            if Set(ids).count != ids.count {
                throw CandidTextError(
                    line: position.line, column: position.column, "duplicate field id \(ids.last ?? 0)")
            }
            if !accept(";") { break }
        }
        try expect("}")
        return fields
    }

    private mutating func typeTuple() throws(CandidTextError) -> [(name: String?, type: CandidType)] {
        try expect("(")
        var types: [(name: String?, type: CandidType)] = []
        while !isSymbol(")") {
            var name: String?
            if index + 1 < tokens.count, tokens[index + 1].kind == .symbol(":") {
                switch current.kind {
                case .identifier(let identifier): name = identifier
                case .string:
                    name = try textLiteral("argument name")
                    index -= 1
                default: throw error("expected an argument name")
                }
                index += 2
            }
            types.append((name, try type()))
            if !accept(",") { break }
        }
        try expect(")")
        return types
    }

    mutating func functionType() throws(CandidTextError) -> CandidFunctionType {
        let arguments = try typeTuple()
        try expect("->")
        let results = try typeTuple()
        var modes: [CandidFunctionMode] = []
        while true {
            if acceptKeyword("query") {
                modes.append(.query)
            } else if acceptKeyword("oneway") {
                modes.append(.oneway)
            } else if acceptKeyword("composite_query") {
                modes.append(.compositeQuery)
            } else {
                break
            }
        }
        return CandidFunctionType(
            arguments: arguments.map(\.type), results: results.map(\.type), modes: modes,
            argumentNames: arguments.map(\.name), resultNames: results.map(\.name))
    }

    private mutating func serviceBody() throws(CandidTextError) -> CandidServiceType {
        try expect("{")
        var methods: [CandidMethod] = []
        while !isSymbol("}") {
            let position = current
            let name: String
            if case .string = current.kind {
                name = try textLiteral("method name")
            } else {
                name = try identifier("a method name")
            }
            try expect(":")
            let type: CandidType
            if isSymbol("(") {
                type = .function(try functionType())
            } else {
                type = .named(try identifier("a function type name"))
            }
            if methods.contains(where: { $0.name == name }) {
                throw CandidTextError(line: position.line, column: position.column, "duplicate method \(name)")
            }
            methods.append(CandidMethod(name: name, type: type))
            if !accept(";") { break }
        }
        try expect("}")
        return CandidServiceType(methods: methods)
    }
}
