/// A Candid type (Candid spec, "Types").
///
/// Recursive types are expressed with `.named` references that are resolved in a `CandidTypeEnvironment`.
/// `blob` is `.vec(.nat8)`.
public indirect enum CandidType: Sendable, Hashable {
    case null
    case bool
    case nat
    case int
    case nat8
    case nat16
    case nat32
    case nat64
    case int8
    case int16
    case int32
    case int64
    case float32
    case float64
    case text
    case reserved
    case empty
    case principal
    case opt(CandidType)
    case vec(CandidType)
    /// Fields in any order; they are sorted by id when compiled.
    case record([CandidFieldType])
    /// Tags in any order; they are sorted by id when compiled.
    case variant([CandidFieldType])
    case function(CandidFunctionType)
    case service(CandidServiceType)
    /// A reference to a type definition (`type Name = ...;`).
    case named(String)

    /// `blob`, the shorthand for `vec nat8`.
    public static let blob = CandidType.vec(.nat8)

    /// A tuple, i.e. a record whose fields are numbered 0, 1, 2, ...
    public static func tuple(_ types: [CandidType]) -> CandidType {
        .record(types.enumerated().map { CandidFieldType(CandidLabel(id: UInt32($0.offset)), $0.element) })
    }

    /// The primitive opcode of this type (Candid spec, "Type table"), or nil for composite and named types.
    var primitiveCode: Int32? {
        switch self {
        case .null: return -1
        case .bool: return -2
        case .nat: return -3
        case .int: return -4
        case .nat8: return -5
        case .nat16: return -6
        case .nat32: return -7
        case .nat64: return -8
        case .int8: return -9
        case .int16: return -10
        case .int32: return -11
        case .int64: return -12
        case .float32: return -13
        case .float64: return -14
        case .text: return -15
        case .reserved: return -16
        case .empty: return -17
        case .principal: return -24
        default: return nil
        }
    }
}
