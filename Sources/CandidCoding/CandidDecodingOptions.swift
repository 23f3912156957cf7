/// Resource limits for decoding untrusted Candid messages.
///
/// The defaults follow the reference Rust decoder's conformance setting (a decoding quota of 20 000 000 cost
/// units and at most 10 000 type table entries). The cost model: header bytes cost 4 each; `null`, `bool` and
/// `reserved` 1; numbers their byte length; `text` 1 + length; `opt` 1; `vec` 1 plus, per element, 3 when skipped
/// or the in-memory size of a `CandidValue` when decoded (charged before the elements are read, so memory stays
/// bounded by the budget); record fields 7; variants 6; principals max(30, length). Skipped values (extra
/// arguments, extra fields, values that fail to coerce under `opt`) cost 50 times as much.
public struct CandidDecodingOptions: Sendable, Hashable {
    /// Total decoding cost allowed for one message.
    public var budget: Int
    /// Maximum nesting depth of values and types.
    public var maximumDepth: Int
    /// Maximum number of type table entries.
    public var maximumTypeTableLength: Int

    /// Creates options.
    public init(budget: Int = 20_000_000, maximumDepth: Int = 512, maximumTypeTableLength: Int = 10_000) {
        self.budget = budget
        self.maximumDepth = maximumDepth
        self.maximumTypeTableLength = maximumTypeTableLength
    }
}
