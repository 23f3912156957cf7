/// Named type definitions (`type Name = ...;`) used to resolve `CandidType.named` references.
///
/// Candid spec, "Interface description": definitions may be mutually recursive, but a definition that only refers
/// to itself through names (`type t = t`) is vacuous and rejected when compiled.
public struct CandidTypeEnvironment: Sendable, Hashable {
    /// Definitions by name.
    public var definitions: [String: CandidType]

    /// Creates an environment.
    public init(_ definitions: [String: CandidType] = [:]) { self.definitions = definitions }

    /// Follows `.named` references to the defining type.
    ///
    /// - Throws: `CandidTypeError` for unknown names or vacuous cycles.
    public func resolve(_ type: CandidType) throws(CandidTypeError) -> CandidType {
        var current = type
        var seen: Set<String> = []
        while case .named(let name) = current {
            guard seen.insert(name).inserted else { throw CandidTypeError("type \(name) is vacuous (cyclic alias)") }
            guard let next = definitions[name] else { throw CandidTypeError("unknown type name \(name)") }
            current = next
        }
        return current
    }
}

extension CandidType {
    /// The first `.named` reference in this type that `environment` does not define, if any.
    func unknownName(in environment: CandidTypeEnvironment) -> String? {
        switch self {
        case .named(let name): return environment.definitions[name] == nil ? name : nil
        case .opt(let inner), .vec(let inner): return inner.unknownName(in: environment)
        case .record(let fields), .variant(let fields):
            for field in fields { if let name = field.type.unknownName(in: environment) { return name } }
            return nil
        case .function(let function):
            for type in function.arguments + function.results {
                if let name = type.unknownName(in: environment) { return name }
            }
            return nil
        case .service(let service):
            for method in service.methods { if let name = method.type.unknownName(in: environment) { return name } }
            return nil
        default: return nil
        }
    }
}
