/// Encodes ``CBORValue``s with the shortest heads (RFC 8949 §4.2.1 preferred serialization); maps keep the
/// order they are given in (``CBOREncoder/canonicalMap(_:)`` sorts them for deterministic output).
public enum CBOREncoder {
    /// The encoding of `value`.
    public static func encode(_ value: CBORValue, selfDescribed: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        if selfDescribed { appendHead(6, CBORValue.selfDescribeTag, into: &out) }
        append(value, into: &out)
        return out
    }

    /// Appends the encoding of `value` to `out`.
    public static func append(_ value: CBORValue, into out: inout [UInt8]) {
        switch value {
        case .unsigned(let n): appendHead(0, n, into: &out)
        case .negative(let n): appendHead(1, n, into: &out)
        case .bytes(let b):
            appendHead(2, UInt64(b.count), into: &out)
            out.append(contentsOf: b)
        case .text(let t):
            appendHead(3, UInt64(t.utf8.count), into: &out)
            out.append(contentsOf: t.utf8)
        case .array(let elements):
            appendHead(4, UInt64(elements.count), into: &out)
            for element in elements { append(element, into: &out) }
        case .map(let entries):
            appendHead(5, UInt64(entries.count), into: &out)
            for entry in entries {
                append(entry.key, into: &out)
                append(entry.value, into: &out)
            }
        case .tagged(let tag, let inner):
            appendHead(6, tag, into: &out)
            append(inner, into: &out)
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        }
    }

    /// A head: major type in the top 3 bits, the argument in the shortest form.
    public static func appendHead(_ major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: out.append(type | UInt8(argument))
        case 24...0xff: out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xffff: out.append(contentsOf: [type | 25, UInt8(argument >> 8), UInt8(argument & 0xff)])
        case 0x1_0000...0xffff_ffff:
            out.append(type | 26)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(argument >> UInt64(shift) & 0xff)) }
        default:
            out.append(type | 27)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(argument >> UInt64(shift) & 0xff)) }
        }
    }

    /// `entries` sorted by the bytewise order of their encoded keys (RFC 8949 §4.2.1 deterministic encoding;
    /// also the order serde_cbor writes struct fields in).
    public static func canonicalMap(_ entries: [CBORMapEntry]) -> CBORValue {
        .map(entries.map { (encode($0.key), $0) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1))
    }
}
