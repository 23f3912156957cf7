/// A record field or variant tag with its type.
public struct CandidFieldType: Sendable, Hashable {
    /// The field label.
    public var label: CandidLabel
    /// The field type.
    public var type: CandidType

    /// Creates a field.
    public init(_ label: CandidLabel, _ type: CandidType) {
        self.label = label
        self.type = type
    }

    /// Creates a named field.
    public init(_ name: String, _ type: CandidType) {
        self.init(CandidLabel(name), type)
    }
}
