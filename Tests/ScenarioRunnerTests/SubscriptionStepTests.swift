import ScenarioRunner
import Testing

/// `subscribe` steps and `subscription` checks: what arrived is checked after the steps that cause it, in-process
/// with no waiting; a backend without notifications skips the step with the reason.
@Suite struct SubscriptionStepTests {
    func run(_ yaml: String, on backend: (any ScenarioBackend)? = nil) async throws -> ScenarioResult {
        let scenario = try ScenarioParser.parse(yaml: yaml, file: "subscribe.yaml")
        if let backend { return await ScenarioSuite.run(scenario, options: ScenarioRunOptions(), shared: backend) }
        return await ScenarioSuite.run(scenario, options: ScenarioRunOptions())
    }

    @Test func wrongCountAndWrongTopicFailWithExpectedAndActual() async throws {
        let result = try await run(
            """
            accounts:
              alice: {dev: 0}
              bob: {dev: 1}
            steps:
              - id: heads
                subscribe: newHeads
              - id: incoming
                subscribe: {to: logs, address: USDC, topics: [Transfer]}
              - id: pay
                token: {action: transfer, token: USDC, from: alice, to: bob, amount: 5}
              - check:
                  - subscription: {of: heads, count: 2}
                  - subscription: {of: incoming, last: {topics: [Transfer, bob, alice]}}
                  - subscription: {of: incoming, last: {topics: [Transfer, alice, bob], logIndex: 0, removed: false}}
            """)
        #expect(result.status == .failed)
        let failures = result.steps.last?.failures ?? []
        #expect(failures.count == 2)
        #expect(failures.first?.message == "notifications received by subscription 'heads'")
        #expect(failures.first?.expected == "== 2 = 2")
        #expect(failures.first?.actual == "1")
        let padded = { (address: String) in "0x" + String(repeating: "0", count: 24) + address.dropFirst(2).lowercased()
        }
        let alice = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
        let bob = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
        let transfer = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
        #expect(failures.last?.message == "topics of the last notification of subscription 'incoming'")
        #expect(failures.last?.expected == "\(transfer), \(padded(bob)), \(padded(alice))")
        #expect(failures.last?.actual == "\(transfer), \(padded(alice)), \(padded(bob))")
    }

    @Test func pendingHashesArriveAndFilteredLogsDoNot() async throws {
        let result = try await run(
            """
            accounts:
              alice: {dev: 0}
              bob: random
            steps:
              - id: pending
                subscribe: newPendingTransactions
              - id: other
                subscribe: {to: logs, address: LINK}
              - id: all
                subscribe: logs
              - automine: false
              - id: pay
                token: {action: transfer, token: USDC, from: alice, to: bob, amount: 5, gas: 100000}
              - check:
                  - subscription: {of: pending, count: 1, last: "${pay.hash}"}
                  - subscription: {of: all, count: 0}
              - mine: 1
              - check:
                  - subscription: {of: pending, count: 1}
                  - subscription: {of: all, count: 1, last: {transactionHash: "${pay.hash}", logIndex: 0}}
                  - subscription: {of: other, count: 0}
            """)
        #expect(result.status == .passed, "\(result.steps.flatMap(\.failures))")
    }

    @Test func aNodeWithoutNotificationsSkipsTheStep() async throws {
        let result = try await run(
            """
            steps:
              - id: heads
                subscribe: newHeads
              - mine: 1
            """, on: try NodeWithoutDevMethods())
        #expect(result.status == .skipped)
        #expect(
            result.message
                == "subscribe steps need notifications; plain-node is reached over HTTP only, which has none (run the scenario in-process)"
        )
        #expect(result.steps.dropFirst().allSatisfy { $0.status == .notRun })
    }
}
