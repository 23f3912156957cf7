/// An error thrown while encoding Candid values to the binary format.
///
/// Candid spec, "Serialisation": each value must match the type it is serialised at.
public struct CandidEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path to the offending value, such as `arg 0 / field 5097222`.
    public var path: String
    /// What did not match.
    public var context: String

    /// Creates an error.
    public init(path: String, _ context: String) {
        self.path = path
        self.context = context
    }

    /// The same error with an outer path component prepended.
    func within(_ component: String) -> CandidEncodingError {
        CandidEncodingError(path: path.isEmpty ? component : "\(component) / \(path)", context)
    }

    public var description: String { "Candid encoding failed at \(path.isEmpty ? "top level" : path): \(context)" }
}
