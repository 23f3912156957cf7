extension CandidTextValue {
    /// Checks text values against argument types and converts them (Candid spec, "Values": the expected type
    /// decides how number literals are read; missing trailing `null`, `opt` and `reserved` arguments are `null`).
    ///
    /// Annotations `(v : T)` inside a value are ignored when an expected type is given.
    /// - Throws: `CandidTextError` (line 1) describing the first mismatch.
    public static func typed(_ values: [CandidTextValue], as types: CandidArgumentTypes) throws(CandidTextError)
        -> [CandidValue]
    {
        var result: [CandidValue] = []
        for (index, ref) in types.arguments.enumerated() {
            if index < values.count {
                result.append(try values[index].typed(ref, in: types.table, path: "argument \(index)"))
            } else if types.table.acceptsNull(ref) {
                result.append(types.table.nullValue(ref))
            } else {
                throw CandidTextError(line: 1, column: 1, "missing argument \(index)")
            }
        }
        return result
    }

    private func failure(_ path: String, _ message: String) -> CandidTextError {
        CandidTextError(line: 1, column: 1, "\(path): \(message)")
    }

    func typed(_ ref: Int32, in table: CandidTypeTable, path: String) throws(CandidTextError) -> CandidValue {
        if case .annotated(let inner, _) = self { return try inner.typed(ref, in: table, path: path) }
        if ref == CandidTypeTable.reserved { return .reserved }
        if ref < 0 { return try typedPrimitive(ref, path) }
        switch table.nodes[Int(ref)] {
        case .opt(let inner):
            switch self {
            case .null: return .opt(nil)
            case .opt(let value): return .opt(try value.typed(inner, in: table, path: path + " / opt"))
            default: return .opt(try typed(inner, in: table, path: path + " / opt"))
            }
        case .vec(let inner):
            switch self {
            case .blob(let bytes) where inner == CandidTypeTable.nat8: return .blob(bytes)
            case .vec(let elements):
                var values: [CandidValue] = []
                for (index, element) in elements.enumerated() {
                    values.append(try element.typed(inner, in: table, path: path + " / [\(index)]"))
                }
                if inner == CandidTypeTable.nat8 {
                    return .blob(values.map { if case .nat8(let byte) = $0 { return byte } else { return 0 } })
                }
                return .vec(values)
            default: throw failure(path, "expected a vec value")
            }
        case .record(let expectedFields):
            guard case .record(let fields) = self else { throw failure(path, "expected a record value") }
            var labelled: [UInt32: CandidTextValue] = [:]
            var nextId: UInt32 = 0
            for field in fields {
                let id = field.label?.id ?? nextId
                guard labelled[id] == nil else { throw failure(path, "duplicate record field \(id)") }
                labelled[id] = field.value
                nextId = id &+ 1
            }
            var values: [CandidField] = []
            for field in expectedFields {
                let label = CandidLabel(id: field.id, name: field.name)
                if let value = labelled[field.id] {
                    values.append(
                        CandidField(label, try value.typed(field.type, in: table, path: path + " / \(label)")))
                } else if table.acceptsNull(field.type) {
                    values.append(CandidField(label, table.nullValue(field.type)))
                } else {
                    throw failure(path, "missing record field \(label)")
                }
            }
            return .record(values)
        case .variant(let expectedFields):
            guard case .variant(let label, let payload) = self else { throw failure(path, "expected a variant value") }
            guard let field = expectedFields.binarySearch(id: label.id) else {
                throw failure(path, "variant tag \(label) is not in the type")
            }
            let value = try payload.typed(field.type, in: table, path: path + " / \(label)")
            return .variant(CandidField(CandidLabel(id: field.id, name: field.name), value))
        case .function:
            guard case .function(let service, let method) = self else { throw failure(path, "expected a func value") }
            return .function(CandidFunctionReference(service: try principal(service, path), method: method))
        case .service:
            guard case .service(let service) = self else { throw failure(path, "expected a service value") }
            return .service(try principal(service, path))
        case .future:
            throw failure(path, "cannot type a value at a future type")
        }
    }

    private func principal(_ text: String, _ path: String) throws(CandidTextError) -> CandidPrincipal {
        do {
            return try CandidPrincipal(text: text)
        } catch {
            throw failure(path, error.message)
        }
    }

    private func typedPrimitive(_ ref: Int32, _ path: String) throws(CandidTextError) -> CandidValue {
        switch (ref, self) {
        case (CandidTypeTable.null, .null): return .null
        case (CandidTypeTable.bool, .bool(let flag)): return .bool(flag)
        case (CandidTypeTable.text, .text(let text)): return .text(text)
        case (CandidTypeTable.principal, .principal(let text)), (CandidTypeTable.principal, .service(let text)):
            return .principal(try principal(text, path))
        case (CandidTypeTable.float32, .number(let text)):
            guard let number = Self.float(text) else { throw failure(path, "\(text) is not a float") }
            return .float32(Float(number))
        case (CandidTypeTable.float64, .number(let text)):
            guard let number = Self.float(text) else { throw failure(path, "\(text) is not a float") }
            return .float64(number)
        case (_, .number(let text)):
            guard let integer = Self.integer(text) else { throw failure(path, "\(text) is not an integer") }
            let value: CandidValue? =
                switch ref {
                case CandidTypeTable.nat: integer.natValue.map { .nat($0) }
                case CandidTypeTable.int: .int(integer)
                case CandidTypeTable.nat8: integer.int64Value.flatMap { UInt8(exactly: $0) }.map { .nat8($0) }
                case CandidTypeTable.nat16: integer.int64Value.flatMap { UInt16(exactly: $0) }.map { .nat16($0) }
                case CandidTypeTable.nat32: integer.int64Value.flatMap { UInt32(exactly: $0) }.map { .nat32($0) }
                case CandidTypeTable.nat64: integer.natValue?.uint64Value.map { .nat64($0) }
                case CandidTypeTable.int8: integer.int64Value.flatMap { Int8(exactly: $0) }.map { .int8($0) }
                case CandidTypeTable.int16: integer.int64Value.flatMap { Int16(exactly: $0) }.map { .int16($0) }
                case CandidTypeTable.int32: integer.int64Value.flatMap { Int32(exactly: $0) }.map { .int32($0) }
                case CandidTypeTable.int64: integer.int64Value.map { .int64($0) }
                default: nil
                }
            guard let value else {
                throw failure(
                    path, "\(text) does not fit type \(CandidTypeTable.primitiveType(ref).map { "\($0)" } ?? "?")")
            }
            return value
        default:
            let typeName = CandidTypeTable.primitiveType(ref).map { $0.candidText } ?? "?"
            throw failure(path, "value does not match type \(typeName)")
        }
    }

    /// Parses an integer literal: optional sign, decimal or `0x` hex, `_` separators.
    static func integer(_ text: String) -> CandidInt? {
        // Parsing is quadratic in the number of digits; 4096 digits is far beyond any Candid use.
        guard text.utf8.count <= 4096 else { return nil }
        var body = Substring(text)
        var negative = false
        if body.first == "-" || body.first == "+" {
            negative = body.first == "-"
            body = body.dropFirst()
        }
        let magnitude: CandidNat?
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            magnitude = CandidNat(hexadecimal: body.dropFirst(2))
        } else {
            magnitude = CandidNat(decimal: body)
        }
        return magnitude.map { CandidInt(isNegative: negative, magnitude: $0) }
    }

    /// Parses a float literal (`3.`, `0.5`, `1e10`, `nan`, `inf`), allowing `_` separators.
    static func float(_ text: String) -> Double? {
        let cleaned = text.filter { $0 != "_" }
        if cleaned.hasPrefix("0x") || cleaned.hasPrefix("-0x") {
            return integer(text).flatMap { Double($0.description) }
        }
        return Double(cleaned)
    }

    // MARK: Inference

    /// Infers a type for a value written without an expected type: numbers are `int` (or `float64` with a
    /// fraction or exponent), `vec {}` is `vec empty`, and annotations are honoured.
    ///
    /// - Throws: `CandidTextError` for annotations that do not compile or values that do not match them.
    public func inferred(environment: CandidTypeEnvironment = .init()) throws(CandidTextError) -> (
        type: CandidType, value: CandidValue
    ) {
        switch self {
        case .null: return (.null, .null)
        case .bool(let flag): return (.bool, .bool(flag))
        case .number(let text):
            let isFloat =
                !text.hasPrefix("0x") && !text.hasPrefix("-0x")
                && (text.contains(".") || text.contains("e") || text.contains("E") || text.contains("n"))
            if isFloat {
                guard let number = Self.float(text) else { throw failure("value", "\(text) is not a number") }
                return (.float64, .float64(number))
            }
            guard let integer = Self.integer(text) else { throw failure("value", "\(text) is not a number") }
            return (.int, .int(integer))
        case .text(let text): return (.text, .text(text))
        case .opt(let inner):
            let (type, value) = try inner.inferred(environment: environment)
            return (.opt(type), .opt(value))
        case .blob(let bytes): return (.blob, .blob(bytes))
        case .vec(let elements):
            guard let first = elements.first else { return (.vec(.empty), .vec([])) }
            let elementType = try first.inferred(environment: environment).type
            return try annotated(.vec(elementType), environment: environment)
        case .record(let fields):
            var types: [CandidFieldType] = []
            var values: [CandidField] = []
            var nextId: UInt32 = 0
            for field in fields {
                let label = field.label ?? CandidLabel(id: nextId)
                nextId = label.id &+ 1
                let (type, value) = try field.value.inferred(environment: environment)
                types.append(CandidFieldType(label, type))
                values.append(CandidField(label, value))
            }
            return (.record(types), .makeRecord(values))
        case .variant(let label, let payload):
            let (type, value) = try payload.inferred(environment: environment)
            return (.variant([CandidFieldType(label, type)]), .variant(CandidField(label, value)))
        case .principal(let text): return (.principal, .principal(try principal(text, "value")))
        case .service(let text):
            return (.service(CandidServiceType(methods: [])), .service(try principal(text, "value")))
        case .function(let service, let method):
            let reference = CandidFunctionReference(service: try principal(service, "value"), method: method)
            return (.function(CandidFunctionType(arguments: [], results: [])), .function(reference))
        case .annotated(let inner, let type):
            return try inner.annotated(type, environment: environment)
        }
    }

    private func annotated(_ type: CandidType, environment: CandidTypeEnvironment) throws(CandidTextError) -> (
        type: CandidType, value: CandidValue
    ) {
        let compiled: CandidArgumentTypes
        do {
            compiled = try CandidArgumentTypes([type], environment: environment)
        } catch {
            throw failure("annotation", error.message)
        }
        return (type, try typed(compiled.arguments[0], in: compiled.table, path: "value"))
    }
}
