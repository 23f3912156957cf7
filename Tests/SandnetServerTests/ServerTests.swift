import ByteCoding
import EthereumNode
import EthereumTypes
import Foundation
import HummingbirdWSClient
import JSONCoding
import JSONRPC
import Logging
import SandnetServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A node on a free port of 127.0.0.1, stopped when the test's task is cancelled.
struct RunningNode {
    let node: SandnetNode
    let server: NodeServer
    let task: Task<Void, Error>
    let port: Int

    static func start(
        _ configure: (inout NodeConfiguration) -> Void = { _ in },
        server configureServer: (inout ServerConfiguration) -> Void = { _ in },
        clock: (@Sendable () -> UInt64)? = nil
    ) async throws -> RunningNode {
        var config = NodeConfiguration()
        configure(&config)
        let node =
            try clock.map { try SandnetNode(configuration: config, clock: $0) } ?? SandnetNode(configuration: config)
        var serverConfig = ServerConfiguration()
        serverConfig.port = 0
        configureServer(&serverConfig)
        let server = NodeServer(node: node, configuration: serverConfig)
        let task = Task { try await server.run(handleSignals: false) }
        guard let port = await server.waitUntilListening() else { throw RPCError.internalError("server did not start") }
        return RunningNode(node: node, server: server, task: task, port: port)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    func post(_ path: String = "/", body: Data, headers: [String: String] = ["Content-Type": "application/json"])
        async throws
        -> (Int, [AnyHashable: Any], Data)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.httpBody = body
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        return (http.statusCode, http.allHeaderFields, data)
    }

    func rpc(_ method: String, _ params: [JSON] = []) async throws -> JSON {
        let body = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        let (_, _, data) = try await post(body: Data(body.bytes))
        return try JSON.parse([UInt8](data))
    }

    func stop() { task.cancel() }
}

@Suite(.serialized) struct ServerTests {
    @Test func jsonRPCOverHTTP() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        #expect(try await node.rpc("eth_chainId")["result"] == .string("0xaa36a7"))
        #expect(try await node.rpc("nope")["error"]?["code"] == .number("-32601"))
        #expect(
            try await node.rpc("eth_getBalance", [.string("0x1234")])["error"]?["message"]
                == .string("invalid argument 0: hex string has length 4, want 40 for common.Address"))
        let (status, _, data) = try await node.post(body: Data("{not json".utf8))
        #expect(status == 200)
        #expect(try JSON.parse([UInt8](data))["error"]?["code"] == .number("-32700"))
        let batch =
            #"[{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":2,"method":"net_version"}]"#
        let (_, _, batchData) = try await node.post(body: Data(batch.utf8))
        #expect(try JSON.parse([UInt8](batchData)).arrayValue?.count == 2)
        let (_, _, empty) = try await node.post(body: Data(#"{"jsonrpc":"2.0","method":"eth_blockNumber"}"#.utf8))
        #expect(empty.isEmpty)
    }

    @Test func oversizedBodyIsRefusedClearly() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let huge = Data(repeating: 0x20, count: 6 << 20)
        let (status, _, data) = try await node.post(body: huge)
        #expect(status == 413)
        #expect(
            try JSON.parse([UInt8](data))["error"]?["message"]
                == .string("request body too large: limit is 5242880 bytes"))
        // The node still serves afterwards.
        #expect(try await node.rpc("eth_chainId")["result"] == .string("0xaa36a7"))
    }

    @Test func faucetAPI() async throws {
        // A frozen clock: the wait the 429 names does not depend on how long the calls take.
        let node = try await RunningNode.start({ $0.faucetCooldown = 3_600 }, clock: { 1_800_000_000 })
        defer { node.stop() }
        let address = "0x000000000000000000000000000000000000dEaD"
        let (status, _, data) = try await node.post("/api/claim", body: Data(#"{"address":"\#(address)"}"#.utf8))
        #expect(status == 200)
        let msg = try JSON.parse([UInt8](data))["msg"]?.stringValue ?? ""
        #expect(msg.hasPrefix("Txhash: 0x"))
        let hash = String(msg.dropFirst("Txhash: ".count))
        let receipt = try await node.rpc("eth_getTransactionReceipt", [.string(hash)])["result"]
        #expect(receipt?["status"] == .string("0x1"))
        #expect(receipt?["from"] == .string(node.node.faucetAddress.lowercased))
        #expect(
            try await node.rpc("eth_getBalance", [.string(address.lowercased())])["result"]
                == .string("0xde0b6b3a7640000"))
        let (again, headers, body) = try await node.post("/api/claim", body: Data(#"{"address":"\#(address)"}"#.utf8))
        #expect(again == 429)
        #expect(headers["Retry-After"] as? String == "3600")
        #expect(
            try JSON.parse([UInt8](body))["msg"]
                == .string("You have exceeded the rate limit. Please wait 1h0m0s before you try again"))
        let (bad, _, _) = try await node.post("/api/claim", body: Data(#"{"address":"nope"}"#.utf8))
        #expect(bad == 400)
        let (unknownField, _, _) = try await node.post(
            "/api/claim", body: Data(#"{"address":"\#(address)","x":1}"#.utf8))
        #expect(unknownField == 400)
    }

    @Test func corsPreflight() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        var request = URLRequest(url: node.url)
        request.httpMethod = "OPTIONS"
        request.setValue("http://localhost:3000", forHTTPHeaderField: "Origin")
        request.setValue("POST", forHTTPHeaderField: "Access-Control-Request-Method")
        let (_, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        #expect(http.value(forHTTPHeaderField: "Access-Control-Allow-Origin") != nil)
    }

    @Test func webSocketNewHeads() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let received = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                let result = Mutex<String?>(nil)
                let logger = Logger(label: "test")
                _ = try await WebSocketClient.connect(url: "ws://127.0.0.1:\(node.port)/", logger: logger) {
                    inbound, outbound, _ in
                    try await outbound.write(
                        .text(#"{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}"#))
                    var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    guard case .text(let ack)? = try await iterator.next() else { return }
                    #expect(ack.contains("\"result\":\"0x"))
                    // Mine over HTTP while subscribed.
                    _ = try await node.rpc("evm_mine")
                    guard case .text(let note)? = try await iterator.next() else { return }
                    result.withLock { $0 = note }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                return result.withLock { $0 }
            }
            group.addTask {
                // A hang guard only: generous enough never to decide a passing run on an overloaded machine.
                try await Task.sleep(for: .seconds(300))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let note = try #require(received)
        let json = try JSON.parse(note)
        #expect(json["method"] == .string("eth_subscription"))
        #expect(json["params"]?["result"]?["number"] == .string("0x1"))
    }
}
