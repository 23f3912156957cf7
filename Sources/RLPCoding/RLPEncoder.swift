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

    /// Appends a list whose items `body` appends. The payload is written in place after a one-byte
    /// placeholder; a long-form header shifts it once, without allocating.
    @inlinable
    public mutating func appendList(_ body: (inout RLPEncoder) throws -> Void) rethrows {
        let headerIndex = bytes.count
        bytes.append(0xc0)
        try body(&self)
        let length = bytes.count - headerIndex - 1
        if length < 56 {
            bytes[headerIndex] = 0xc0 + UInt8(length)
        } else {
            let lengthBytes = (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
            bytes[headerIndex] = 0xf7 + UInt8(lengthBytes)
            bytes.insert(contentsOf: repeatElement(0, count: lengthBytes), at: headerIndex + 1)
            for i in 0..<lengthBytes {
                bytes[headerIndex + 1 + i] = UInt8(truncatingIfNeeded: length >> ((lengthBytes - 1 - i) * 8))
            }
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
