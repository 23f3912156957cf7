/// Compiles `CandidType` trees into a `CandidTypeTable`, resolving names and validating labels.
struct CandidTypeTableBuilder {
    var table = CandidTypeTable()
    let environment: CandidTypeEnvironment
    private var namedRefs: [String: Int32] = [:]
    private var depth = 0
    static let maximumDepth = 400

    init(environment: CandidTypeEnvironment) { self.environment = environment }

    mutating func ref(_ type: CandidType) throws(CandidTypeError) -> Int32 {
        if let code = type.primitiveCode { return code }
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw CandidTypeError("type nesting deeper than \(Self.maximumDepth)") }
        switch type {
        case .named(let name):
            if let known = namedRefs[name] { return known }
            let resolved = try environment.resolve(type)
            if let code = resolved.primitiveCode {
                namedRefs[name] = code
                return code
            }
            // Follow the alias chain: every name on it maps to the same node.
            var chain: [String] = []
            var current = type
            while case .named(let alias) = current {
                if let known = namedRefs[alias] {
                    for name in chain { namedRefs[name] = known }
                    return known
                }
                chain.append(alias)
                current = environment.definitions[alias] ?? .empty
            }
            let index = Int32(table.nodes.count)
            table.nodes.append(.future)
            for name in chain { namedRefs[name] = index }
            table.nodes[Int(index)] = try node(resolved)
            return index
        default:
            let built = try node(type)
            table.nodes.append(built)
            return Int32(table.nodes.count - 1)
        }
    }

    private mutating func node(_ type: CandidType) throws(CandidTypeError) -> CandidTypeTable.Node {
        switch type {
        case .opt(let inner): return .opt(try ref(inner))
        case .vec(let inner): return .vec(try ref(inner))
        case .record(let fields): return .record(try self.fields(fields, kind: "record"))
        case .variant(let fields): return .variant(try self.fields(fields, kind: "variant"))
        case .function(let function): return .function(try self.function(function))
        case .service(let service):
            var methods: [CandidTypeTable.Method] = []
            for method in service.methods {
                let methodRef = try ref(method.type)
                guard methodRef >= 0, case .function = table.nodes[Int(methodRef)] else {
                    throw CandidTypeError("service method \(method.name) does not have a function type")
                }
                methods.append(.init(name: method.name, type: methodRef))
            }
            methods.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            for index in methods.indices.dropFirst() where methods[index - 1].name == methods[index].name {
                throw CandidTypeError("duplicate service method \(methods[index].name)")
            }
            return .service(methods)
        default:
            throw CandidTypeError("unexpected type \(type) in a type table entry")
        }
    }

    private mutating func fields(_ fields: [CandidFieldType], kind: String) throws(CandidTypeError)
        -> [CandidTypeTable.Field]
    {
        var result: [CandidTypeTable.Field] = []
        result.reserveCapacity(fields.count)
        for field in fields {
            result.append(.init(id: field.label.id, name: field.label.name, type: try ref(field.type)))
        }
        result.sort { $0.id < $1.id }
        for index in result.indices.dropFirst() where result[index - 1].id == result[index].id {
            let names = [result[index - 1].name, result[index].name].compactMap { $0 }.joined(separator: ", ")
            throw CandidTypeError("\(kind) has duplicate field id \(result[index].id) \(names)")
        }
        return result
    }

    private mutating func function(_ function: CandidFunctionType) throws(CandidTypeError)
        -> CandidTypeTable.Function
    {
        var arguments: [Int32] = []
        for type in function.arguments { arguments.append(try ref(type)) }
        var results: [Int32] = []
        for type in function.results { results.append(try ref(type)) }
        let modes = Array(Set(function.modes.map(\.rawValue))).sorted()
        return .init(arguments: arguments, results: results, modes: modes)
    }
}
