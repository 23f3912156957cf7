/// A 1-based line and column in Candid source text.
public struct CandidTextPosition: Sendable, Hashable {
    /// 1-based line.
    public var line: Int
    /// 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a position.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
