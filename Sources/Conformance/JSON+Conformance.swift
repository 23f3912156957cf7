import JSONCoding

extension JSON {
    /// Compact, valid JSON text (RFC 8259) with object keys sorted: what adapters are sent and reports show.
    public var jsonText: String { sortedKeysText }

    /// Compact text for failure reports (the same canonical form).
    public var compactText: String { sortedKeysText }

    /// A JSON integer.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSON { .number(String(value)) }

    /// The value of a JSON number or decimal string, when it is a whole number in `UInt64`.
    public var uint64: UInt64? {
        switch self {
        case .number(let n), .string(let n): return UInt64(n)
        default: return nil
        }
    }
}
