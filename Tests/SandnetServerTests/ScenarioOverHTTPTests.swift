import EthereumNode
import Foundation
import JSONCoding
import ScenarioRunner
import TestSupport
import Testing

/// Scenarios of `Scenarios/http/` through the runner's HTTP backend against a real server on 127.0.0.1: provider
/// faults on a key path, and the transport's retry on HTTP 429.
@Suite struct ScenarioOverHTTPTests {
    static let file = TestVectors.packageRoot + "/Scenarios/http/rate-limited-send.yaml"

    @Test func aSendRetriedAfterTwo429sLandsOnce() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let backend = HTTPBackend(url: URL(string: "http://127.0.0.1:\(node.port)/v3/wallet")!, timeout: 600)
        let scenario = try ScenarioParser.parse(file: Self.file)
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions(), shared: backend)
        #expect(result.status == .passed, "\(result.failureReport)")
        #expect(backend.retries == 2)  // the scenario's checks show the transfer landed once (nonce 1)
    }

    @Test func withoutRetriesTheWalletSeesTheProvidersError() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let backend = HTTPBackend(
            url: URL(string: "http://127.0.0.1:\(node.port)/v3/wallet")!, timeout: 600, maxRetries: 0)
        let scenario = try ScenarioParser.parse(file: Self.file)
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions(), shared: backend)
        #expect(result.status == .failed)
        #expect(backend.retries == 0)
        let failed = try #require(result.failedStep)
        #expect(failed.title.contains("send"), "\(result.failureReport)")
        #expect(
            failed.failures.map(\.message).contains {
                $0.contains("The requests per second (RPS) of your requests are higher than your plan allows.")
            }, "\(result.failureReport)")
    }

    @Test func inProcessTheFaultsStepSkipsTheScenario() async throws {
        let scenario = try ScenarioParser.parse(file: Self.file)
        let result = await ScenarioSuite.run(scenario, options: ScenarioRunOptions())
        #expect(result.status == .skipped)
        #expect(result.message == "provider faults need the HTTP server (--rpc-url)")
    }
}
