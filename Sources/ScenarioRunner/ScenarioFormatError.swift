/// A scenario file that cannot run: where (file:line:column) and what was expected there. Raised while
/// loading, before any step runs.
public struct ScenarioFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// `file:line:column: message`, the form compilers use, so editors can jump to it.
    public var description: String { "\(location): \(message)" }
}
