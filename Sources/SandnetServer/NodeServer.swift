import ByteCoding
import EthereumTypes
import Foundation
import Hummingbird
import HummingbirdWebSocket
import ICPReplica
import JSONCoding
import JSONRPC
import Logging
import NIOCore
import SandnetNode
import ServiceLifecycle
import Synchronization

/// Settings of the HTTP/WebSocket transport.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (see ``NodeServer/port``).
    public var port = 8545
    /// Largest request body (5 MB).
    public var maxRequestBytes = 5 << 20
    /// Largest WebSocket message.
    public var maxWebSocketMessageBytes = 5 << 20
    public var cors = true

    public init() {}
}

/// Serves a ``SandnetNode`` over HTTP and WebSocket on one port (as Anvil does): JSON-RPC at `/`, WebSocket
/// upgrade at `/` and `/ws`, the faucet API at `/api/claim` and `/api/info`, a faucet page at `/faucet`.
public final class NodeServer: Sendable {
    public let node: SandnetNode
    /// The ICP development replica served on the IC HTTP interface paths (`/api/v2/…`), if any.
    public let replica: Replica?
    public let configuration: ServerConfiguration
    let logger: Logger
    let boundPort = PortState()
    let portReady = AsyncStream<Int>.makeStream()

    public init(
        node: SandnetNode, replica: Replica? = nil, configuration: ServerConfiguration = ServerConfiguration(),
        logger: Logger? = nil
    ) {
        self.node = node
        self.replica = replica
        self.configuration = configuration
        var l = logger ?? Logger(label: "sandnet")
        if logger == nil { l.logLevel = .warning }
        self.logger = l
    }

    /// The port actually bound (after ``run()`` has started listening).
    public var port: Int? { boundPort.value.withLock { $0 } }

    /// Waits until the server listens and returns its port.
    public func waitUntilListening() async -> Int? {
        if let port { return port }
        for await port in portReady.stream { return port }
        return port
    }

    func buildApplication() -> some ApplicationProtocol {
        let router = Router(context: NodeRequestContext.self)
        if configuration.cors {
            router.add(middleware: CORSMiddleware(allowOrigin: .all, allowHeaders: [.accept, .contentType, .origin, .authorization], allowMethods: [.get, .post, .options]))
        }
        let node = self.node
        let limit = configuration.maxRequestBytes
        let rpc: @Sendable (Request, NodeRequestContext) async throws -> Response = { request, _ in
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: limit)
            } catch {
                let error = RPCError(code: -32600, message: "request body too large: limit is \(limit) bytes")
                return Self.json(RPCDispatcher.response(id: .null, error: error).bytes, status: .contentTooLarge)
            }
            guard let out = node.dispatcher.handle(Array(buffer: body)) else { return Response(status: .ok) }
            return Self.json(out, status: .ok)
        }
        router.post("/", use: rpc)
        router.post("/rpc", use: rpc)
        router.get("/health") { _, _ in "ok" }
        // Load-test baseline: the cheapest JSON route this server framework can serve (Benchmarks/load).
        router.post("/debug/echo") { request, _ -> Response in
            var request = request
            let body = try await request.collectBody(upTo: 1 << 16)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
        }
        router.post("/api/claim") { request, context -> Response in
            var request = request
            guard let body = try? await request.collectBody(upTo: 1_024) else {
                return Self.message("request body too large", status: .contentTooLarge)
            }
            guard let json = try? JSON.parse(Array(buffer: body)), case .object(let members) = json,
                members.allSatisfy({ $0.0 == "address" }), let text = json["address"]?.stringValue
            else {
                return Self.message("invalid request body: expected {\"address\": \"0x…\"}", status: .badRequest)
            }
            guard let address = try? Address(parsing: text) else {
                return Self.message("invalid address", status: .badRequest)
            }
            let ip = context.remoteAddress?.ipAddress
            do {
                let hash = try node.claimFaucet(address: address, clientIP: ip)
                return Self.message("Txhash: \(Hex.encodePrefixed(hash))", status: .ok)
            } catch let error as FaucetError {
                var response = Self.message(error.message, status: HTTPResponse.Status(code: error.httpStatus))
                if let wait = error.retryAfter { response.headers[.retryAfter] = String(wait) }
                return response
            } catch {
                return Self.message("Transaction failed: \(error)", status: .internalServerError)
            }
        }
        router.get("/api/info") { _, _ in Self.json(node.faucetInfo.bytes, status: .ok) }
        if let replica { addICPRoutes(to: router, replica: replica) }
        router.get("/faucet") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: FaucetPage.html(node.faucetInfo))))
        }
        let wsLimit = configuration.maxWebSocketMessageBytes
        let logger = self.logger
        for path in ["/", "/ws"] {
            router.ws(RouterPath(path)) { request, _ in
                request.headers[.upgrade]?.lowercased() == "websocket" ? .upgrade([:]) : .dontUpgrade
            } onUpgrade: { inbound, outbound, _ in
                try await WebSocketSession(node: node, logger: logger).run(inbound: inbound, outbound: outbound, maxMessage: wsLimit)
            }
        }
        let boundPort = self.boundPort
        let continuation = portReady.continuation
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                boundPort.value.withLock { $0 = port }
                continuation.yield(port)
            },
            logger: logger)
    }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func message(_ text: String, status: HTTPResponse.Status) -> Response {
        json(JSON.object([("msg", .string(text))]).bytes, status: status)
    }

    /// Runs the server, the interval-mining timer and graceful shutdown (SIGINT/SIGTERM), then flushes the
    /// chain to disk.
    public func run(handleSignals: Bool = true) async throws {
        let app = buildApplication()
        let miner = MiningService(node: node)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: app), .init(service: miner)],
                gracefulShutdownSignals: handleSignals ? [.sigint, .sigterm] : [],
                logger: logger))
        do {
            try await group.run()
        } catch {
            try? node.shutdown()
            throw error
        }
        try node.shutdown()
    }
}

/// Mines due blocks in interval mode (a 100 ms tick; blocks keep their exact spacing).
struct MiningService: Service {
    let node: SandnetNode

    func run() async throws {
        while !Task.isCancelledOrShuttingDown {
            if case .interval = node.miningMode { node.tick() }
            try? await Task.sleep(for: .milliseconds(100))
        }
    }
}

extension Task where Success == Never, Failure == Never {
    static var isCancelledOrShuttingDown: Bool { Task.isCancelled || Task.isShuttingDownGracefully }
}

/// The bound port, set once the listener is up.
final class PortState: Sendable {
    let value = Mutex<Int?>(nil)
}
