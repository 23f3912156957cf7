import DevNetwork
import Foundation
import JSONCoding
import JSONRPC
import SandnetServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension RunningNode {
    /// A full development network (the node and the ICP ledger) on a free port of 127.0.0.1.
    static func startNetwork(_ configure: (inout DevelopmentNetwork.Configuration) -> Void = { _ in }) async throws
        -> RunningNode
    {
        var configuration = DevelopmentNetwork.Configuration()
        configure(&configuration)
        let network = try DevelopmentNetwork(configuration: configuration)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.port = 0
        let server = NodeServer(network: network, configuration: serverConfiguration)
        let task = Task { try await server.run(handleSignals: false) }
        guard let port = await server.waitUntilListening() else { throw RPCError.internalError("server did not start") }
        return RunningNode(node: network.node, server: server, task: task, port: port)
    }

    func get(_ path: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        return ((response as! HTTPURLResponse).statusCode, data)
    }
}

/// The server serves a ``DevelopmentNetwork``: one method table for both chains, the IC HTTP interface and the ICP
/// faucet route, which claims through the same ``ICPFaucet`` as `sandnet_icpFaucet`.
@Suite(.serialized) struct DevelopmentNetworkServerTests {
    static let anonymousAccount = "1c7a48ba6a562aa9eaa2481a9049cdf0433b9738c992d698c31d8abf89cadc79"

    @Test func icpFaucetRouteAndRPCMethodShareOneFaucet() async throws {
        let node = try await RunningNode.startNetwork {
            $0.icp?.identities = 0
            $0.icp?.faucet.payoutE8s = 300
        }
        defer { node.stop() }
        let (status, _, data) = try await node.post("/api/icp/claim", body: Data(#"{"account":"2vxsx-fae"}"#.utf8))
        #expect(status == 200)
        #expect(
            try JSON.parse([UInt8](data))
                == .object([
                    ("account", .string(Self.anonymousAccount)), ("blockIndex", .number("0")), ("e8s", .string("300")),
                ]))
        let rpc = try await node.rpc("sandnet_icpFaucet", [.string(Self.anonymousAccount)])
        #expect(rpc["result"]?["blockIndex"] == .number("1"))
        #expect(rpc["result"]?["e8s"] == .string("300"))
        #expect(try await node.rpc("sandnet_icpBalance", [.string("2vxsx-fae")])["result"] == .string("600"))
        #expect(try await node.rpc("sandnet_icpInfo")["result"]?["faucetE8s"] == .string("300"))
        #expect(try await node.rpc("eth_chainId")["result"] == .string("0xaa36a7"))

        let (bad, _, badBody) = try await node.post(
            "/api/icp/claim", body: Data(#"{"account":"2vxsx-fae","e8s":"1"}"#.utf8))
        #expect(bad == 400)
        #expect(try JSON.parse([UInt8](badBody)) == .object([("msg", .string("e8s must be a whole number"))]))
        let (large, _, largeBody) = try await node.post("/api/icp/claim", body: Data(repeating: 0x20, count: 4_097))
        #expect(large == 413)
        #expect(try JSON.parse([UInt8](largeBody)) == .object([("msg", .string("request body too large"))]))
    }

    @Test func theICPInterfaceIsServedOnlyWithICP() async throws {
        let withICP = try await RunningNode.startNetwork()
        let (status, body) = try await withICP.get("/api/v2/status")
        withICP.stop()
        #expect(status == 200)
        #expect(body.count > 100)
        let withoutICP = try await RunningNode.startNetwork { $0.icp = nil }
        defer { withoutICP.stop() }
        let (missing, _) = try await withoutICP.get("/api/v2/status")
        #expect(missing == 404)
        let (claim, _, _) = try await withoutICP.post("/api/icp/claim", body: Data(#"{"account":"2vxsx-fae"}"#.utf8))
        #expect(claim == 404)
        let unknown = try await withoutICP.rpc("sandnet_icpInfo")
        #expect(unknown["error"]?["code"] == .number("-32601"))
    }
}
