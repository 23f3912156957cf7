import ByteCoding

/// LEB128 and SLEB128 of Candid's unbounded `nat` and `int` (Candid spec, "Notation": `leb128` and `sleb128`);
/// fixed-width numbers go through ByteCoding's ``LEB128``.
enum CandidLEB128 {
    /// Appends a `nat` as unsigned LEB128.
    static func append(_ nat: CandidNat, to bytes: inout [UInt8]) {
        if let small = nat.uint64Value {
            LEB128.append(small, to: &bytes)
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
            LEB128.append(signed: small, to: &bytes)
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
