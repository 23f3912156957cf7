/// Prints `.did` syntax the way dfinity's Candid tools do (`candid_parser::pretty_print`): 80 columns, two-space
/// indent, fields sorted by id, methods by name, doc comments kept.
enum DIDPrinter {
    static let width = 80
    static let indent = 2

    static let keywords: Set<String> = [
        "import", "service", "func", "type", "opt", "vec", "record", "variant", "blob", "principal", "nat", "nat8",
        "nat16", "nat32", "nat64", "int", "int8", "int16", "int32", "int64", "float32", "float64", "bool", "text",
        "null", "reserved", "empty", "oneway", "query", "composite_query",
    ]

    /// A type on its own, laid out to 80 columns.
    static func text(_ type: DIDType) -> String { document(type).rendered(width: width) }

    /// A whole program: definitions, then the main service.
    static func text(definitions: [DIDDefinition], actor: DIDActor?, sortMethods: Bool) -> String {
        var document = PrettyDocument.concatenation(
            definitions.map { definition in
                docs(definition.docs).appending(keyword("type")).appending(keyword(definition.name))
                    .appending(keyword("=")).appending(self.document(definition.type)).appending(";")
                    .appending(.hardline)
            })
        if let actor {
            let body: PrettyDocument
            if let initArguments = actor.initArguments {
                body = arguments(initArguments).appending(" ->").appending(.space)
                    .appending(serviceBody(actor.body, sortMethods: sortMethods))
            } else {
                body = serviceBody(actor.body, sortMethods: sortMethods)
            }
            document = document.appending(docs(actor.docs)).appending(keyword("service :")).appending(body)
        }
        return document.rendered(width: width)
    }

    private static func serviceBody(_ body: DIDType, sortMethods: Bool) -> PrettyDocument {
        if case .service(let methods) = body { return self.methods(methods, sort: sortMethods) }
        return document(body)
    }

    // MARK: Names

    static func isIdentifier(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first else { return false }
        func letter(_ byte: UInt8) -> Bool { (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) }
        guard letter(first) || first == 0x5f else { return false }
        return bytes.allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5f }
    }

    /// A method, field or argument name: bare when it is an identifier and not a keyword, else quoted.
    static func name(_ name: String) -> String {
        isIdentifier(name) && !keywords.contains(name) ? name : quoted(name)
    }

    /// `"…"` with Rust's `escape_debug` (quotes, backslashes, control and unprintable characters escaped).
    static func quoted(_ text: String) -> String { "\"" + escaped(text, singleQuote: true) + "\"" }

    /// Rust's `{:?}` of a string (single quotes left as they are).
    static func debugQuoted(_ text: String) -> String { "\"" + escaped(text, singleQuote: false) + "\"" }

    private static func escaped(_ text: String, singleQuote: Bool) -> String {
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "'" where singleQuote: out += "\\'"
            case "\0": out += "\\0"
            default:
                let printable: Bool
                if scalar.value < 0x80 {
                    printable = scalar.value >= 0x20 && scalar.value < 0x7f
                } else if index == 0, scalar.properties.isGraphemeExtend {
                    printable = false
                } else {
                    switch scalar.properties.generalCategory {
                    case .control, .format, .privateUse, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator:
                        printable = false
                    default: printable = true
                    }
                }
                if printable {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                }
            }
        }
        return out
    }

    // MARK: Documents

    private static func keyword(_ text: String) -> PrettyDocument { PrettyDocument.text(text).appending(.space) }

    private static func docs(_ lines: [String]) -> PrettyDocument {
        .concatenation(lines.map { PrettyDocument.text("// ").appending($0).appending(.hardline) })
    }

    private static func enclose(_ left: String, _ body: PrettyDocument, _ right: String, space: Bool) -> PrettyDocument
    {
        if body.isEmpty { return PrettyDocument.text(left).appending(right) }
        let line = space ? PrettyDocument.line : PrettyDocument.lineOrNothing
        return PrettyDocument.text(left).appending(line).appending(body).nested(indent).appending(line)
            .appending(right).grouped()
    }

    /// Items separated by `separator`; when broken over lines, the last one gets a separator too.
    private static func concat(_ items: [PrettyDocument], _ separator: String) -> PrettyDocument {
        guard !items.isEmpty else { return .empty }
        let singleLine = PrettyDocument.interspersed(items, PrettyDocument.text(separator).appending(.line))
        return .flatAlternative(singleLine.appending(separator), singleLine)
    }

    static func sortedFields(_ fields: [DIDField]) -> [DIDField] {
        fields.enumerated().sorted { ($0.element.label.id, $0.offset) < ($1.element.label.id, $1.offset) }
            .map(\.element)
    }

    static func sortedMethods(_ methods: [DIDMethod]) -> [DIDMethod] {
        methods.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    static func document(_ type: DIDType) -> PrettyDocument {
        switch type {
        case .primitive(let primitive): return .text(primitive.candidText)
        case .name(let name): return .text(name)
        case .opt(let inner): return keyword("opt").appending(document(inner))
        case .vec(.primitive(.nat8)): return .text("blob")
        case .vec(let inner): return keyword("vec").appending(document(inner))
        case .record(let fields):
            let sorted = sortedFields(fields)
            if type.isTuple {
                return keyword("record").appending(
                    enclose("{", concat(sorted.map { document($0.type) }, ";"), "}", space: true))
            }
            return keyword("record").appending(self.fields(sorted, variant: false))
        case .variant(let fields):
            return keyword("variant").appending(self.fields(sortedFields(fields), variant: true))
        case .function(let function): return keyword("func").appending(self.function(function))
        case .service(let methods): return keyword("service").appending(self.methods(methods, sort: true))
        }
    }

    private static func fields(_ fields: [DIDField], variant: Bool) -> PrettyDocument {
        let items = fields.map { field -> PrettyDocument in
            let label: PrettyDocument
            switch field.label {
            case .named(let name): label = .text(self.name(name))
            case .id, .unnamed: label = .text(field.label.description)
            }
            let type =
                variant && field.type == .primitive(.null)
                ? PrettyDocument.empty : keyword(" :").appending(document(field.type))
            return docs(field.docs).appending(label).appending(type)
        }
        return enclose("{", concat(items, ";"), "}", space: true)
    }

    private static func arguments(_ arguments: [DIDArgument]) -> PrettyDocument {
        let items = arguments.map { argument -> PrettyDocument in
            guard let name = argument.name else { return document(argument.type) }
            return PrettyDocument.text(self.name(name)).appending(keyword(" :")).appending(document(argument.type))
        }
        return enclose("(", concat(items, ","), ")", space: false)
    }

    private static func function(_ function: DIDFunction) -> PrettyDocument {
        let modes = PrettyDocument.concatenation(function.modes.map { PrettyDocument.space.appending($0.keyword) })
        return arguments(function.arguments).appending(" ->").appending(.space)
            .appending(arguments(function.results).appending(modes)).nested(indent)
    }

    private static func methods(_ methods: [DIDMethod], sort: Bool) -> PrettyDocument {
        let items = (sort ? sortedMethods(methods) : methods).map { method -> PrettyDocument in
            let type: PrettyDocument
            if case .function(let function) = method.type {
                type = self.function(function)
            } else {
                type = document(method.type)
            }
            return docs(method.docs).appending(name(method.name)).appending(keyword(" :")).appending(type)
        }
        return enclose("{", concat(items, ";"), "}", space: true)
    }
}
