/// A leaf node's RLP encoding, rlp([hex-prefix(path, leaf: true), value]) (Yellow Paper appendices B, C, D), read
/// in place. A trie leaf holds only this array: one heap block per leaf instead of a path array, a value array and
/// the encoding rebuilt whenever the leaf is hashed or proved. The bytes are always made by ``encode(path:value:)``,
/// so reading them never meets malformed input.
struct LeafEncoding {
    let bytes: [UInt8]
    /// The hex-prefix string's payload in `bytes`.
    let pathBytes: Range<Int>
    /// The value string's payload in `bytes`.
    let valueBytes: Range<Int>

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var position = bytes[0] <= 0xf7 ? 1 : 1 + Int(bytes[0] - 0xf7)
        pathBytes = Self.stringPayload(bytes, at: &position)
        valueBytes = Self.stringPayload(bytes, at: &position)
    }

    /// The payload of the RLP string at `position`, moving `position` past it.
    private static func stringPayload(_ bytes: [UInt8], at position: inout Int) -> Range<Int> {
        let first = bytes[position]
        let start: Int
        let length: Int
        if first < 0x80 {
            (start, length) = (position, 1)
        } else if first <= 0xb7 {
            (start, length) = (position + 1, Int(first - 0x80))
        } else {
            let lengthBytes = Int(first - 0xb7)
            var n = 0
            for i in 1...lengthBytes { n = n << 8 | Int(bytes[position + i]) }
            (start, length) = (position + 1 + lengthBytes, n)
        }
        position = start + length
        return start..<(start + length)
    }

    /// True when the path has an odd number of nibbles (its first nibble shares the flag byte).
    private var isOdd: Bool { bytes[pathBytes.lowerBound] & 0x10 != 0 }

    /// The number of nibbles in the path.
    var pathCount: Int { (pathBytes.count - 1) * 2 + (isOdd ? 1 : 0) }

    /// Nibble `index` of the path.
    @inline(__always)
    func nibble(_ index: Int) -> UInt8 {
        let position = index + (isOdd ? 1 : 2)
        let byte = bytes[pathBytes.lowerBound + position >> 1]
        return position & 1 == 0 ? byte >> 4 : byte & 0x0f
    }

    /// The path's nibbles.
    var path: [UInt8] {
        let count = pathCount
        return [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            for i in 0..<count { out[i] = nibble(i) }
            initialized = count
        }
    }

    /// The value.
    var value: [UInt8] { Array(bytes[valueBytes]) }

    /// True when the path is exactly `nibbles`.
    func pathEquals(_ nibbles: ArraySlice<UInt8>) -> Bool {
        guard nibbles.count == pathCount else { return false }
        var i = 0
        for n in nibbles {
            if nibble(i) != n { return false }
            i += 1
        }
        return true
    }

    /// rlp([hex-prefix(path, leaf: true), value]) in one exactly sized array.
    ///
    /// - Parameters:
    ///   - path: the leaf's nibbles (each 0…15).
    ///   - value: the leaf's value (never empty in a trie: an empty value deletes the key).
    static func encode<Path: Collection<UInt8>>(path: Path, value: [UInt8]) -> [UInt8] {
        let nibbleCount = path.count
        let pathLength = nibbleCount / 2 + 1
        // A one-byte hex-prefix string (0x20 or 0x3n, below 0x80) is its own encoding.
        let pathItem = pathLength == 1 ? 1 : 1 + pathLength
        let valueHeader: Int
        if value.count == 1 && value[0] < 0x80 {
            valueHeader = 0
        } else if value.count < 56 {
            valueHeader = 1
        } else {
            valueHeader = 1 + byteCount(value.count)
        }
        let payload = pathItem + valueHeader + value.count
        let listHeader = payload < 56 ? 1 : 1 + byteCount(payload)
        let total = listHeader + payload
        return [UInt8](unsafeUninitializedCapacity: total) { out, initialized in
            var p = 0
            func appendLength(_ length: Int, shortBase: UInt8) {
                if length < 56 {
                    out[p] = shortBase + UInt8(length)
                    p += 1
                } else {
                    let n = byteCount(length)
                    out[p] = shortBase + 55 + UInt8(n)
                    p += 1
                    for i in stride(from: n - 1, through: 0, by: -1) {
                        out[p] = UInt8(truncatingIfNeeded: length >> (i * 8))
                        p += 1
                    }
                }
            }
            appendLength(payload, shortBase: 0xc0)
            if pathLength > 1 {
                out[p] = 0x80 + UInt8(pathLength)
                p += 1
            }
            var nibbles = path.makeIterator()
            if nibbleCount & 1 == 1 {
                out[p] = 0x30 | nibbles.next()!
            } else {
                out[p] = 0x20
            }
            p += 1
            for _ in 0..<(nibbleCount / 2) {
                let high = nibbles.next()!
                out[p] = high << 4 | nibbles.next()!
                p += 1
            }
            if valueHeader > 0 { appendLength(value.count, shortBase: 0x80) }
            for byte in value {
                out[p] = byte
                p += 1
            }
            precondition(p == total, "leaf encoding size")
            initialized = total
        }
    }

    /// Bytes needed for `n` as a big-endian length.
    private static func byteCount(_ n: Int) -> Int { (Int.bitWidth - n.leadingZeroBitCount + 7) / 8 }
}
