import EthereumTypes
import Testing

/// The one checked parser of durations and amounts that `sandnet`'s flags and scenario files share (issues 28, 38).
@Suite struct QuantityParserTests {
    @Test(
        arguments: [
            ("90", 90), ("90s", 90), ("30m", 1_800), ("24h", 86_400), ("2d", 172_800), ("1h30m", 5_400),
            ("1d1h1m1s", 90_061), (" 5m ", 300), ("0s", 0), ("3155760000", 3_155_760_000), ("36524d", 3_155_673_600),
        ] as [(String, UInt64)])
    func durations(text: String, seconds: UInt64) throws {
        #expect(try QuantityParser.seconds(text) == seconds)
    }

    @Test(arguments: ["", "3x", "h", "1.5h", "-5s", "5 m", "1h-"])
    func notDurations(text: String) {
        #expect(throws: QuantityError.invalidDuration(text)) { try QuantityParser.seconds(text) }
    }

    /// Values that trapped: 99999999999999999d overflowed `n * 86_400` in the CLI and in scenario time expressions.
    @Test(arguments: [
        "99999999999999999d", "213503982334601d", "18446744073709551615", "99999999999999999999999", "3155760001",
        "36525d1s", "1d18446744073709551615s",
    ])
    func durationsOverTheLimit(text: String) {
        #expect(throws: QuantityError.durationTooLong(text, limit: QuantityParser.maxDurationSeconds)) {
            try QuantityParser.seconds(text)
        }
        let message = String(describing: QuantityError.durationTooLong(text, limit: QuantityParser.maxDurationSeconds))
        #expect(message == "duration '\(text)' is longer than the limit of 3155760000 seconds (100 years)")
    }

    @Test func aCallerLimitIsNamed() {
        #expect(throws: QuantityError.durationTooLong("2d", limit: 86_400)) {
            try QuantityParser.seconds("2d", limit: 86_400)
        }
        #expect(throws: Never.self) { try QuantityParser.seconds("1d", limit: 86_400) }
    }

    @Test func amounts() throws {
        #expect(try QuantityParser.amount("1.5 ether") == UInt256(1_500_000_000_000_000_000 as UInt64))
        #expect(try QuantityParser.amount("2", defaultUnit: "gwei") == UInt256(2_000_000_000 as UInt64))
        let huge = "1" + String(repeating: "0", count: 80) + " ether"
        #expect(throws: QuantityError.invalidAmount(huge, .overflow)) { try QuantityParser.amount(huge) }
        #expect(
            String(describing: QuantityError.invalidAmount(huge, .overflow))
                == "amount '\(huge)' is larger than the limit of 2^256-1 base units")
        #expect(throws: QuantityError.invalidAmount("1 banana", .unknownUnit("banana"))) {
            try QuantityParser.amount("1 banana")
        }
    }

    @Test func amountsWithALimit() throws {
        let e8sLimit = UInt256(UInt64.max)
        #expect(try QuantityParser.amount("0.5", decimals: 8, limit: e8sLimit) == UInt256(50_000_000 as UInt64))
        #expect(try QuantityParser.amount("184467440737.09551615", decimals: 8, limit: e8sLimit) == e8sLimit)
        #expect(throws: QuantityError.amountTooLarge("184467440737.09551616", limit: "184467440737.09551615")) {
            try QuantityParser.amount("184467440737.09551616", decimals: 8, limit: e8sLimit)
        }
        let beyond256 = String(repeating: "9", count: 80)
        #expect(throws: QuantityError.amountTooLarge(beyond256, limit: "184467440737.09551615")) {
            try QuantityParser.amount(beyond256, decimals: 8, limit: e8sLimit)
        }
        #expect(throws: QuantityError.invalidAmount("0.123456789", .tooManyDecimals(allowed: 8))) {
            try QuantityParser.amount("0.123456789", decimals: 8, limit: e8sLimit)
        }
    }

    @Test func wholeTokensInBaseUnits() {
        #expect(QuantityParser.baseUnits(whole: 1_000, decimals: 6) == UInt256(1_000_000_000 as UInt64))
        #expect(QuantityParser.baseUnits(whole: 1, decimals: 77) == Units.powerOfTen(77))
        #expect(QuantityParser.baseUnits(whole: 12, decimals: 77) == nil)
        #expect(QuantityParser.baseUnits(whole: 1_000_000_000, decimals: 69) == nil)
        #expect(QuantityParser.baseUnits(whole: 0, decimals: 200) == .zero)
        #expect(QuantityParser.baseUnits(whole: 1, decimals: 78) == nil)
    }
}
