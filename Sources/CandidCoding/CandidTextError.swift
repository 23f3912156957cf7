/// An error in Candid text: a value, a type, or a `.did` file.
///
/// Candid spec, "Textual representation" and "Interface description". The position is 1-based line and column;
/// errors in `.did` files also name the file and, for syntax errors, the byte range (as dfinity's tools print it).
public struct CandidTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based line of the offending token.
    public var line: Int
    /// 1-based column (in Unicode scalars) of the offending token.
    public var column: Int
    /// What was expected or found.
    public var message: String
    /// The `.did` file, when the text came from one (empty otherwise).
    public var file: String = ""
    /// Byte offsets of the offending text, for syntax errors (printed by the Candid tools as `at 19..57`).
    public var span: Range<Int>?
    /// Whether this is a syntax error (dfinity's tools prefix those with "Candid parser error: ").
    public var isSyntaxError = false

    /// Creates an error.
    public init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// Creates an error at a place in a `.did` file.
    public init(at position: DIDPosition, _ message: String, span: Range<Int>? = nil, syntax: Bool = false) {
        self.line = position.line
        self.column = position.column
        self.message = message
        self.file = position.file
        self.span = span
        self.isSyntaxError = syntax
    }

    public var description: String {
        file.isEmpty ? "\(line):\(column): \(message)" : "\(file):\(line):\(column): \(message)"
    }

    /// The text dfinity's `candid_parser` prints for the same error (the parser test files' `.fail` form).
    public var candidToolText: String {
        guard isSyntaxError else { return message }
        let range = span.map { " at \($0.lowerBound)..\($0.upperBound)" } ?? ""
        return "Candid parser error: \(message)\(range)"
    }
}
