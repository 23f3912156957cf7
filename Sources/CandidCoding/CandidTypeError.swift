/// An error in a Candid type: an unknown name, a vacuous recursive definition, duplicate labels or a reference to
/// something that is not a function where the Candid spec requires one.
public struct CandidTypeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the type.
    public var message: String

    /// Creates an error.
    public init(_ message: String) { self.message = message }

    public var description: String { "Candid type error: \(message)" }
}
