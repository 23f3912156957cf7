/// Why RLP input was rejected, and where.
public struct RLPDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No bytes where an item was expected.
        case unexpectedEnd
        /// A declared length runs past the end of the enclosing input.
        case lengthPastInput
        /// A single byte below 0x80 was wrapped in a one-byte string header.
        case nonCanonicalSingleByte
        /// A long-form length was used for a payload shorter than 56 bytes.
        case nonCanonicalLength
        /// A long-form length has leading zero bytes.
        case leadingZeroInLength
        /// A length does not fit in the address space.
        case lengthOverflow
        /// Bytes follow the top-level item.
        case trailingBytes
        /// Lists nest deeper than ``RLP/maximumDepth``.
        case tooDeep
        /// A list was found where a byte string was expected.
        case expectedBytes
        /// A byte string was found where a list was expected.
        case expectedList
        /// An integer has leading zero bytes.
        case leadingZeroInInteger
        /// An integer does not fit the field's width.
        case integerOverflow
        /// A list has a different number of elements than the structure requires.
        case wrongElementCount(expected: Int, actual: Int)
        /// A fixed-size byte string has the wrong length.
        case wrongByteLength(expected: Int, actual: Int)
    }

    public let kind: Kind
    /// Offset, in bytes from the start of the input, of the item at fault.
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what: String
        switch kind {
        case .unexpectedEnd: what = "unexpected end of input"
        case .lengthPastInput: what = "declared length exceeds the input"
        case .nonCanonicalSingleByte: what = "non-canonical encoding of a single byte"
        case .nonCanonicalLength: what = "non-canonical size information (long form for a short payload)"
        case .leadingZeroInLength: what = "length has leading zero bytes"
        case .lengthOverflow: what = "length overflows"
        case .trailingBytes: what = "trailing bytes after the item"
        case .tooDeep: what = "lists nested deeper than \(RLP.maximumDepth)"
        case .expectedBytes: what = "expected a byte string, found a list"
        case .expectedList: what = "expected a list, found a byte string"
        case .leadingZeroInInteger: what = "integer has leading zero bytes"
        case .integerOverflow: what = "integer too large for its field"
        case .wrongElementCount(let e, let a): what = "list has \(a) elements, expected \(e)"
        case .wrongByteLength(let e, let a): what = "byte string has length \(a), expected \(e)"
        }
        return "rlp: \(what) at byte \(offset)"
    }
}
