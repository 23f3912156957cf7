import EthereumNode
import JSONCoding
import JSONRPC
import ScenarioRunner
import Testing

/// A node without developer methods (like a public geth endpoint): every `anvil_*` and `evm_*` call is
/// "method not found".
final class NodeWithoutDevMethods: ScenarioBackend {
    let inner: InProcessBackend

    init() throws { inner = try InProcessBackend(configuration: NodeConfiguration()) }

    var label: String { "plain-node" }
    var isInProcess: Bool { false }

    func call(_ method: String, _ params: [JSON]) async throws -> JSON {
        if method.hasPrefix("anvil_") || method.hasPrefix("evm_") { throw RPCError.methodNotFound(method) }
        return try await inner.call(method, params)
    }

    func advanceTime(seconds: UInt64) async throws { throw RPCError.methodNotFound("evm_increaseTime") }
}

@Suite struct BackendCapabilityTests {
    func run(_ name: String) async throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(file: ScenarioLibrary.root + "/" + name)
        return await ScenarioSuite.run(scenario, options: ScenarioRunOptions(), shared: try NodeWithoutDevMethods())
    }

    @Test func icpStepsOnANodeWithoutTheICPLedgerAreSkipped() async throws {
        let yaml = """
            accounts:
              a: random
            steps:
              - icrc1Transfer: {from: a, to: a, amount: 1 e8s}
              - check:
                  - icpBalance: {of: a, equals: 0}
            """
        let result = await ScenarioSuite.run(
            try ScenarioParser.parse(yaml: yaml, file: "icp.yaml"), options: ScenarioRunOptions(),
            shared: try NodeWithoutDevMethods())
        #expect(result.status == .skipped)
        #expect(result.message == "plain-node has no ICP ledger")
        #expect(result.steps.dropFirst().allSatisfy { $0.status == .notRun })
    }

    @Test func devStepIsSkippedWithTheReasonAndTheRestIsNotRun() async throws {
        let result = try await run("transactions/replace-by-fee.yaml")
        #expect(result.status == .skipped)
        #expect(
            result.message
                == "the node at plain-node has no evm_setAutomine (the method evm_setAutomine does not exist/is not available)"
        )
        #expect(result.steps.first?.status == .skipped)
        #expect(result.steps.dropFirst().allSatisfy { $0.status == .notRun })
    }

    @Test func scenariosWithoutDevStepsStillPass() async throws {
        for name in ["tutorials/simple-wallet.yaml", "transactions/wrong-chain-id.yaml", "signing/eip712-mail.yaml"] {
            let result = try await run(name)
            #expect(result.status == .passed, "\(name): \(result.failureReport)")
        }
    }

    @Test func inProcessOnlySettingsSkipTheScenario() async throws {
        let result = try await run("faucet/faucet-rate-limit.yaml")
        #expect(result.status == .skipped)
        #expect(result.message?.hasPrefix("needs the in-process node: node.faucetCooldown (") == true)
    }
}
