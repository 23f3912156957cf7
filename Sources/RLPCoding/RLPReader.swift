/// A strict, non-allocating RLP cursor over a byte array.
///
/// Rejects every non-canonical form (Yellow Paper appendix B; the ethereum/tests `invalidRLPTest` cases):
/// single bytes wrapped in a header, long-form lengths for short payloads, lengths with leading zeros,
/// lengths past the input and trailing bytes.
public struct RLPReader: Sendable {
    public let buffer: [UInt8]
    /// Offset of the next unread byte.
    public var position: Int { _position }
    @usableFromInline var _position: Int
    /// End of the region this reader may read.
    public let end: Int

    /// A reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.buffer = bytes
        self._position = 0
        self.end = bytes.count
    }

    @usableFromInline
    init(buffer: [UInt8], position: Int, end: Int) {
        self.buffer = buffer
        self._position = position
        self.end = end
    }

    /// True when every byte of the region has been read.
    public var isAtEnd: Bool { position >= end }

    /// Throws ``RLPDecodingError/Kind/trailingBytes`` unless the region is fully consumed.
    public func finish() throws(RLPDecodingError) {
        if position < end { throw RLPDecodingError(.trailingBytes, at: position) }
    }

    /// The header of the next item.
    public struct Header: Sendable, Equatable {
        public var isList: Bool
        public var payloadStart: Int
        public var payloadLength: Int

        @usableFromInline
        init(isList: Bool, payloadStart: Int, payloadLength: Int) {
            self.isList = isList
            self.payloadStart = payloadStart
            self.payloadLength = payloadLength
        }
    }

    /// Parses the header of the next item without consuming it.
    @inlinable
    public func peekHeader() throws(RLPDecodingError) -> Header {
        try buffer.withUnsafeBufferPointer { (p: UnsafeBufferPointer<UInt8>) throws(RLPDecodingError) -> Header in
            try Self.parseHeader(p, at: position, end: end)
        }
    }

    @inlinable
    static func parseHeader(_ p: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) throws(RLPDecodingError) -> Header
    {
        guard start < end else { throw RLPDecodingError(.unexpectedEnd, at: start) }
        let prefix = p[start]
        let available = end - start - 1
        switch prefix {
        case 0x00...0x7f:
            return Header(isList: false, payloadStart: start, payloadLength: 1)
        case 0x80...0xb7:
            let length = Int(prefix - 0x80)
            guard length <= available else { throw RLPDecodingError(.lengthPastInput, at: start) }
            if length == 1 && p[start + 1] < 0x80 { throw RLPDecodingError(.nonCanonicalSingleByte, at: start) }
            return Header(isList: false, payloadStart: start + 1, payloadLength: length)
        case 0xb8...0xbf:
            let lengthOfLength = Int(prefix - 0xb7)
            let length = try longLength(p, at: start, lengthOfLength: lengthOfLength, available: available)
            return Header(isList: false, payloadStart: start + 1 + lengthOfLength, payloadLength: length)
        case 0xc0...0xf7:
            let length = Int(prefix - 0xc0)
            guard length <= available else { throw RLPDecodingError(.lengthPastInput, at: start) }
            return Header(isList: true, payloadStart: start + 1, payloadLength: length)
        default:
            let lengthOfLength = Int(prefix - 0xf7)
            let length = try longLength(p, at: start, lengthOfLength: lengthOfLength, available: available)
            return Header(isList: true, payloadStart: start + 1 + lengthOfLength, payloadLength: length)
        }
    }

    @inlinable
    static func longLength(
        _ p: UnsafeBufferPointer<UInt8>, at start: Int, lengthOfLength: Int, available: Int
    ) throws(RLPDecodingError) -> Int {
        guard lengthOfLength <= available else { throw RLPDecodingError(.lengthPastInput, at: start) }
        guard p[start + 1] != 0 else { throw RLPDecodingError(.leadingZeroInLength, at: start) }
        guard lengthOfLength <= 7 else { throw RLPDecodingError(.lengthOverflow, at: start) }
        var length = 0
        for i in 0..<lengthOfLength {
            length = length << 8 | Int(p[start + 1 + i])
        }
        guard length >= 56 else { throw RLPDecodingError(.nonCanonicalLength, at: start) }
        guard length <= available - lengthOfLength else { throw RLPDecodingError(.lengthPastInput, at: start) }
        return length
    }

    /// Reads the next item, which must be a byte string, and returns its payload.
    @inlinable
    public mutating func readBytes() throws(RLPDecodingError) -> ArraySlice<UInt8> {
        let header = try peekHeader()
        guard !header.isList else { throw RLPDecodingError(.expectedBytes, at: position) }
        _position = header.payloadStart + header.payloadLength
        return buffer[header.payloadStart..<position]
    }

    /// Reads the next item, which must be a list, and returns a reader over its payload.
    @inlinable
    public mutating func readList() throws(RLPDecodingError) -> RLPReader {
        let header = try peekHeader()
        guard header.isList else { throw RLPDecodingError(.expectedList, at: position) }
        _position = header.payloadStart + header.payloadLength
        return RLPReader(buffer: buffer, position: header.payloadStart, end: position)
    }

    /// Skips the next item and returns the range of its full encoding (header included).
    public mutating func skipItem() throws(RLPDecodingError) -> Range<Int> {
        let start = position
        let header = try peekHeader()
        _position = header.payloadStart + header.payloadLength
        return start..<position
    }

    /// Reads a canonical big-endian unsigned integer of at most 8 bytes (no leading zeros; zero is empty).
    @inlinable
    public mutating func readUInt64() throws(RLPDecodingError) -> UInt64 {
        let at = position
        let bytes = try readBytes()
        guard bytes.count <= 8 else { throw RLPDecodingError(.integerOverflow, at: at) }
        if let first = bytes.first, first == 0 { throw RLPDecodingError(.leadingZeroInInteger, at: at) }
        var value: UInt64 = 0
        for b in bytes { value = value << 8 | UInt64(b) }
        return value
    }

    /// Reads a canonical big-endian unsigned integer of at most `maxBytes` bytes, returning its minimal bytes.
    @inlinable
    public mutating func readUnsignedIntegerBytes(maxBytes: Int) throws(RLPDecodingError) -> ArraySlice<UInt8> {
        let at = position
        let bytes = try readBytes()
        guard bytes.count <= maxBytes else { throw RLPDecodingError(.integerOverflow, at: at) }
        if let first = bytes.first, first == 0 { throw RLPDecodingError(.leadingZeroInInteger, at: at) }
        return bytes
    }

    /// Reads a byte string of exactly `length` bytes.
    @inlinable
    public mutating func readFixedBytes(_ length: Int) throws(RLPDecodingError) -> ArraySlice<UInt8> {
        let at = position
        let bytes = try readBytes()
        guard bytes.count == length else {
            throw RLPDecodingError(.wrongByteLength(expected: length, actual: bytes.count), at: at)
        }
        return bytes
    }
}
