/// Parses one `.did` file into ``DIDFile`` (Candid spec, "Interface description"; the grammar of dfinity's
/// `candid_parser`): `import` / `import service`, type definitions, the main service (also the class form
/// `service : (init) -> { ... }`), doc comments, hex and decimal field ids. Record fields and variant tags are checked
/// for duplicate ids (hash collisions) here, as the spec requires; names are resolved by ``DIDProgram``.
public struct DIDParser {
    /// The deepest nesting of types accepted.
    public static let maximumDepth = 200
    /// The largest `.did` text accepted, in bytes.
    public static let maximumBytes = 4 << 20

    private var tokens: [DIDTokenizer.Token]
    private var index = 0
    private var depth = 0
    private let file: String

    private init(_ text: String, file: String) throws(CandidTextError) {
        self.file = file
        guard text.utf8.count <= Self.maximumBytes else {
            throw CandidTextError(
                at: DIDPosition(file: file),
                "the file is \(text.utf8.count) bytes, over the limit of \(Self.maximumBytes)")
        }
        self.tokens = try DIDTokenizer.tokenize(text, file: file)
    }

    /// Parses `.did` text.
    ///
    /// - Parameters:
    ///   - text: The file's contents.
    ///   - file: The name used in positions and errors.
    /// - Throws: `CandidTextError` with file, line and column.
    public static func parse(_ text: String, file: String = "") throws(CandidTextError) -> DIDFile {
        var parser = try DIDParser(text, file: file)
        return try parser.program()
    }

    // MARK: Tokens

    private var current: DIDTokenizer.Token { tokens[min(index, tokens.count - 1)] }

    private func position(of token: DIDTokenizer.Token) -> DIDPosition {
        DIDPosition(file: file, line: token.line, column: token.column, offset: token.start)
    }

    private func describe(_ token: DIDTokenizer.Token) -> String {
        switch token.kind {
        case .identifier(let name): return "'\(name)'"
        case .symbol(let symbol): return "'\(symbol)'"
        case .decimal(let digits), .float(let digits): return "number \(digits)"
        case .hex(let digits): return "number 0x\(digits)"
        case .bool(let value): return "'\(value)'"
        case .sign(let sign): return "'\(sign)'"
        case .text: return "a string"
        case .end: return "the end of the file"
        }
    }

    private func syntaxError(_ expected: String) -> CandidTextError {
        CandidTextError(
            at: position(of: current), "unexpected \(describe(current)), expected \(expected)",
            span: current.start..<current.end, syntax: true)
    }

    private func isSymbol(_ symbol: String, at offset: Int = 0) -> Bool {
        index + offset < tokens.count && tokens[index + offset].kind == .symbol(symbol)
    }

    private mutating func accept(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws(CandidTextError) {
        guard accept(symbol) else { throw syntaxError("'\(symbol)'") }
    }

    private mutating func nest() throws(CandidTextError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw CandidTextError(
                at: position(of: current), "types nested deeper than \(Self.maximumDepth)",
                span: current.start..<current.end, syntax: true)
        }
    }

