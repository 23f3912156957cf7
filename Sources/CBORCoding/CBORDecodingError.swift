/// Why bytes are not an acceptable CBOR item. `offset` is the byte where the problem starts.
public struct CBORDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The input ends inside an item.
        case unexpectedEnd
        /// Bytes after the one top-level item.
        case trailingBytes
        /// Additional information 28–30 (reserved by RFC 8949 §3).
        case reservedAdditionalInfo(UInt8)
        /// Indefinite-length items (additional information 31); the IC never sends them.
        case indefiniteLength
        /// A length longer than the bytes that remain, or past the configured limit.
        case lengthTooLarge(UInt64)
        /// Nesting deeper than the configured limit.
        case tooDeep(limit: Int)
        /// A text string that is not valid UTF-8.
        case invalidUTF8
        /// A float, `undefined` or another simple value outside the IC's CBOR profile.
        case unsupportedSimpleValue(UInt8)
        /// The same key twice in one map (IC interface spec §CBOR encoding forbids it).
        case duplicateMapKey
    }

    public let kind: Kind
    public let offset: Int

    public init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch kind {
        case .unexpectedEnd: what = "input ends inside an item"
        case .trailingBytes: what = "trailing bytes after the item"
        case .reservedAdditionalInfo(let info): what = "reserved additional information \(info)"
        case .indefiniteLength: what = "indefinite-length item not supported"
        case .lengthTooLarge(let n): what = "length \(n) exceeds the input or the limit"
        case .tooDeep(let limit): what = "nesting deeper than \(limit)"
        case .invalidUTF8: what = "text string is not valid UTF-8"
        case .unsupportedSimpleValue(let v): what = "unsupported simple value or float (additional information \(v))"
        case .duplicateMapKey: what = "duplicate map key"
        }
        return "CBOR: \(what) at offset \(offset)"
    }
}
