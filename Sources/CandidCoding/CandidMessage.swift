/// A decoded message: values with the types they were decoded at.
public struct CandidMessage: Sendable, Equatable {
    /// The argument values.
    public var values: [CandidValue]
    /// The argument types.
    public var types: [CandidType]
    /// Definitions for named types in `types`.
    public var environment: CandidTypeEnvironment

    /// Creates a message.
    public init(values: [CandidValue], types: [CandidType], environment: CandidTypeEnvironment = .init()) {
        self.values = values
        self.types = types
        self.environment = environment
    }
}
