/// A record field or variant payload with its label.
public struct CandidField: Sendable, Equatable {
    /// The label.
    public var label: CandidLabel
    /// The value.
    public var value: CandidValue

    /// Creates a field.
    public init(_ label: CandidLabel, _ value: CandidValue) {
        self.label = label
        self.value = value
    }

    /// Creates a named field.
    public init(_ name: String, _ value: CandidValue) {
        self.init(CandidLabel(name), value)
    }
}
