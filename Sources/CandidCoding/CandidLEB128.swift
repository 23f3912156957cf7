/// LEB128 and SLEB128 helpers (Candid spec, "Notation": `leb128` and `sleb128`).
enum CandidLEB128 {
    /// Appends an unsigned LEB128 number.
    @inline(__always)
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends a signed LEB128 number.
    @inline(__always)
    static func append(signed value: Int64, to bytes: inout [UInt8]) {
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

    /// Number of bytes the unsigned LEB128 encoding of `value` takes.
    static func size(_ value: UInt64) -> Int {
        var value = value
        var count = 1
        while value >= 0x80 {
            value >>= 7
            count += 1
        }
        return count
    }

    /// Appends a `nat` as unsigned LEB128.
    static func append(_ nat: CandidNat, to bytes: inout [UInt8]) {
        if let small = nat.uint64Value {
            append(small, to: &bytes)
            return
        }
        let groups = (nat.bitWidth + 6) / 7
        for group in 0..<groups {
            let bits = nat.sevenBits(atGroup: group)
            bytes.append(group == groups - 1 ? bits : bits | 0x80)
        }
    }

    /// Appends an `int` as signed LEB128.
    static func append(_ int: CandidInt, to bytes: inout [UInt8]) {
        if let small = int.int64Value {
            append(signed: small, to: &bytes)
            return
        }
        if !int.isNegative {
            // Emit groups until the remaining value is zero and the sign bit of the last group is clear.
            let nat = int.magnitude
            var group = 0
            while true {
                let bits = nat.sevenBits(atGroup: group)
                let done = (group + 1) * 7 >= nat.bitWidth && bits & 0x40 == 0
                bytes.append(done ? bits : bits | 0x80)
                if done { return }
                group += 1
            }
        }
        // Negative: the two's complement bits are the complement of (magnitude - 1).
        let base = int.magnitude.decremented()
        var group = 0
        while true {
            let bits = ~base.sevenBits(atGroup: group) & 0x7f
            let done = (group + 1) * 7 >= base.bitWidth && bits & 0x40 != 0
            bytes.append(done ? bits : bits | 0x80)
            if done { return }
            group += 1
        }
    }

    /// Builds a natural number from LEB128 7-bit groups; with `negate`, each group is complemented first.
    static func nat(fromGroups groups: UnsafeRawBufferPointer, negate: Bool) -> CandidNat {
        var limbs = [UInt64](repeating: 0, count: (groups.count * 7 + 63) / 64)
        for index in 0..<groups.count {
            var bits = UInt64(groups[index] & 0x7f)
            if negate { bits = ~bits & 0x7f }
            let bit = index * 7
            limbs[bit / 64] |= bits << UInt64(bit % 64)
            if bit % 64 > 57 { limbs[bit / 64 + 1] |= bits >> UInt64(64 - bit % 64) }
        }
        return CandidNat(limbs: limbs)
    }
}
