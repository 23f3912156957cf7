import DevNetwork
import EthereumNode
import Foundation
import Hummingbird
import JSONCoding
import JSONRPC
import Logging
import NIOCore
import ProviderFaults
import SandnetServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct FaultTestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// A node's JSON-RPC methods behind the fault middleware on a free port of 127.0.0.1: `/` and `/v3/wallet` serve
/// JSON-RPC, as a provider's key URL would; the injected sleeper records each delay and returns at once.
struct FaultyEndpoint {
    /// Held: the node's methods refer to it unowned.
    let node: SandnetNode
    let port: Int
    let task: Task<Void, Error>
    let controller: FaultController
    let recorder: DelayRecorder

    var delays: [Duration] { recorder.delays.withLock { $0 } }

    static func start(_ schedule: FaultSchedule = FaultSchedule()) async throws -> FaultyEndpoint {
        let node = try SandnetNode(configuration: NodeConfiguration())
        let recorder = DelayRecorder()
        let controller = FaultController(schedule) { recorder.record($0) }
        let dispatcher = DevelopmentNetwork(node: node).dispatcher
        let overlay = controller.methods
        let router = Router(context: FaultTestContext.self)
        router.add(middleware: ProviderFaultMiddleware(controller: controller, bodyLimit: 1 << 20))
        let rpc: @Sendable (Request, FaultTestContext) async throws -> Response = { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 20)
            let out = dispatcher.handle(Array(buffer: body), overlay: overlay) ?? []
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: out)))
        }
        router.post("/", use: rpc)
        router.post("/v3/wallet", use: rpc)
        let ports = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { ports.continuation.yield($0.localAddress?.port ?? 0) },
            logger: Logger(label: "faults", factory: { _ in SwiftLogNoOpLogHandler() }))
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var port = 0
        for await bound in ports.stream {
            port = bound
            break
        }
        return FaultyEndpoint(node: node, port: port, task: task, controller: controller, recorder: recorder)
    }

    func post(_ body: String, path: String = "/") async throws -> (status: Int, headers: [String: String], body: String)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields { headers["\(key)".lowercased()] = "\(value)" }
        return (http.statusCode, headers, String(decoding: data, as: UTF8.self))
    }

    static func call(_ method: String, id: Int = 1, params: String = "[]") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    func stop() { task.cancel() }
}

final class DelayRecorder: Sendable {
    let delays = Mutex<[Duration]>([])
    func record(_ delay: Duration) { delays.withLock { $0.append(delay) } }
}

@Suite(.serialized) struct ProviderFaultMiddlewareTests {
    static let computeUnits =
        "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput"

