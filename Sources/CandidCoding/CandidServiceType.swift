/// A service (actor) type: methods with function types, sorted by name when compiled.
public struct CandidServiceType: Sendable, Hashable {
    /// The methods; each type must be a function type or name one.
    public var methods: [CandidMethod]

    /// Creates a service type.
    public init(methods: [CandidMethod]) { self.methods = methods }
}

/// One service method.
public struct CandidMethod: Sendable, Hashable {
    /// The method name.
    public var name: String
    /// A `.function` type or a `.named` reference to one.
    public var type: CandidType

    /// Creates a method.
    public init(name: String, type: CandidType) {
        self.name = name
        self.type = type
    }
}
