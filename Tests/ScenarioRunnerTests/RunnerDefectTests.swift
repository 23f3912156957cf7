import EthereumNode
import Foundation
import JSONCoding
import JSONRPC
import ScenarioRunner
import Testing

/// Issue 21's runner defects, each as a wallet developer hit it.
@Suite struct RunnerDefectTests {
    func run(_ yaml: String, file: String = "defect.yaml") async throws -> ScenarioResult {
        await ScenarioSuite.run(try ScenarioParser.parse(yaml: yaml, file: file), options: ScenarioRunOptions())
    }

    func loadError(_ yaml: String) -> String? {
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "bad.yaml")
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func keystoreExportCreatesFoldersAndImportReadsSavedFile() async throws {
        let result = try await run(
            """
            accounts:
              wallet: {dev: 3}
            steps:
              - id: saved
                keystoreExport: {account: wallet, password: pw, kdf: pbkdf2, iterations: 2, file: Documents/keystore/wallet.json}
              - keystoreImport: {file: "${saved.file}", password: pw, as: reopened}
              - check:
                  - equal: {actual: "${reopened.address}", expected: "${wallet.address}"}
                  - equal: {actual: "${saved.file}", expected: "${saved.file}"}
            """)
        #expect(result.status == .passed, "\(result.failureReport)")
        #expect(result.steps.map(\.status) == [.passed, .passed, .passed])
    }

    @Test func undefinedReferenceInKeystoreImportFileFailsAtLoad() {
        let error = loadError(
            """
            steps:
              - keystoreImport: {file: "${saved.file}", password: pw, as: reopened}
            """)
        #expect(
            error
                == "bad.yaml:2:28: unknown reference ${saved.file}: no variable, account or earlier step is called 'saved'"
        )
    }

    @Test(arguments: ["error", "{}", "{error: \"\"}"])
    func expectAnyError(_ expect: String) async throws {
        let result = try await run(
            """
            accounts:
              alice: {dev: 0}
            steps:
              - send: {from: alice, to: alice, value: 1 wei, nonce: 7, gas: 1}
                expect: \(expect)
            """)
        #expect(result.status == .passed, "\(result.failureReport)")
        let success = try await run(
            """
            accounts:
              alice: {dev: 0}
            steps:
              - send: {from: alice, to: alice, value: 1 wei}
                expect: \(expect)
            """)
        let failure = try #require(success.failedStep?.failures.first)
        #expect(failure.message == "the step succeeded but an error was expected")
        #expect(failure.expected == "an error")
    }

    @Test func blockThatIsNotABlockFailsAtLoad() {
        #expect(
            loadError(
                """
                accounts:
                  a: random
                steps:
                  - check:
                      - balance: {of: a, block: 3 - 1, equals: 0}
                """)
                == "bad.yaml:5:33: '3 - 1' is not a block for balance assertion block (a number, 0x quantity, latest, pending, earliest, safe or finalized)"
        )
        #expect(
            loadError("steps:\n  - check:\n      - block: {at: newest, number: 1}\n")
                == "bad.yaml:3:21: 'newest' is not a block for block assertion at (a number, 0x quantity, latest, pending, earliest, safe or finalized)"
        )
    }

    @Test func shortenedKeyGetsASuggestion() {
        let error = loadError("accounts:\n  a: random\nsteps:\n  - send: {from: a, maxPriorityFee: 1 gwei}\n")
        #expect(
            error?.hasPrefix(
                "bad.yaml:4:21: unknown key 'maxPriorityFee' in step 1 send (did you mean 'maxPriorityFeePerGas'?)")
                == true, "\(error ?? "")")
    }

    @Test func referenceToALaterStepSaysSo() {
        #expect(
            loadError(
                """
                accounts:
                  a: {dev: 0}
                steps:
                  - wait: pay
                  - id: pay
                    send: {from: a, to: a}
                """)
                == "bad.yaml:4:11: step 1 wait: step 'pay' is step 2, later in the file (a step can only use the results of steps before it)"
        )
        #expect(
            loadError(
                """
                accounts:
                  a: {dev: 0}
                steps:
                  - check:
                      - equal: {actual: "${pay.hash}", expected: x}
                  - id: pay
                    send: {from: a, to: a}
                """)
                == "bad.yaml:5:25: ${pay.hash}: step 'pay' is step 2, later in the file (a step can only use the results of steps before it)"
        )
        #expect(
            loadError(
                """
                accounts:
                  a: {dev: 0}
                steps:
                  - check:
                      - value: {of: "fee(pay)", equals: 0}
                  - id: pay
                    send: {from: a, to: a}
                """)
                == "bad.yaml:5:21: fee(pay): step 'pay' is step 2, later in the file (a step can only use the results of steps before it)"
        )
    }
}

