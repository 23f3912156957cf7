/// An error in Candid text: a value, a type, or a `.did` file.
///
/// Candid spec, "Textual representation" and "Interface description". The position is 1-based line and column.
public struct CandidTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the offending token.
    public var line: Int
    /// 1-based column (in Unicode scalars) of the offending token.
    public var column: Int
    /// What was expected or found.
    public var message: String

    /// Creates an error.
    public init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(line):\(column): \(message)" }
}
