import EthereumNode
import JSONCoding
import ScenarioRunner
import Testing

/// Durations in scenario files go through the one checked parser: a value over the limit is a load-time error naming
/// it (`advanceTime: 213503982334601d` passed the old check and trapped in the in-process clock), and a time
/// expression over it fails its step (`createdAtTime: now+99999999999999999d` trapped while the step ran).
@Suite struct OutsideValueLimitTests {
    @Test(arguments: [
        ("advanceTime", "213503982334601d"), ("advanceTime", "99999999999999999d"),
        ("advanceTime", "18446744073709551615"), ("icpAdvanceTime", "36525d1s"),
    ])
    func durationsOverTheLimitAreLoadErrors(action: String, value: String) {
        let yaml = "steps:\n  - \(action): \(value)\n"
        let column = "  - \(action): ".count + 1
        #expect {
            try ScenarioParser.parse(yaml: yaml, file: "far.yaml")
        } throws: { error in
            let message = (error as? ScenarioFormatError)?.description ?? "\(error)"
            #expect(
                message
                    == "far.yaml:2:\(column): step 1 \(action): duration '\(value)' is longer than the limit of 3155760000 seconds (100 years)"
            )
            return error is ScenarioFormatError
        }
    }

    @Test func theLongestDurationRuns() async throws {
        let scenario = try ScenarioParser.parse(
            yaml: "steps:\n  - advanceTime: 36524d\n  - advanceTime: 36524d\n  - mine: 1\n", file: "long.yaml")
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions())
        #expect(result.status == .passed, "\(result.failureReport)")
    }

    @Test(arguments: ["now+99999999999999999d", "now+213503982334601d", "now-99999999999999999d"])
    func timeExpressionsOverTheLimitFailTheStep(time: String) async throws {
        let yaml = """
            accounts:
              alice: {dev: 0}
              bob: random
            steps:
              - icrc1Transfer: {from: alice, to: bob, amount: 1 ICP, createdAtTime: "\(time)"}
            """
        let result = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: yaml, file: "time.yaml"), options: ScenarioRunOptions())
        #expect(result.status == .failed)
        #expect(
            result.failureReport.contains(
                "duration '\(time.dropFirst(4))' is longer than the limit of 3155760000 seconds (100 years)"),
            "\(result.failureReport)")
    }

    /// A balance shown with 77 decimals rounded to whole units: 2 × the cut-off part passed 2^256-1 and trapped (the
    /// balance is the node's: 9 × 10^76 wei here, set through anvil_setBalance).
    @Test(arguments: [("halfUp", "1"), ("halfEven", "1"), ("down", "0")])
    func roundingAtSeventySevenDecimals(rounding: String, shown: String) async throws {
        let shared = try InProcessBackend(configuration: NodeConfiguration())
        _ = try await shared.call(
            "anvil_setBalance",
            [
                .string("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
                .string("0xc6fa31df9e61c35d428a5a0b2b8e75453322d57cfe3d90000000000000000000"),
            ])
        let yaml = """
            accounts:
              alice: {dev: 0}
            steps:
              - check:
                  - balance: {of: alice, formatted: "\(shown)", unit: "77", decimals: 0, rounding: \(rounding)}
            """
        let result = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: yaml, file: "round.yaml"), options: ScenarioRunOptions(), shared: shared)
        #expect(result.status == .passed, "\(result.failureReport)")
    }
}