    @Test func infuraRateLimitOverHTTPIsByteForByteWithRetryAfter() async throws {
        let endpoint = try await FaultyEndpoint.start(
            FaultSchedule(rules: [FaultRule(shape: .infuraRateLimit(backoffSeconds: 30), every: 2, retryAfter: 1)]))
        defer { endpoint.stop() }
        let first = try await endpoint.post(FaultyEndpoint.call("eth_chainId", id: 11))
        #expect(first.status == 200)
        #expect(first.body == #"{"jsonrpc":"2.0","id":11,"result":"0xaa36a7"}"#)
        let second = try await endpoint.post(FaultyEndpoint.call("eth_chainId", id: 12))
        #expect(second.status == 429)
        #expect(second.headers["retry-after"] == "1")
        #expect(second.headers["content-type"] == "application/json")
        #expect(
            second.body
                == #"{"jsonrpc":"2.0","id":12,"error":{"code":-32005,"message":"project ID request rate exceeded","data":{"see":"https://infura.io/docs/ethereum/jsonrpc/ratelimits","current_rps":13.333,"allowed_rps":10.0,"backoff_seconds":30.0}}}"#
        )
    }

    @Test func alchemyBatchIsServedInPartWithPerItem429s() async throws {
        let endpoint = try await FaultyEndpoint.start(
            FaultSchedule(rules: [FaultRule(shape: .alchemyComputeUnits, every: 2)]))
        defer { endpoint.stop() }
        let batch = "[" + (1...4).map { FaultyEndpoint.call("eth_chainId", id: $0) }.joined(separator: ",") + "]"
        let reply = try await endpoint.post(batch)
        #expect(reply.status == 200)
        let error = #"{"code":429,"message":"\#(Self.computeUnits)"}"#
        #expect(
            reply.body
                == #"[{"jsonrpc":"2.0","id":1,"result":"0xaa36a7"},{"jsonrpc":"2.0","id":2,"error":\#(error)},{"jsonrpc":"2.0","id":3,"result":"0xaa36a7"},{"jsonrpc":"2.0","id":4,"error":\#(error)}]"#
        )
        // A single call hit by the same rule gets HTTP 429.
        _ = try await endpoint.post(FaultyEndpoint.call("eth_chainId", id: 5))
        let single = try await endpoint.post(FaultyEndpoint.call("eth_chainId", id: 6))
        #expect(single.status == 429)
        #expect(single.body == #"{"jsonrpc":"2.0","id":6,"error":\#(error)}"#)
    }

    @Test func faultsApplyPerPathAndTheFaultMethodsStayReliable() async throws {
        let endpoint = try await FaultyEndpoint.start()
        defer { endpoint.stop() }
        let set = FaultyEndpoint.call(
            "sandnet_setFaults", params: #"[{"seed":1,"rules":[{"shape":"http-502","paths":["/v3/wallet"]}]}]"#)
        #expect(try await endpoint.post(set).body == #"{"jsonrpc":"2.0","id":1,"result":true}"#)
        let wallet = try await endpoint.post(FaultyEndpoint.call("eth_blockNumber"), path: "/v3/wallet")
        #expect(wallet.status == 502)
        #expect(wallet.headers["content-type"] == "text/html")
        #expect(
            wallet.body
                == "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
        )
        let root = try await endpoint.post(FaultyEndpoint.call("eth_blockNumber"))
        #expect(root.body == #"{"jsonrpc":"2.0","id":1,"result":"0x0"}"#)
        // The fault methods answer even on the faulty path, with the rule's counters.
        let get = try await endpoint.post(FaultyEndpoint.call("sandnet_getFaults"), path: "/v3/wallet")
        #expect(
            get.body
                == #"{"jsonrpc":"2.0","id":1,"result":{"seed":1,"rules":[{"shape":"http-502","paths":["/v3/wallet"],"seen":1,"fired":1}]}}"#
        )
        let bad = try await endpoint.post(
            FaultyEndpoint.call("sandnet_setFaults", params: #"[{"rules":[{"shape":"http-418"}]}]"#))
        #expect(
            bad.body.contains(
                #""code":-32602,"message":"invalid argument 0: rules[0]: unknown fault shape \"http-418\""#))
        _ = try await endpoint.post(FaultyEndpoint.call("sandnet_clearFaults"))
        let healed = try await endpoint.post(FaultyEndpoint.call("eth_blockNumber"), path: "/v3/wallet")
        #expect(healed.status == 200)
    }

    @Test func latencyAndTimeoutWaitOnTheInjectedSleeper() async throws {
        let endpoint = try await FaultyEndpoint.start(
            FaultSchedule(
                seed: 3,
                rules: [
                    FaultRule(shape: .latency(milliseconds: 250, jitter: 100)),
                    FaultRule(shape: .timeout(seconds: 60), skip: 2, count: 1),
                ]))
        defer { endpoint.stop() }
        var statuses: [Int] = []
        for id in 1...4 { statuses.append(try await endpoint.post(FaultyEndpoint.call("eth_chainId", id: id)).status) }
        #expect(statuses == [200, 200, 504, 200])
        // The same seed computes the same delays without a server.
        var replay = FaultSchedule(
            seed: 3,
            rules: [
                FaultRule(shape: .latency(milliseconds: 250, jitter: 100)),
                FaultRule(shape: .timeout(seconds: 60), skip: 2, count: 1),
            ])
        let expected = (1...4).map {
            replay.decide(
                path: "/", client: "127.0.0.1", calls: [.init(method: "eth_chainId", id: .int($0))], batch: false
            ).delay
        }
        #expect(endpoint.delays == expected)
        #expect(expected[2] >= .seconds(60) + .milliseconds(250))
        #expect(expected.allSatisfy { $0 >= .milliseconds(250) })
    }

    @Test func laggingBackendAnswersHeaderNotFoundAndNullReceipts() async throws {
        let endpoint = try await FaultyEndpoint.start(
            FaultSchedule(rules: [FaultRule(shape: .headerNotFound, count: 1), FaultRule(shape: .staleRead, count: 1)]))
        defer { endpoint.stop() }
        let block = try await endpoint.post(
            FaultyEndpoint.call("eth_getBlockByNumber", id: 2, params: #"["0x0",false]"#))
        #expect(block.status == 200)
        #expect(block.body == #"{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"header not found"}}"#)
        let again = try await endpoint.post(
            FaultyEndpoint.call("eth_getBlockByNumber", id: 3, params: #"["0x0",false]"#))
        #expect(again.body.contains(#""result":{"#))
        // A transaction mined on one backend is not yet known to the lagging one: its receipt reads null once.
        let tx =
            #"[{"from":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","to":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","value":"0x1"}]"#
        let sent = try JSON.parse(try await endpoint.post(FaultyEndpoint.call("eth_sendTransaction", params: tx)).body)
        let hash = try #require(sent["result"]?.stringValue)
        let receipt = FaultyEndpoint.call("eth_getTransactionReceipt", id: 4, params: #"["\#(hash)"]"#)
        #expect(try await endpoint.post(receipt).body == #"{"jsonrpc":"2.0","id":4,"result":null}"#)
        let mined = try JSON.parse(try await endpoint.post(receipt).body)
        #expect(mined["result"]?["status"] == .string("0x1"))
    }
}

@Suite(.serialized) struct NodeServerFaultTests {
    /// The node's own server: faults from its configuration hit the wallet's key path only; `/`, the faucet API
    /// and the fault methods stay reliable.
    @Test func theWalletPathMisbehavesWhileTheRestStaysReliable() async throws {
        let node = try await RunningNode.start(server: {
            $0.faults = FaultSchedule(rules: [
                FaultRule(shape: .infuraKeyThroughput, paths: ["/v3/wallet"], every: 2, retryAfter: 3)
            ])
        })
        defer { node.stop() }
        let call = Data(FaultyEndpoint.call("eth_chainId", id: 9).utf8)
        let (first, _, firstBody) = try await node.post("/v3/wallet", body: call)
        #expect(first == 200)
        #expect(String(decoding: firstBody, as: UTF8.self) == #"{"jsonrpc":"2.0","id":9,"result":"0xaa36a7"}"#)
        let (second, headers, secondBody) = try await node.post("/v3/wallet", body: call)
        #expect(second == 429)
        #expect(headers["Retry-After"] as? String == "3")
        #expect(
            String(decoding: secondBody, as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":9,"error":{"code":429,"event":-33300,"message":"Too Many Requests","details":"You have surpassed your user-defined key throughput limit setting. To make more requests with this key, review key setting configurations."}}"#
        )
        for _ in 0..<3 { #expect(try await node.post(body: call).0 == 200) }
        // The faucet API is not JSON-RPC: never faulted.
        let (faucet, _, _) = try await node.post(
            "/api/claim", body: Data(#"{"address":"0x000000000000000000000000000000000000dEaD"}"#.utf8))
        #expect(faucet == 200)
        let faults = try await node.rpc("sandnet_getFaults")["result"]
        #expect(faults?["rules"]?.arrayValue?.first?["fired"] == .int(1))
        #expect(faults?["rules"]?.arrayValue?.first?["seen"] == .int(2))
    }
}

@Suite(.serialized) struct WebSocketFaultTests {
    /// `websocket-disconnect` on `/ws`: the first message is answered, the second severs the connection (no reply,
    /// no close frame); `/` and HTTP are untouched.
    @Test func aProviderSeversTheWebSocket() async throws {
        let node = try await RunningNode.start(server: {
            $0.faults = FaultSchedule(rules: [FaultRule(shape: .webSocketDisconnect, paths: ["/ws"], skip: 1)])
        })
        defer { node.stop() }
        let chainID = FaultyEndpoint.call("eth_chainId", id: 1)
        let ws = try await RawSocket.webSocket(port: node.port, path: "/ws")
        let frames = WebSocketFrameReader(ws)
        try await ws.send(RawSocket.textFrame(chainID))
        #expect(try await frames.next()?.text == #"{"jsonrpc":"2.0","id":1,"result":"0xaa36a7"}"#)
        try await ws.send(RawSocket.textFrame(chainID))
        #expect(try await frames.next() == nil)
        let root = try await RawSocket.webSocket(port: node.port, path: "/")
        let rootFrames = WebSocketFrameReader(root)
        for _ in 0..<3 {
            try await root.send(RawSocket.textFrame(chainID))
            #expect(try await rootFrames.next()?.text == #"{"jsonrpc":"2.0","id":1,"result":"0xaa36a7"}"#)
        }
        #expect(try await node.rpc("eth_chainId")["result"] == .string("0xaa36a7"))
        let faults = try await node.rpc("sandnet_getFaults")["result"]
        #expect(faults?["rules"]?.arrayValue?.first?["fired"] == .int(1))
    }
}

/// The fault methods against hostile input and their own faults (issue 38), on a real server.
@Suite(.serialized) struct FaultMethodsHoldTests {
    static func rpc(_ node: RunningNode, _ body: String) async throws -> (Int, String) {
        let (status, _, data) = try await node.post(body: Data(body.utf8))
        return (status, String(decoding: data, as: UTF8.self))
    }

    static let everyRequest503 =
        #"{"jsonrpc":"2.0","id":1,"method":"sandnet_setFaults","params":[{"rules":[{"shape":"http-503"}]}]}"#
    static let getFaults = #"{"jsonrpc":"2.0","id":9,"method":"sandnet_getFaults"}"#

    @Test(arguments: [#"{"shape":"http-503"}"#, "7"]) func rulesThatAreNotAnArrayAreRefused(_ rules: String)
        async throws
    {
        let node = try await RunningNode.start()
        defer { node.stop() }
        #expect(try await Self.rpc(node, Self.everyRequest503).1 == #"{"jsonrpc":"2.0","id":1,"result":true}"#)
        let (_, refused) = try await Self.rpc(
            node, #"{"jsonrpc":"2.0","id":2,"method":"sandnet_setFaults","params":[{"rules":\#(rules)}]}"#)
        #expect(
            refused
                == #"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"invalid argument 0: rules: want an array of rule objects"}}"#
        )
        // The old schedule is kept.
        let (_, kept) = try await Self.rpc(node, Self.getFaults)
        #expect(try JSON.parse(kept)["result"]?["rules"]?.arrayValue?.count == 1, "\(kept)")
    }

    @Test func aBatchWithAFaultMethodRunsIt() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        #expect(try await Self.rpc(node, Self.everyRequest503).1 == #"{"jsonrpc":"2.0","id":1,"result":true}"#)
        let (status, body) = try await Self.rpc(
            node,
            #"[{"jsonrpc":"2.0","id":1,"method":"sandnet_clearFaults"},{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}]"#
        )
        // The fault method runs first; with the schedule cleared the rest is served.
        #expect(status == 200)
        #expect(
            body == #"[{"jsonrpc":"2.0","id":1,"result":true},{"jsonrpc":"2.0","id":2,"result":"0xaa36a7"}]"#)
        let (_, after) = try await Self.rpc(node, Self.getFaults)
        #expect(try JSON.parse(after)["result"]?["rules"]?.arrayValue?.isEmpty == true, "\(after)")
    }

    @Test func aBatchWithAFaultMethodUnderAFaultGetsTheFaultsShape() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        #expect(try await Self.rpc(node, Self.everyRequest503).1 == #"{"jsonrpc":"2.0","id":1,"result":true}"#)
        let (status, body) = try await Self.rpc(
            node,
            #"[{"jsonrpc":"2.0","id":1,"method":"sandnet_getFaults"},{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}]"#)
        #expect(status == 503, "\(body)")
        #expect(!body.contains("Internal Server Error"))
    }
}
