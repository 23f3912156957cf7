import EthereumNode
import Foundation
import JSONCoding
import JSONRPC
import Testing

/// `sandnet_faucet` over HTTP obeys the rules of `POST /api/claim`: the server passes the client's address, so
/// the per-IP cooldown holds across both, and more than the payout needs developer methods.
@Suite(.serialized) struct FaucetRPCTests {
    @Test func rpcFaucetSharesThePerIPCooldownWithTheClaimAPI() async throws {
        // A frozen clock: the waits the answers name do not depend on how long the calls take.
        let node = try await RunningNode.start(
            { configuration in
                configuration.devMethodsEnabled = false  // as on --host 0.0.0.0 without --allow-dev-methods
                configuration.faucetCooldown = 3_600
            }, clock: { 1_800_000_000 })
        defer { node.stop() }
        let first = try await node.rpc("sandnet_faucet", [.string("0x000000000000000000000000000000000000dead")])
        #expect(first["result"]?.stringValue?.count == 66)
        let second = try await node.rpc("sandnet_faucet", [.string("0x000000000000000000000000000000000000beef")])
        #expect(second["error"]?["code"] == .number("-32005"))
        #expect(
            second["error"]?["message"]
                == .string("You have exceeded the rate limit. Please wait 1h0m0s before you try again"))
        let (status, _, _) = try await node.post(
            "/api/claim", body: Data(#"{"address":"0x000000000000000000000000000000000000cafe"}"#.utf8))
        #expect(status == 429)
        let large = try await node.rpc(
            "sandnet_faucet", [.string("0x000000000000000000000000000000000000f00d"), .string("0x1bc16d674ec80000")])
        #expect(large["error"]?["code"] == .number("-32602"))
        #expect(
            large["error"]?["message"]
                == .string(
                    "invalid argument 1: amount 2000000000000000000 wei exceeds the faucet payout of 1000000000000000000 "
                        + "wei; larger amounts need developer methods (--allow-dev-methods)"))
    }
}
