import EthereumTypes
import RLPCoding

extension UInt256 {
    /// Interprets up to 32 big-endian bytes without allocating.
    /// - Precondition: `bytes.count <= 32` (callers check lengths of untrusted input first).
    init(bigEndianWord bytes: ArraySlice<UInt8>) {
        precondition(bytes.count <= 32, "more than 32 bytes for a UInt256")
        var limbs: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var shift: UInt64 = 0
        var limb = 0
        var index = bytes.endIndex
        while index > bytes.startIndex {
            index -= 1
            let byte = UInt64(bytes[index]) << shift
            switch limb {
            case 0: limbs.0 |= byte
            case 1: limbs.1 |= byte
            case 2: limbs.2 |= byte
            default: limbs.3 |= byte
            }
            shift += 8
            if shift == 64 {
                shift = 0
                limb += 1
            }
        }
        self.init(limbs: limbs)
    }

    /// Number of bytes in the minimal big-endian form (0 for zero).
    var minimalByteCount: Int { (bitWidthUsed + 7) / 8 }

    /// The big-endian byte at `index` of the 32-byte form (0 is the most significant).
    func byte(at index: Int) -> UInt8 {
        let fromLow = 31 - index
        let limb: UInt64
        switch fromLow / 8 {
        case 0: limb = limbs.0
        case 1: limb = limbs.1
        case 2: limb = limbs.2
        default: limb = limbs.3
        }
        return UInt8(truncatingIfNeeded: limb >> UInt64((fromLow % 8) * 8))
    }
}

extension RLPEncoder {
    /// Appends an unsigned 256-bit integer as its minimal big-endian byte string (zero is the empty string).
    mutating func appendUInt256(_ value: UInt256) {
        if let small = value.uint64Value {
            appendUInt64(small)
            return
        }
        let count = value.minimalByteCount
        bytes.append(0x80 + UInt8(count))
        for i in (32 - count)..<32 { bytes.append(value.byte(at: i)) }
    }

    /// Appends exactly 32 big-endian bytes (a storage key).
    mutating func appendWord(_ value: UInt256) {
        bytes.append(0xa0)
        for i in 0..<32 { bytes.append(value.byte(at: i)) }
    }

    /// Appends a 20-byte address, or the empty string for contract creation.
    mutating func appendAddress(_ address: Address?) {
        if let address {
            appendBytes(address.bytes)
        } else {
            bytes.append(0x80)
        }
    }

    /// Appends an EIP-2930 access list: `[[address, [storageKey, …]], …]`.
    mutating func appendAccessList(_ list: [AccessListEntry]) {
        appendList { e in
            for entry in list {
                e.appendList { e in
                    e.appendBytes(entry.address.bytes)
                    e.appendList { e in
                        for key in entry.storageKeys { e.appendWord(key) }
                    }
                }
            }
        }
    }
}

extension RLPEncoder {
    /// Encodes `type ‖ rlp([body…])` (no type byte for legacy transactions) in one buffer: the list header is
    /// written into reserved space in front of the body, so no intermediate arrays are allocated.
    static func envelope(type: UInt8?, capacity: Int, _ body: (inout RLPEncoder) -> Void) -> [UInt8] {
        let reserved = 10  // a type byte and a list header of at most 9 bytes
        var encoder = RLPEncoder(capacity: capacity + reserved)
        encoder.bytes.append(contentsOf: repeatElement(0, count: reserved))
        body(&encoder)
        let length = encoder.bytes.count - reserved
        let lengthBytes = length < 56 ? 0 : (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
        var start = reserved - 1 - lengthBytes
        if lengthBytes == 0 {
            encoder.bytes[start] = 0xc0 + UInt8(length)
        } else {
            encoder.bytes[start] = 0xf7 + UInt8(lengthBytes)
            for i in 0..<lengthBytes {
                encoder.bytes[start + 1 + i] = UInt8(truncatingIfNeeded: length >> ((lengthBytes - 1 - i) * 8))
            }
        }
        if let type {
            start -= 1
            encoder.bytes[start] = type
        }
        encoder.bytes.removeSubrange(0..<start)
        return encoder.bytes
    }
}

/// Sizes of canonical RLP integers, for reading fields back out of an encoding.
enum RLPLength {
    /// Bytes of the canonical encoding of `value` (header included).
    static func of(_ value: UInt256) -> Int {
        if let small = value.uint64Value, small < 0x80 { return 1 }
        return 1 + value.minimalByteCount
    }

    /// Writes the canonical encoding of `value` at the start of `out` (at least 9 bytes) and returns its length.
    static func write(_ value: UInt64, into out: UnsafeMutableRawBufferPointer) -> Int {
        if value == 0 {
            out[0] = 0x80
            return 1
        }
        if value < 0x80 {
            out[0] = UInt8(value)
            return 1
        }
        let count = (64 - value.leadingZeroBitCount + 7) / 8
        out[0] = 0x80 + UInt8(count)
        for i in 0..<count { out[1 + i] = UInt8(truncatingIfNeeded: value >> UInt64((count - 1 - i) * 8)) }
        return 1 + count
    }
}
