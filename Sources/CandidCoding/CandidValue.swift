/// A Candid value (Candid spec, "Values").
///
/// Values produced by the decoder are shaped by the expected type: record fields are those of the expected type,
/// sorted by id, and `vec nat8` is always `.blob`. Equality treats `.blob` and a `.vec` of `.nat8` alike and compares
/// labels by id only.
public enum CandidValue: Sendable {
    case null
    case bool(Bool)
    case nat(CandidNat)
    case int(CandidInt)
    case nat8(UInt8)
    case nat16(UInt16)
    case nat32(UInt32)
    case nat64(UInt64)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case float32(Float)
    case float64(Double)
    case text(String)
    /// The value of type `reserved` (carries no information).
    case reserved
    case principal(CandidPrincipal)
    /// `opt v` or `null` at an option type.
    indirect case opt(CandidValue?)
    case vec([CandidValue])
    /// `vec nat8` in compact form.
    case blob([UInt8])
    /// Fields sorted by label id.
    case record([CandidField])
    indirect case variant(CandidField)
    /// A function reference: service principal and method name.
    indirect case function(CandidFunctionReference)
    /// A service reference.
    case service(CandidPrincipal)

    /// `null` at an option type (`.opt(nil)`), shared so that decoding it does not allocate a box.
    static let optNull: CandidValue = .opt(nil)

    /// Builds a record, sorting fields by id.
    public static func makeRecord(_ fields: [CandidField]) -> CandidValue {
        .record(fields.sorted { $0.label.id < $1.label.id })
    }

    /// Builds a tuple record with fields 0, 1, 2, ...
    public static func tuple(_ values: [CandidValue]) -> CandidValue {
        .record(values.enumerated().map { CandidField(CandidLabel(id: UInt32($0.offset)), $0.element) })
    }
}
