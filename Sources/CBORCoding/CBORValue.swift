/// One CBOR data item (RFC 8949 §3), as far as the Internet Computer's HTTP interface uses CBOR:
/// integers, byte and text strings, arrays, maps, tags, booleans and null (IC interface spec §CBOR encoding).
///
/// Floats, `undefined` and other simple values are outside that profile; the decoder refuses them.
public indirect enum CBORValue: Hashable, Sendable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is `-1 - n`.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3 (valid UTF-8).
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, entries in their encoded order.
    case map([CBORMapEntry])
    /// Major type 6.
    case tagged(UInt64, CBORValue)
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    /// The self-describe tag 55799 (`d9 d9 f7`, RFC 8949 §3.4.6) the IC puts around envelopes.
    public static let selfDescribeTag: UInt64 = 55799
    /// Tag 2: an unsigned bignum (RFC 8949 §3.4.3).
    public static let unsignedBignumTag: UInt64 = 2

    /// A map from text keys, in the given order.
    public static func map(_ entries: KeyValuePairs<String, CBORValue>) -> CBORValue {
        .map(entries.map { CBORMapEntry(key: .text($0.key), value: $0.value) })
    }

    /// The value without any self-describe tags around it.
    public var untagged: CBORValue {
        var value = self
        while case .tagged(Self.selfDescribeTag, let inner) = value { value = inner }
        return value
    }

    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = untagged { return b }
        return nil
    }

    public var textValue: String? {
        if case .text(let t) = untagged { return t }
        return nil
    }

    public var arrayValue: [CBORValue]? {
        if case .array(let a) = untagged { return a }
        return nil
    }

    public var mapEntries: [CBORMapEntry]? {
        if case .map(let m) = untagged { return m }
        return nil
    }

    /// An unsigned integer, also from a tag-2 bignum of at most 8 significant bytes.
    public var uint64Value: UInt64? {
        switch untagged {
        case .unsigned(let n): return n
        case .tagged(Self.unsignedBignumTag, .bytes(let magnitude)):
            let significant = magnitude.drop { $0 == 0 }
            guard significant.count <= 8 else { return nil }
            return significant.reduce(0) { $0 << 8 | UInt64($1) }
        default: return nil
        }
    }

    /// The value of the text key `key` in a map (the first, if a map had duplicates).
    public subscript(key: String) -> CBORValue? {
        guard let entries = mapEntries else { return nil }
        for entry in entries {
            if case .text(let text) = entry.key, text == key { return entry.value }
        }
        return nil
    }

    public var isNull: Bool { untagged == .null }
}

/// One key/value pair of a CBOR map.
public struct CBORMapEntry: Hashable, Sendable {
    public var key: CBORValue
    public var value: CBORValue

    public init(key: CBORValue, value: CBORValue) {
        self.key = key
        self.value = value
    }
}