    private mutating func text(_ what: String) throws(CandidTextError) -> String {
        guard case .text(let bytes) = current.kind else { throw syntaxError(what) }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw CandidTextError(
                at: position(of: current), "Not valid unicode text", span: current.start..<current.end, syntax: true)
        }
        index += 1
        return string
    }

    /// `Name`: an identifier or a string.
    private mutating func name(_ what: String) throws(CandidTextError) -> String? {
        switch current.kind {
        case .identifier(let name):
            index += 1
            return name
        case .text: return try text(what)
        default: return nil
        }
    }

    private mutating func fieldID() throws(CandidTextError) -> UInt32? {
        let token = current
        let value: UInt32?
        switch token.kind {
        case .decimal(let digits): value = UInt32(digits)
        case .hex(let digits): value = UInt32(digits, radix: 16)
        default: return nil
        }
        guard let value else {
            throw CandidTextError(
                at: position(of: token), "field id out of u32 range", span: token.start..<token.end, syntax: true)
        }
        index += 1
        return value
    }

    private func isFieldIDOrName(followedBy symbol: String) -> Bool {
        switch current.kind {
        case .decimal, .hex, .identifier, .text: return isSymbol(symbol, at: 1)
        default: return false
        }
    }

    // MARK: Program

    private mutating func program() throws(CandidTextError) -> DIDFile {
        var definitions: [DIDDefinition] = []
        var imports: [DIDImport] = []
        while true {
            let token = current
            if accept("type") {
                guard case .identifier(let name) = current.kind else { throw syntaxError("a type name") }
                let namePosition = position(of: current)
                index += 1
                try expect("=")
                let type = try self.type()
                definitions.append(DIDDefinition(name: name, type: type, docs: token.docs, position: namePosition))
            } else if accept("import") {
                let includesService = accept("service")
                let path = try text("the imported file's name in quotes")
                imports.append(DIDImport(path: path, includesService: includesService, position: position(of: token)))
            } else {
                break
            }
            if !accept(";") { break }
        }
        var actor: DIDActor?
        let token = current
        if accept("service") {
            if case .identifier = current.kind { index += 1 }
            try expect(":")
            var initArguments: [DIDArgument]?
            if isSymbol("(") {
                initArguments = try tuple()
                try expect("->")
            }
            let body: DIDType
            if isSymbol("{") {
                body = .service(try serviceBody())
            } else if case .identifier(let name) = current.kind {
                index += 1
                body = .name(name)
            } else {
                throw syntaxError("a service body { ... } or a type name")
            }
            _ = accept(";")
            actor = DIDActor(initArguments: initArguments, body: body, docs: token.docs, position: position(of: token))
        }
        guard current.kind == .end else {
            throw syntaxError(actor == nil ? "'type', 'import', 'service' or ';'" : "the end of the file")
        }
        return DIDFile(name: file, definitions: definitions, imports: imports, actor: actor)
    }

    // MARK: Types

    private mutating func type() throws(CandidTextError) -> DIDType {
        try nest()
        defer { depth -= 1 }
        let token = current
        switch token.kind {
        case .symbol("null"):
            index += 1
            return .primitive(.null)
        case .symbol("principal"):
            index += 1
            return .primitive(.principal)
        case .symbol("blob"):
            index += 1
            return .vec(.primitive(.nat8))
        case .symbol("opt"):
            index += 1
            return .opt(try type())
        case .symbol("vec"):
            index += 1
            return .vec(try type())
        case .symbol("record"):
            index += 1
            return .record(try fields(record: true))
        case .symbol("variant"):
            index += 1
            return .variant(try fields(record: false))
        case .symbol("func"):
            index += 1
            return .function(try function())
        case .symbol("service"):
            index += 1
            return .service(try serviceBody())
        case .identifier(let name):
            index += 1
            return Self.primitives[name].map(DIDType.primitive) ?? .name(name)
        default:
            throw syntaxError("a type")
        }
    }

    static let primitives: [String: CandidType] = [
        "nat": .nat, "nat8": .nat8, "nat16": .nat16, "nat32": .nat32, "nat64": .nat64, "int": .int, "int8": .int8,
        "int16": .int16, "int32": .int32, "int64": .int64, "float32": .float32, "float64": .float64, "bool": .bool,
        "text": .text, "reserved": .reserved, "empty": .empty,
    ]

    private mutating func fields(record: Bool) throws(CandidTextError) -> [DIDField] {
        try expect("{")
        let startToken = current
        let start = current.start
        var end = start
        var fields: [DIDField] = []
        var nextID: UInt32 = 0
        while !isSymbol("}") {
            let docs = current.docs
            var label: DIDLabel
            var type: DIDType
            if isFieldIDOrName(followedBy: ":") {
                if let id = try fieldID() {
                    label = .id(id)
                } else {
                    label = .named(try name("a field name") ?? "")
                }
                index += 1
                type = try self.type()
            } else if !record, let id = try fieldID() {
                label = .id(id)
                type = .primitive(.null)
            } else if !record, let name = try name("a tag name") {
                label = .named(name)
                type = .primitive(.null)
            } else {
                label = .unnamed(0)
                type = try self.type()
            }
            if case .unnamed = label {
                label = .unnamed(nextID)
            }
            nextID = label.id &+ 1
            fields.append(DIDField(label: label, type: type, docs: docs))
            end = tokens[index - 1].end
            if !accept(";") { break }
            end = tokens[index - 1].end
        }
        try expect("}")
        try Self.checkUnique(fields.map(\.label), span: start..<end, at: position(of: startToken))
        return fields
    }

    /// Candid spec: field ids within a record or variant must be unique (a collision of two names' hashes too).
    static func checkUnique(_ labels: [DIDLabel], span: Range<Int>, at position: DIDPosition) throws(CandidTextError) {
        let sorted = labels.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }
        for pair in zip(sorted, sorted.dropFirst()) where pair.0.element.id == pair.1.element.id {
            throw CandidTextError(
                at: position, "label '\(pair.1.element)' hash collision with '\(pair.0.element)'", span: span,
                syntax: true)
        }
    }

    private mutating func tuple() throws(CandidTextError) -> [DIDArgument] {
        try expect("(")
        let startToken = current
        let start = current.start
        var end = start
        var arguments: [DIDArgument] = []
        while !isSymbol(")") {
            var isNamed = false
            switch current.kind {
            case .identifier, .text: isNamed = isSymbol(":", at: 1)
            default: break
            }
            if isNamed {
                var name = try self.name("an argument name")
                index += 1
                if let candidate = name, UInt32(candidate) != nil { name = nil }
                arguments.append(DIDArgument(name: name, type: try type()))
            } else {
                arguments.append(DIDArgument(type: try type()))
            }
            end = tokens[index - 1].end
            if !accept(",") { break }
            end = tokens[index - 1].end
        }
        try expect(")")
        let names = arguments.compactMap(\.name).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for pair in zip(names, names.dropFirst()) where pair.0 == pair.1 {
            throw CandidTextError(
                at: position(of: startToken), "label '\(pair.1)' hash collision with '\(pair.0)'",
                span: start..<end, syntax: true)
        }
        return arguments
    }

    private mutating func function() throws(CandidTextError) -> DIDFunction {
        let arguments = try tuple()
        try expect("->")
        let results = try tuple()
        var modes: [CandidFunctionMode] = []
        while true {
            if accept("query") {
                modes.append(.query)
            } else if accept("oneway") {
                modes.append(.oneway)
            } else if accept("composite_query") {
                modes.append(.compositeQuery)
            } else {
                break
            }
        }
        return DIDFunction(arguments: arguments, results: results, modes: modes)
    }

    private mutating func serviceBody() throws(CandidTextError) -> [DIDMethod] {
        try expect("{")
        let startToken = current
        let start = current.start
        var end = start
        var methods: [DIDMethod] = []
        while !isSymbol("}") {
            let token = current
            guard let name = try name("a method name") else { throw syntaxError("a method name") }
            try expect(":")
            let type: DIDType
            if isSymbol("(") {
                type = .function(try function())
            } else if case .identifier(let reference) = current.kind {
                index += 1
                type = .name(reference)
            } else {
                throw syntaxError("a function type or a type name")
            }
            methods.append(DIDMethod(name: name, type: type, docs: token.docs, position: position(of: token)))
            end = tokens[index - 1].end
            if !accept(";") { break }
            end = tokens[index - 1].end
        }
        try expect("}")
        let names = methods.map(\.name).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        for pair in zip(names, names.dropFirst()) where pair.0 == pair.1 {
            throw CandidTextError(
                at: position(of: startToken), "label '\(pair.1)' hash collision with '\(pair.0)'",
                span: start..<end, syntax: true)
        }
        return methods
    }
}
