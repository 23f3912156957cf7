import EthereumTypes
import Testing

@Suite struct UInt256Tests {
    @Test func decimalAndHexRoundTrip() {
        let max = "115792089237316195423570985008687907853269984665640564039457584007913129639935"
        #expect(UInt256(decimal: max) == UInt256.max)
        #expect(UInt256.max.description == max)
        #expect(UInt256(decimal: max + "0") == nil)
        #expect(UInt256.max.hexDigits == String(repeating: "f", count: 64))
        #expect(UInt256(hexDigits: "0000ff") == UInt256(255))
        #expect(UInt256(1_000_000_000_000_000_000 as UInt64).description == "1000000000000000000")
    }

    @Test func arithmeticReportsOverflow() {
        #expect(UInt256.max.addingReportingOverflow(1).overflow)
        #expect(UInt256.zero.subtractingReportingOverflow(1).overflow)
        let big = UInt256(1) << 200
        #expect(big.multipliedReportingOverflow(by: UInt256(1) << 56).overflow)
        #expect(!big.multipliedReportingOverflow(by: UInt256(1) << 55).overflow)
        let a = UInt256(decimal: "170141183460469231731687303715884105729")!  // 2^127 + 1
        #expect((a * a).description == "28948022309329048855892746252171976963657778533331079473327770609410050621441")
        #expect((a * a) / a == a)
        #expect((a * a + 5) % a == 5)
        #expect((UInt256(1) << 255) >> 255 == 1)
    }
}

@Suite struct UnitsTests {
    @Test(arguments: [
        ("1.5 ether", "1500000000000000000"), ("0.1 ether", "100000000000000000"), ("20 gwei", "20000000000"),
        ("1ether", "1000000000000000000"), ("100", "100"), ("0.000000001 ether", "1000000000"),
        ("1_000 wei", "1000"), ("1.50 gwei", "1500000000"),
    ])
    func parses(text: String, wei: String) throws {
        #expect(try Units.parse(text).description == wei)
    }

    @Test func rejectsBadAmounts() {
        #expect(throws: Units.ParseError.tooManyDecimals(allowed: 9)) { try Units.parse("1.0000000001 gwei") }
        #expect(throws: Units.ParseError.unknownUnit("bananas")) { try Units.parse("1 bananas") }
        #expect(throws: Units.ParseError.invalidNumber("1.2.3")) { try Units.parse("1.2.3 ether") }
        #expect(throws: Units.ParseError.empty) { try Units.parse("  ") }
    }

    @Test func formatsExactly() {
        #expect(Units.format(UInt256(1_500_000_000_000_000_000 as UInt64), decimals: 18) == "1.5")
        #expect(Units.format(UInt256(1), decimals: 18) == "0.000000000000000001")
        #expect(Units.format(UInt256(3_000_000_000 as UInt64), decimals: 9) == "3")
    }
}

@Suite struct QuantityTests {
    @Test func strictQuantities() throws {
        #expect(try Quantity.parseUInt64("0x0") == 0)
        #expect(try Quantity.parseUInt64("0x1a") == 26)
        #expect(throws: Quantity.ParseError.leadingZero) { try Quantity.parseUInt64("0x01") }
        #expect(throws: Quantity.ParseError.emptyNumber) { try Quantity.parseUInt64("0x") }
        #expect(throws: Quantity.ParseError.missingPrefix) { try Quantity.parseUInt64("12") }
        #expect(throws: Quantity.ParseError.tooLarge(bits: 64)) { try Quantity.parseUInt64("0x10000000000000000") }
        #expect(Quantity.encode(UInt64(0)) == "0x0")
        #expect(Quantity.encode(UInt256(255)) == "0xff")
    }

    @Test func data() throws {
        #expect(try Quantity.parseData("0x") == [])
        #expect(try Quantity.parseData("0x0aFF") == [0x0a, 0xff])
        #expect(throws: Quantity.ParseError.oddLength) { try Quantity.parseData("0xabc") }
    }
}

@Suite struct AddressTests {
    @Test func checksumValidation() throws {
        let good = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
        #expect(try Address(parsing: good).checksummed == good)
        #expect(throws: Address.ParseError.badChecksum(expected: good)) {
            try Address(parsing: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
        }
        #expect(throws: Address.ParseError.wrongLength(38)) {
            try Address(parsing: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1bea")
        }
        #expect(throws: Address.ParseError.missingPrefix) {
            try Address(parsing: "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
        }
    }
}

/// The fast paths of issue 17 agree with the definitions they replace.
@Suite struct FastPathTests {
    @Test func productsOfSmallFactorsAreExact() {
        let max64 = UInt256(UInt64.max)
        #expect((max64 * max64).hexDigits == "fffffffffffffffe0000000000000001")
        #expect((UInt256(21_000 as UInt64) * UInt256(1_000_000_000 as UInt64)).description == "21000000000000")
        #expect(max64.multipliedReportingOverflow(by: .zero) == (UInt256.zero, false))
        // One wide factor takes the general path; the product is the same either way round.
        let wide = (UInt256(1) << 130) + 7
        #expect(wide * UInt256(3) == UInt256(3) * wide)
        #expect((wide * UInt256(3)).description == "4083388403051261561560495289181218537493")
    }

    @Test func bigEndianBytesRoundTripAtEveryWidth() {
        for width in 0...32 {
            let bytes = (0..<width).map { UInt8(truncatingIfNeeded: 0xa1 &+ $0 &* 37) }
            let value = UInt256(bigEndian: bytes)!
            let minimal = Array(bytes.drop { $0 == 0 })
            #expect(value.minimalBigEndianBytes == minimal, "width \(width)")
            #expect(value.bigEndianBytes == [UInt8](repeating: 0, count: 32 - width) + bytes, "width \(width)")
        }
        #expect(UInt256(bigEndian: [UInt8](repeating: 1, count: 33)) == nil)
        #expect(UInt256.zero.minimalBigEndianBytes == [])
    }

    @Test func addressOrderIsByteOrderAndHashingFollowsEquality() {
        let base = [UInt8](repeating: 0x80, count: 20)
        for position in 0..<20 {
            var low = base
            var high = base
            low[position] = 0x7f
            high[position] = 0x81
            // Later bytes that order the other way must not matter.
            for later in (position + 1)..<20 {
                low[later] = 0xff
                high[later] = 0x00
            }
            let a = Address(low)!
            let b = Address(high)!
            #expect(a < b && !(b < a), "byte \(position)")
            #expect(low.lexicographicallyPrecedes(high))
        }
        let same = Address(base)!
        #expect(!(same < Address(base)!))
        let set: Set<Address> = [Address(base)!, Address(base)!, Address([UInt8](repeating: 1, count: 20))!]
        #expect(set.count == 2)
        #expect(set.contains(Address(base)!))
    }
}
