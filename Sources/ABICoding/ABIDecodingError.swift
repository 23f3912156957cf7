import ByteCoding

/// Why ABI-encoded bytes (calldata, return data, log topics and data) could not be decoded.
public struct ABIDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The 4-byte selector is not one this decoder knows.
        case unknownSelector([UInt8])
        /// The bytes are not the length the types require (too short, or trailing bytes in strict mode).
        case wrongLength(expected: Int, actual: Int)
        /// An address word whose upper 12 bytes are not zero, a bool word other than 0 or 1, a `uint<M>`/`int<M>`
        /// out of range or a `bytes<M>` with bytes after M.
        case dirtyWord
        /// An offset that points outside the data (or into the head it belongs to).
        case offsetOutOfRange
        /// A length or element count larger than the data left.
        case lengthOutOfRange
        /// Padding after `bytes`/`string` content that is not zero (strict mode).
        case nonZeroPadding
        /// Text that is not UTF-8.
        case invalidString
        /// The decoded values would take more than `limit` bytes encoded without sharing: elements that share one
        /// offset amplify (a few KB can name billions of elements), so the decoder refuses them.
        case budgetExceeded(limit: Int)
        /// The first log topic is not the event's signature hash, or the topic count is wrong.
        case wrongEvent
    }

    public let kind: Kind
    /// Byte offset of the problem in the decoded buffer.
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        switch kind {
        case .unknownSelector(let s):
            return "unknown function selector " + Hex.encodePrefixed(s)
        case .wrongLength(let e, let a): return "expected \(e) bytes of ABI data, found \(a)"
        case .dirtyWord: return "ABI word at byte \(offset) is out of range for its type"
        case .offsetOutOfRange: return "ABI offset at byte \(offset) points outside the data"
        case .lengthOutOfRange: return "ABI length at byte \(offset) exceeds the data"
        case .nonZeroPadding: return "ABI padding at byte \(offset) is not zero"
        case .invalidString: return "ABI string at byte \(offset) is not UTF-8"
        case .budgetExceeded(let limit):
            return "ABI data decodes to more than \(limit) bytes (elements share offsets); refused at byte \(offset)"
        case .wrongEvent: return "log is not the expected event"
        }
    }
}
