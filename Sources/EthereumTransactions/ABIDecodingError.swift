/// Why ABI-encoded bytes (calldata, return data, log topics and data) could not be decoded.
public struct ABIDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The 4-byte selector is not one this decoder knows.
        case unknownSelector([UInt8])
        /// The bytes are not the length the signature requires.
        case wrongLength(expected: Int, actual: Int)
        /// An address word whose upper 12 bytes are not zero, or a bool word other than 0 or 1, or a uint8 ≥ 256.
        case dirtyWord
        /// A string offset or length that points outside the data, or text that is not UTF-8.
        case invalidString
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
            return "unknown function selector 0x" + s.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        case .wrongLength(let e, let a): return "expected \(e) bytes of ABI data, found \(a)"
        case .dirtyWord: return "ABI word at byte \(offset) is out of range for its type"
        case .invalidString: return "ABI string at byte \(offset) is malformed"
        case .wrongEvent: return "log is not the expected event"
        }
    }
}
