/// A function reference value (Candid spec, "References").
public struct CandidFunctionReference: Sendable, Hashable {
    /// The service that exposes the method.
    public var service: CandidPrincipal
    /// The method name.
    public var method: String

    /// Creates a reference.
    public init(service: CandidPrincipal, method: String) {
        self.service = service
        self.method = method
    }
}
