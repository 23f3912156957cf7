/// The checks dfinity's `candid_parser` runs on a merged program (`typing.rs`), in its order and with its messages:
/// duplicate definitions, unbound names, annotations (at most one; `oneway` only with no results), cyclic aliases,
/// service methods that are not functions, then the main service. Also lowers the syntax to ``CandidType``.
struct DIDChecker {
    let order: [DIDDefinition]
    var byName: [String: DIDDefinition] = [:]

    init(definitions: [DIDDefinition]) { self.order = definitions }

    private func error(_ position: DIDPosition, _ message: String) -> CandidTextError {
        CandidTextError(at: position, message)
    }

    mutating func checkDefinitions() throws(CandidTextError) {
        for definition in order {
            guard byName[definition.name] == nil else {
                throw error(definition.position, "duplicate binding for \(definition.name)")
            }
            byName[definition.name] = definition
        }
        for definition in order { try check(definition.type, at: definition.position, methodsMustBeFunctions: false) }
        for name in byName.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            var seen: Set<String> = []
            var type = byName[name]?.type
            while case .name(let next)? = type {
                guard seen.insert(next).inserted else {
                    throw error(byName[name]?.position ?? DIDPosition(), "\(name) has cyclic type definition")
                }
                type = byName[next]?.type
            }
        }
        for definition in order { try validateServices(definition.type, at: definition.position) }
    }

    /// Walks a type: every name bound, annotations valid, and (for the main service) methods are functions.
    func check(_ type: DIDType, at position: DIDPosition, methodsMustBeFunctions: Bool) throws(CandidTextError) {
        switch type {
        case .primitive: return
        case .name(let name):
            guard byName[name] != nil else { throw error(position, "Unbound type identifier \(name)") }
        case .opt(let inner), .vec(let inner):
            try check(inner, at: position, methodsMustBeFunctions: false)
        case .record(let fields), .variant(let fields):
            for field in fields { try check(field.type, at: position, methodsMustBeFunctions: false) }
        case .function(let function):
            for argument in function.arguments + function.results {
                try check(argument.type, at: position, methodsMustBeFunctions: false)
            }
            if function.modes.count > 1 { throw error(position, "cannot have more than one mode") }
            if function.modes == [.oneway], !function.results.isEmpty {
                throw error(position, "oneway function has non-unit return type")
            }
        case .service(let methods):
            for method in methods {
                try check(method.type, at: method.position, methodsMustBeFunctions: false)
                if methodsMustBeFunctions, (try? asFunction(method.type)) == nil {
                    throw error(method.position, "method \(method.name) is a non-function type")
                }
            }
        }
    }

    /// Follows names to the defining type.
    func resolve(_ type: DIDType) -> DIDType {
        var current = type
        var seen: Set<String> = []
        while case .name(let name) = current, seen.insert(name).inserted, let next = byName[name]?.type {
            current = next
        }
        return current
    }

    func asFunction(_ type: DIDType) throws(CandidTextError) -> DIDFunction {
        guard case .function(let function) = resolve(type) else {
            throw CandidTextError(line: 1, column: 1, "not a function type: \(DIDPrinter.text(resolve(type)))")
        }
        return function
    }

    private func validateServices(_ type: DIDType, at position: DIDPosition) throws(CandidTextError) {
        switch type {
        case .primitive, .name: return
        case .opt(let inner), .vec(let inner): try validateServices(inner, at: position)
        case .record(let fields), .variant(let fields):
            for field in fields { try validateServices(field.type, at: position) }
        case .function(let function):
            for argument in function.arguments + function.results { try validateServices(argument.type, at: position) }
        case .service(let methods):
            for method in methods {
                do { _ = try asFunction(method.type) } catch { throw self.error(method.position, error.message) }
                try validateServices(method.type, at: position)
            }
        }
    }

    // MARK: The main service

    func chase(_ type: DIDType, importName: String?, at position: DIDPosition) throws(CandidTextError)
        -> [DIDMethod]
    {
        switch type {
        case .name(let name):
            guard let definition = byName[name] else { throw error(position, "Unbound type identifier \(name)") }
            return try chase(definition.type, importName: importName, at: position)
        case .service(let methods): return methods
        default:
            if let importName {
                throw error(position, "Imported service file \"\(importName)\" has a service constructor")
            }
            throw error(position, "not a service type: \(DIDPrinter.text(type))")
        }
    }

    /// The main service with imported services' methods appended (`IDLMergedProg::resolve_actor`).
    ///
    /// With `sortingEachFile`, each file's methods are sorted by name (as the Candid tools print them).
    func resolveActor(
        _ main: DIDActor?, serviceImports: [(name: String, actor: DIDActor)], file: String,
        sortingEachFile: Bool = false
    ) throws(CandidTextError) -> DIDActor? {
        guard !serviceImports.isEmpty else { return main }
        func sorted(_ methods: [DIDMethod]) -> [DIDMethod] {
            sortingEachFile ? DIDPrinter.sortedMethods(methods) : methods
        }
        var methods: [DIDMethod] = []
        if let main { methods = sorted(try chase(main.body, importName: nil, at: main.position)) }
        for (name, actor) in serviceImports {
            if actor.initArguments != nil {
                throw error(
                    main?.position ?? DIDPosition(file: file),
                    "Imported service file \"\(name)\" has a service constructor")
            }
            methods += sorted(try chase(actor.body, importName: name, at: actor.position))
        }
        var seen: [UInt32: String] = [:]
        for method in methods {
            if let previous = seen.updateValue(method.name, forKey: CandidLabel.hash(method.name)) {
                throw error(
                    method.position,
                    "Duplicate imported method name: label '\(method.name)' hash collision with '\(previous)'")
            }
        }
        return DIDActor(
            initArguments: main?.initArguments, body: .service(methods), docs: main?.docs ?? [],
            position: main?.position ?? DIDPosition(file: file))
    }

    func checkActor(_ actor: DIDActor?) throws(CandidTextError) {
        guard let actor else { return }
        for argument in actor.initArguments ?? [] {
            try check(argument.type, at: actor.position, methodsMustBeFunctions: false)
        }
        try check(actor.body, at: actor.position, methodsMustBeFunctions: true)
        guard case .service = resolve(actor.body) else {
            throw error(actor.position, "not a service type: \(DIDPrinter.text(resolve(actor.body)))")
        }
    }

    // MARK: Lowering

    static func lower(_ type: DIDType) -> CandidType {
        switch type {
        case .primitive(let primitive): return primitive
        case .name(let name): return .named(name)
        case .opt(let inner): return .opt(lower(inner))
        case .vec(let inner): return .vec(lower(inner))
        case .record(let fields): return .record(fields.map(lower))
        case .variant(let fields): return .variant(fields.map(lower))
        case .function(let function): return .function(lower(function))
        case .service(let methods): return .service(lower(methods))
        }
    }

    static func lower(_ field: DIDField) -> CandidFieldType {
        CandidFieldType(CandidLabel(id: field.label.id, name: field.label.name), lower(field.type))
    }

    static func lower(_ function: DIDFunction) -> CandidFunctionType {
        CandidFunctionType(
            arguments: function.arguments.map { lower($0.type) }, results: function.results.map { lower($0.type) },
            modes: function.modes, argumentNames: function.arguments.map(\.name),
            resultNames: function.results.map(\.name))
    }

    static func lower(_ methods: [DIDMethod]) -> CandidServiceType {
        CandidServiceType(methods: methods.map { CandidMethod(name: $0.name, type: lower($0.type)) })
    }

    /// The codec's view, compiled once through the type-table builder to catch anything the checks above let by.
    func interface(actor: DIDActor?, imports: [String]) throws(CandidTextError) -> CandidInterface {
        var environment = CandidTypeEnvironment()
        for definition in order { environment.definitions[definition.name] = Self.lower(definition.type) }
        var service: CandidServiceType?
        if let actor, case .service(let methods) = resolve(actor.body) { service = Self.lower(methods) }
        var interface = CandidInterface(
            environment: environment, definitionOrder: order.map(\.name), service: service,
            initArguments: actor?.initArguments.map { $0.map { Self.lower($0.type) } }, imports: imports)
        for definition in order {
            interface.positions[definition.name] = CandidTextPosition(
                line: definition.position.line, column: definition.position.column)
        }
        if let actor {
            interface.positions[CandidInterface.servicePositionKey] = CandidTextPosition(
                line: actor.position.line, column: actor.position.column)
        }
        var builder = CandidTypeTableBuilder(environment: environment)
        for definition in order {
            do { _ = try builder.ref(.named(definition.name)) } catch {
                throw self.error(definition.position, "type \(definition.name): \(error.message)")
            }
        }
        if let actor {
            do {
                for type in interface.initArguments ?? [] { _ = try builder.ref(type) }
                if let service { _ = try builder.ref(.service(service)) }
            } catch {
                throw self.error(actor.position, "service: \(error.message)")
            }
        }
        return interface
    }
}
