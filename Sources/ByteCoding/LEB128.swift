/// LEB128 ("little-endian base 128") integers: 7 bits per byte, least significant group first, the high bit set
/// on every byte but the last (DWARF 5 §7.6; Candid spec §Notation `leb128`/`sleb128`). Protobuf varints are
/// unsigned LEB128; the IC hashes integers and writes naturals into state trees with it.
public enum LEB128 {
    /// Appends the unsigned LEB128 encoding of `value`.
    @inlinable
    public static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends the signed LEB128 (two's complement) encoding of `value`.
    @inlinable
    public static func append(signed value: Int64, to bytes: inout [UInt8]) {
        var value = value
        while true {
            let byte = UInt8(truncatingIfNeeded: value) & 0x7f
            value >>= 7
            if (value == 0 && byte & 0x40 == 0) || (value == -1 && byte & 0x40 != 0) {
                bytes.append(byte)
                return
            }
            bytes.append(byte | 0x80)
        }
    }

    /// The number of bytes the unsigned LEB128 encoding of `value` takes (1 to 10).
    public static func size(_ value: UInt64) -> Int {
        (max(64 - value.leadingZeroBitCount, 1) + 6) / 7
    }

    /// The unsigned LEB128 encoding of `value`.
    public static func unsigned(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(size(value))
        append(value, to: &out)
        return out
    }

    /// The signed LEB128 encoding of `value`.
    public static func signed(_ value: Int64) -> [UInt8] {
        var out: [UInt8] = []
        append(signed: value, to: &out)
        return out
    }

    /// The unsigned LEB128 encoding of a natural number of any size given as big-endian bytes (leading zero
    /// bytes allowed; the empty magnitude is 0).
    public static func unsigned(bigEndian magnitude: some BidirectionalCollection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((magnitude.count * 8 + 6) / 7)
        var buffer: UInt32 = 0  // fewer than 15 pending bits
        var bits = 0
        for byte in magnitude.reversed() {
            buffer |= UInt32(byte) << UInt32(bits)
            bits += 8
            while bits >= 7 {
                out.append(UInt8(truncatingIfNeeded: buffer) & 0x7f | 0x80)
                buffer >>= 7
                bits -= 7
            }
        }
        if bits > 0 { out.append(UInt8(truncatingIfNeeded: buffer) | 0x80) }
        while out.count > 1, out[out.count - 1] == 0x80 { out.removeLast() }
        guard !out.isEmpty else { return [0] }
        out[out.count - 1] &= 0x7f
        return out
    }

    /// The signed LEB128 encoding of `-1 - n` (a CBOR negative integer), for every `n` up to 2^64 - 1.
    public static func signed(negativeOneMinus n: UInt64) -> [UInt8] {
        // -1 - n is the complement of n with ones above bit 63; the shift fills ones (an arithmetic shift of a
        // 65-bit negative number).
        var value = ~n
        var out: [UInt8] = []
        while true {
            let byte = UInt8(truncatingIfNeeded: value) & 0x7f
            value = value >> 7 | 0xFE00_0000_0000_0000
            if value == UInt64.max && byte & 0x40 != 0 {
                out.append(byte)
                return out
            }
            out.append(byte | 0x80)
        }
    }
}
