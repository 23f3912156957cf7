/// A Candid value as written in text, before it is checked against a type (Candid spec, "Values").
///
/// Numbers keep their source text until the expected type decides between `nat`, `int8`, `float64` and so on.
public indirect enum CandidTextValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number literal: decimal or `0x` hex, optional sign, `_` separators, or a float literal.
    case number(String)
    case text(String)
    case opt(CandidTextValue)
    case vec([CandidTextValue])
    case blob([UInt8])
    /// Fields with explicit labels, or nil for positional fields (numbered from the previous id + 1).
    case record([(label: CandidLabel?, value: CandidTextValue)])
    case variant(CandidLabel, CandidTextValue)
    case principal(String)
    case service(String)
    case function(service: String, method: String)
    /// `(value : type)`.
    case annotated(CandidTextValue, CandidType)

    public static func == (lhs: CandidTextValue, rhs: CandidTextValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)), (.text(let a), .text(let b)), (.principal(let a), .principal(let b)),
            (.service(let a), .service(let b)):
            return a == b
        case (.opt(let a), .opt(let b)): return a == b
        case (.vec(let a), .vec(let b)): return a == b
        case (.blob(let a), .blob(let b)): return a == b
        case (.record(let a), .record(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.label == $1.label && $0.value == $1.value }
        case (.variant(let a, let x), .variant(let b, let y)): return a == b && x == y
        case (.function(let a, let x), .function(let b, let y)): return a == b && x == y
        case (.annotated(let a, let x), .annotated(let b, let y)): return a == b && x == y
        default: return false
        }
    }
}
