/// A parsed `.did` file: type definitions and the service it describes (Candid spec, "Interface description").
public struct CandidInterface: Sendable, Equatable {
    /// The type definitions.
    public var environment: CandidTypeEnvironment
    /// Definition names in source order.
    public var definitionOrder: [String]
    /// The service, if the file declares one.
    public var service: CandidServiceType?
    /// Init arguments of a service class (`service : (args) -> { ... }`).
    public var initArguments: [CandidType]?
    /// Paths of `import` statements (not followed).
    public var imports: [String]
    /// Where each definition (and the service, under `servicePositionKey`) starts in the source.
    public var positions: [String: CandidTextPosition] = [:]

    /// The key of the service declaration in `positions`.
    public static let servicePositionKey = " service"

    /// Creates an interface.
    public init(
        environment: CandidTypeEnvironment,
        definitionOrder: [String],
        service: CandidServiceType?,
        initArguments: [CandidType]?,
        imports: [String]
    ) {
        self.environment = environment
        self.definitionOrder = definitionOrder
        self.service = service
        self.initArguments = initArguments
        self.imports = imports
    }

    /// Parses `.did` text and checks every definition and method type (imports are recorded, not followed; use
    /// ``DIDProgram/load(path:read:)`` to follow them).
    ///
    /// - Throws: `CandidTextError` with line and column: syntax errors, hash collisions, unknown names, cyclic
    ///   aliases, `oneway` methods with results, methods that are not functions.
    public init(parsing text: String) throws(CandidTextError) {
        self = try DIDProgram(parsing: text).interface
    }

    /// Compiles every definition, the init arguments and every method to find type errors.
    public func check() throws(CandidTypeError) {
        var builder = CandidTypeTableBuilder(environment: environment)
        for name in definitionOrder { _ = try builder.ref(.named(name)) }
        if let initArguments { for type in initArguments { _ = try builder.ref(type) } }
        if let service { _ = try builder.ref(.service(service)) }
    }

    /// The function type of a method, with named references resolved at the top level.
    ///
    /// - Throws: `CandidTypeError` when the method does not exist or is not a function.
    public func method(_ name: String) throws(CandidTypeError) -> CandidFunctionType {
        guard let method = service?.methods.first(where: { $0.name == name }) else {
            throw CandidTypeError("the service has no method \(name)")
        }
        guard case .function(let function) = try environment.resolve(method.type) else {
            throw CandidTypeError("method \(name) does not have a function type")
        }
        return function
    }

    /// A one-line-per-item summary: counts, then each method signature.
    public var summary: String {
        var lines = ["\(definitionOrder.count) type definitions"]
        if let initArguments {
            lines.append("service init: (\(initArguments.map { $0.candidText }.joined(separator: ", ")))")
        }
        if let service {
            lines.append("\(service.methods.count) methods")
            for method in service.methods.sorted(by: { $0.name < $1.name }) {
                lines.append("  \(CandidType.quotedNameIfNeeded(method.name)) : \(method.type.candidMethodText)")
            }
        } else {
            lines.append("no service")
        }
        return lines.joined(separator: "\n")
    }
}