/// Scenarios that share one node (`--rpc-url`) do not see each other's changes, whether they pass or fail.
@Suite struct SharedNodeIsolationTests {
    static let key = "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

    /// Changes every piece of state a scenario can: Ethereum balances, the ICP ledger and its clock, automine;
    /// then fails (or not) with automine still off.
    static func changer(fails: Bool) -> String {
        """
        accounts:
          alice: {dev: 0}
          kept: {privateKey: "\(key)"}
        steps:
          - send: {from: alice, to: kept, value: 1 ether}
          - icpFaucet: {to: kept, amount: 5 ICP}
          - icpAdvanceTime: 2d
          - automine: false
          - check:
              - icpBalance: {of: kept, equals: \(fails ? "6 ICP" : "5 ICP")}
        """
    }

    static let observer = """
        accounts:
          kept: {privateKey: "\(key)"}
          alice: {dev: 0}
        steps:
          - check:
              - balance: {of: kept, equals: 0}
              - icpBalance: {of: kept, equals: 0}
          - id: pay
            send: {from: alice, to: kept, value: 1 wei}
          - check:
              - transaction: {of: pay, state: mined}
        """

    @Test(arguments: [true, false])
    func nothingCarriesOver(changerFails: Bool) async throws {
        let shared = try InProcessBackend(configuration: NodeConfiguration())
        let before = try await shared.call("sandnet_icpInfo", [])
        let first = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: Self.changer(fails: changerFails), file: "changer.yaml"),
            options: ScenarioRunOptions(), shared: shared)
        #expect(first.status == (changerFails ? .failed : .passed), "\(first.failureReport)")
        #expect(try await shared.call("anvil_getAutomine", []) == .bool(true))
        let after = try await shared.call("sandnet_icpInfo", [])
        #expect(after["chainLength"] == before["chainLength"])
        #expect(after["ledgerTimeNanos"] == before["ledgerTimeNanos"])
        let second = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: Self.observer, file: "observer.yaml"), options: ScenarioRunOptions(),
            shared: shared)
        #expect(second.status == .passed, "\(second.failureReport)")
    }

    @Test func settingsAreReadFromTheNode() async throws {
        let shared = try InProcessBackend(configuration: NodeConfiguration())
        let matching = """
            node: {gasLimit: 60000000, genesisBaseFee: 1 gwei, chainId: 11155111}
            steps:
              - check:
                  - block: {at: 0, baseFeePerGas: 1 gwei}
            """
        let passed = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: matching, file: "same.yaml"), options: ScenarioRunOptions(), shared: shared)
        #expect(passed.status == .passed, "\(passed.failureReport) \(passed.message ?? "")")
        let other = """
            node:
              gasLimit: 30000000
            steps:
              - mine: 1
            """
        let skipped = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: other, file: "other.yaml"), options: ScenarioRunOptions(), shared: shared)
        #expect(skipped.status == .skipped)
        #expect(
            skipped.message
                == "needs node.gasLimit 30000000 (other.yaml:2:3); the latest block on in-process has 60000000")
    }
}

@Suite struct ScenarioShardTests {
    @Test func shardsCoverEveryFileOnce() throws {
        let files = (1...10).map { "f\($0).yaml" }
        let parts = try (1...3).map { try ScenarioShard(parsing: "\($0)/3").select(files) }
        #expect(parts[0] == ["f1.yaml", "f4.yaml", "f7.yaml", "f10.yaml"])
        #expect(parts[1] == ["f2.yaml", "f5.yaml", "f8.yaml"])
        #expect(parts[2] == ["f3.yaml", "f6.yaml", "f9.yaml"])
        #expect(Set(parts.joined()) == Set(files))
    }

    @Test func badShardsAreRefused() {
        #expect(throws: ScenarioShardError.syntax("2")) { try ScenarioShard(parsing: "2") }
        #expect(throws: ScenarioShardError.indexOutOfRange(0, 4)) { try ScenarioShard(parsing: "0/4") }
        #expect(throws: ScenarioShardError.indexOutOfRange(5, 4)) { try ScenarioShard(parsing: "5/4") }
        #expect(throws: ScenarioShardError.countOutOfRange(0)) { try ScenarioShard(parsing: "1/0") }
        #expect("\(ScenarioShardError.indexOutOfRange(5, 4))" == "the shard index must be from 1 to 4, found 5")
    }
}
