/// A non-allocating read cursor over the bytes of a Candid message.
///
/// All reads are bounds-checked and throw `CandidDecodingError` instead of trapping. The cursor is only valid inside
/// the `withUnsafeBytes` scope that created it.
struct CandidByteCursor {
    let base: UnsafeRawBufferPointer
    var position: Int

    init(_ base: UnsafeRawBufferPointer, position: Int = 0) {
        self.base = base
        self.position = position
    }

    @inline(__always) var remaining: Int { base.count &- position }
    @inline(__always) var isAtEnd: Bool { position >= base.count }

    @inline(__always)
    func fail(_ reason: CandidDecodingError.Reason, _ context: String) -> CandidDecodingError {
        CandidDecodingError(reason, at: position, context)
    }

    @inline(__always)
    mutating func readByte(_ what: @autoclosure () -> String = "byte") throws(CandidDecodingError) -> UInt8 {
        guard position < base.count else { throw fail(.unexpectedEnd, "input ended while reading \(what())") }
        let byte = base[position]
        position &+= 1
        return byte
    }

    /// Reads `count` bytes and returns their range in `base`.
    @inline(__always)
    mutating func readRange(_ count: Int, _ what: @autoclosure () -> String) throws(CandidDecodingError) -> Range<Int> {
        guard count >= 0, count <= remaining else {
            throw fail(.unexpectedEnd, "\(what()) needs \(count) bytes but only \(remaining) remain")
        }
        let start = position
        position &+= count
        return start..<position
    }

    /// Copies the bytes of a range previously returned by `readRange` into a new array (one memcpy).
    @inline(__always)
    func copyBytes(_ range: Range<Int>) -> [UInt8] {
        let count = range.count
        guard count > 0, let source = base.baseAddress else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let destination = buffer.baseAddress {
                UnsafeMutableRawPointer(destination).copyMemory(from: source + range.lowerBound, byteCount: count)
                initialized = count
            }
        }
    }

    /// Reads a little-endian fixed-width integer.
    @inline(__always)
    mutating func readFixed<T: FixedWidthInteger>(_: T.Type, _ what: @autoclosure () -> String)
        throws(CandidDecodingError) -> T
    {
        let size = MemoryLayout<T>.size
        guard size <= remaining else {
            throw fail(.unexpectedEnd, "\(what()) needs \(size) bytes but only \(remaining) remain")
        }
        let value = base.loadUnaligned(fromByteOffset: position, as: T.self)
        position &+= size
        return T(littleEndian: value)
    }

    /// Reads an unsigned LEB128 number that must fit in 64 bits. Over-long encodings are accepted.
    @inline(__always)
    mutating func readLEB(_ what: @autoclosure () -> String) throws(CandidDecodingError) -> UInt64 {
        guard position < base.count else { throw fail(.unexpectedEnd, "input ended while reading \(what())") }
        let first = base[position]
        if first < 0x80 {
            position &+= 1
            return UInt64(first)
        }
        return try readLEBSlow(what())
    }

    mutating func readLEBSlow(_ what: String) throws(CandidDecodingError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < base.count else {
                throw CandidDecodingError(.unexpectedEnd, at: start, "LEB128 \(what) is truncated")
            }
            let byte = base[position]
            position &+= 1
            let payload = UInt64(byte & 0x7f)
            if shift < 64 {
                if shift > 57, payload >> (64 - shift) != 0 {
                    throw CandidDecodingError(.invalidNumber, at: start, "LEB128 \(what) exceeds 64 bits")
                }
                result |= payload << shift
            } else if payload != 0 {
                throw CandidDecodingError(.invalidNumber, at: start, "LEB128 \(what) exceeds 64 bits")
            }
            if byte < 0x80 { return result }
            shift &+= 7
        }
    }

    /// Reads an unsigned LEB128 length or count as `Int`.
    @inline(__always)
    mutating func readLength(_ what: @autoclosure () -> String) throws(CandidDecodingError) -> Int {
        let start = position
        let value = try readLEB(what())
        guard value <= UInt64(Int32.max) else {
            throw CandidDecodingError(.limitExceeded, at: start, "\(what()) \(value) is implausibly large")
        }
        return Int(value)
    }

    /// Reads a signed LEB128 number that must fit in 64 bits.
    mutating func readSLEB(_ what: @autoclosure () -> String) throws(CandidDecodingError) -> Int64 {
        let start = position
        var result: Int64 = 0
        var shift: Int64 = 0
        var byte: UInt8 = 0
        repeat {
            guard position < base.count else {
                throw CandidDecodingError(.unexpectedEnd, at: start, "SLEB128 \(what()) is truncated")
            }
            byte = base[position]
            position &+= 1
            guard shift < 63 || (byte & 0x7f == 0 || byte & 0x7f == 0x7f) else {
                throw CandidDecodingError(.invalidNumber, at: start, "SLEB128 \(what()) exceeds 64 bits")
            }
            if shift < 64 { result |= Int64(byte & 0x7f) << shift }
            shift &+= 7
        } while byte >= 0x80
        if shift < 64, byte & 0x40 != 0 { result |= -1 << shift }
        return result
    }

    /// Reads the 7-bit groups of a LEB128 number of any length.
    mutating func readGroups(_ what: String) throws(CandidDecodingError) -> Range<Int> {
        let start = position
        while true {
            guard position < base.count else {
                throw CandidDecodingError(.unexpectedEnd, at: start, "LEB128 \(what) is truncated")
            }
            let byte = base[position]
            position &+= 1
            if byte < 0x80 { return start..<position }
        }
    }

    /// Reads an unsigned LEB128 `nat` of any size.
    @inline(__always)
    mutating func readNat() throws(CandidDecodingError) -> CandidNat {
        if position < base.count, base[position] < 0x80 {
            let byte = base[position]
            position &+= 1
            return CandidNat(UInt64(byte))
        }
        let range = try readGroups("nat")
        return CandidLEB128.nat(fromGroups: UnsafeRawBufferPointer(rebasing: base[range]), negate: false)
    }

    /// Reads a signed LEB128 `int` of any size.
    @inline(__always)
    mutating func readInt() throws(CandidDecodingError) -> CandidInt {
        let range = try readGroups("int")
        let groups = UnsafeRawBufferPointer(rebasing: base[range])
        let last = groups[groups.count - 1]
        if last & 0x40 == 0 {
            return CandidInt(CandidLEB128.nat(fromGroups: groups, negate: false))
        }
        let complement = CandidLEB128.nat(fromGroups: groups, negate: true)
        return CandidInt(isNegative: true, magnitude: complement.incremented())
    }
}
