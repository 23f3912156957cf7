/// Appends canonical RLP into one growing buffer (Yellow Paper appendix B).
public struct RLPEncoder: Sendable {
    public var bytes: [UInt8]

    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends a byte string.
    @inlinable
    public mutating func appendBytes<Bytes: Collection<UInt8>>(_ payload: Bytes) {
        let count = payload.count
        if count == 1, let only = payload.first, only < 0x80 {
            bytes.append(only)
            return
        }
        appendHeader(count, shortBase: 0x80)
        bytes.append(contentsOf: payload)
    }

    /// Appends an unsigned integer as its minimal big-endian byte string (zero is the empty string).
    @inlinable
    public mutating func appendUInt64(_ value: UInt64) {
        if value == 0 {
            bytes.append(0x80)
        } else if value < 0x80 {
            bytes.append(UInt8(value))
        } else {
            let length = (64 - value.leadingZeroBitCount + 7) / 8
            bytes.append(0x80 + UInt8(length))
            for i in stride(from: length - 1, through: 0, by: -1) {
                bytes.append(UInt8(truncatingIfNeeded: value >> (UInt64(i) * 8)))
            }
        }
    }

    /// Appends a list whose items `body` appends.
    @inlinable
    public mutating func appendList(_ body: (inout RLPEncoder) throws -> Void) rethrows {
        let start = bytes.count
        try body(&self)
        let length = bytes.count - start
        if length < 56 {
            bytes.insert(0xc0 + UInt8(length), at: start)
        } else {
            var header: [UInt8] = [0]
            var n = length
            var digits: [UInt8] = []
            while n > 0 {
                digits.append(UInt8(n & 0xff))
                n >>= 8
            }
            header[0] = 0xf7 + UInt8(digits.count)
            header.append(contentsOf: digits.reversed())
            bytes.insert(contentsOf: header, at: start)
        }
    }

    /// Appends an already-encoded item verbatim.
    @inlinable
    public mutating func appendRaw<Bytes: Collection<UInt8>>(_ encoded: Bytes) {
        bytes.append(contentsOf: encoded)
    }

    @inlinable
    mutating func appendHeader(_ length: Int, shortBase: UInt8) {
        if length < 56 {
            bytes.append(shortBase + UInt8(length))
        } else {
            let lengthBytes = (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
            bytes.append(shortBase + 55 + UInt8(lengthBytes))
            for i in stride(from: lengthBytes - 1, through: 0, by: -1) {
                bytes.append(UInt8(truncatingIfNeeded: length >> (i * 8)))
            }
        }
    }
}
