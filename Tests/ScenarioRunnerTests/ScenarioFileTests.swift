import Foundation
import JSONCoding
import JSONRPC
import ScenarioRunner
import TestSupport
import Testing

/// The scenario library under `Scenarios/`, relative names ("tutorials/simple-wallet.yaml").
enum ScenarioLibrary {
    static var root: String { TestVectors.packageRoot + "/Scenarios" }

    static var names: [String] {
        let files = (try? ScenarioSuite.files(in: [root])) ?? []
        return files.map { String($0.dropFirst(root.count + 1)) }
    }
}

/// Every scenario file is a test case: it must parse and pass on a fresh in-process node (those under `http/` need
/// the HTTP server: SandnetServerTests runs them).
@Suite struct ScenarioFileTests {
    @Test(arguments: ScenarioLibrary.names.filter { !$0.hasPrefix("http/") })
    func scenarioPasses(_ name: String) async throws {
        let scenario = try ScenarioParser.parse(file: ScenarioLibrary.root + "/" + name)
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions(seed: 0))
        #expect(result.status == .passed, "\(result.failureReport)")
        #expect(result.steps.count == scenario.steps.count)
        #expect(result.steps.allSatisfy { $0.status == .passed })
    }

    @Test func libraryHasAtLeast25Scenarios() {
        #expect(ScenarioLibrary.names.count >= 25)
    }

    @Test func sameSeedSameChainOtherSeedOtherAccounts() async throws {
        let file = ScenarioLibrary.root + "/keys/dev-accounts.yaml"
        let scenario = try ScenarioParser.parse(file: file)
        let first = await ScenarioSuite.run(scenario, options: ScenarioRunOptions(seed: 7))
        let again = await ScenarioSuite.run(scenario, options: ScenarioRunOptions(seed: 7))
        let other = await ScenarioSuite.run(scenario, options: ScenarioRunOptions(seed: 8))
        #expect(first.status == .passed && again.status == .passed && other.status == .passed)
        let hashes = { (r: ScenarioResult) in r.steps.compactMap(\.transactionHash) }
        #expect(!hashes(first).isEmpty)
        #expect(hashes(first) == hashes(again))
        // The random recipient differs with the seed, so the transfer's hash does too.
        #expect(hashes(first) != hashes(other))
    }

    @Test func failureShowsStepExpectedActualAndTransaction() async throws {
        let yaml = """
            name: wrong expectation
            accounts:
              alice: {dev: 0}
              bob: random
            steps:
              - id: pay
                send: {from: alice, to: bob, value: 1 ether}
              - check:
                  - balance: {of: bob, equals: 2 ether}
            """
        let scenario = try ScenarioParser.parse(yaml: yaml, file: "inline.yaml")
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions())
        #expect(result.status == .failed)
        let step = try #require(result.failedStep)
        #expect(step.title == "step 2 check")
        #expect(step.location.description == "inline.yaml:8:5")
        let failure = try #require(step.failures.first)
        #expect(failure.message == "balance of bob")
        #expect(failure.expected == "== 2 ether = 2000000000000000000 (2 ether)")
        #expect(failure.actual == "1000000000000000000 (1 ether)")
        #expect(failure.location?.description == "inline.yaml:9:9")
        #expect(result.failureReport.contains("expected: == 2 ether"))
    }

    @Test func unexpectedSuccessAndWrongErrorFail() async throws {
        let yaml = """
            accounts:
              alice: {dev: 0}
            steps:
              - id: fine
                send: {from: alice, to: alice, value: 1 wei}
                expect: {error: "nonce too low"}
            """
        let result = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: yaml, file: "x.yaml"), options: ScenarioRunOptions())
        let failure = try #require(result.failedStep?.failures.first)
        #expect(failure.message == "the step succeeded but an error was expected")
        #expect(failure.expected == "error containing \"nonce too low\"")
        #expect(failure.transactionHash?.hasPrefix("0x") == true)

        let wrong = """
            accounts:
              alice: {dev: 0}
            steps:
              - send: {from: alice, to: alice, value: 1 wei, chainId: 1}
                expect: {error: "nonce too low", code: -32000}
            """
        let second = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: wrong, file: "y.yaml"), options: ScenarioRunOptions())
        let mismatch = try #require(second.failedStep?.failures.first)
        #expect(mismatch.message == "the step failed with a different error")
        #expect(mismatch.actual == "invalid sender: invalid chain id for signer: have 1 want 11155111 (code -32000)")
    }

    @Test func malformedICPStepsFailBeforeAnythingRuns() throws {
        let yaml = """
            accounts:
              a: random
            steps:
              - icrc1Transfer: {to: somebody, amount: 1}
            """
        #expect(throws: ScenarioFormatError.self) { try ScenarioParser.parse(yaml: yaml, file: "icp.yaml") }
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "icp.yaml")
        } catch {
            #expect("\(error)" == "icp.yaml:4:20: step 1 icrc1Transfer needs 'from'")
        }
        let unknownKey = """
            accounts:
              a: random
            steps:
              - icpTransfer: {from: a, to: a, amount: 1 ICP, spender: a}
            """
        do {
            _ = try ScenarioParser.parse(yaml: unknownKey, file: "icp.yaml")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect("\(error)".hasPrefix("icp.yaml:4:50: unknown key 'spender' in step 1 icpTransfer"))
        }
    }

    @Test func reportsAreJUnitAndJSON() async throws {
        let scenario = try ScenarioParser.parse(file: ScenarioLibrary.root + "/fees/base-fee-decay.yaml")
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions())
        let report = ScenarioReport(results: [result], seed: 3, seconds: 0.25)
        #expect(report.summary == "1 passed, 0 failed, 0 skipped")
        #expect(report.junitXML.contains("<testcase name=\"Base fee of empty blocks\""))
        #expect(report.junitXML.contains("tests=\"1\" failures=\"0\" skipped=\"0\""))
        #expect(report.json["passed"] == .number("1"))
        #expect(report.json["seed"] == .number("3"))
    }
}
