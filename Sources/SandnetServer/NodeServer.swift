import DevNetwork
import EthereumNode
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import ICPReplica
import JSONCoding
import JSONRPC
import Logging
import MarketData
import NIOCore
import NIOSSL
import ProviderFaults
import ServiceLifecycle
import Synchronization
import WalletConnect

/// Settings of the HTTP/WebSocket transport. Every connection, queue and request has a bound (README, Limits).
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port (see ``NodeServer/port``).
    public var port = 8545
    /// Largest request body (5 MB).
    public var maxRequestBytes = 5 << 20
    /// Largest WebSocket message (and frame), all its fragments together: a message over it closes with 1009.
    public var maxWebSocketMessageBytes = 5 << 20
    /// Most frames in one WebSocket message: one more closes with 1009.
    public var maxWebSocketFragments = 4_096
    public var cors = true
    /// Open connections at most (HTTP and WebSocket); one more is answered 503 and closed. Below macOS's default of
    /// 256 file descriptors per process, with room for the data directory's files.
    public var maxConnections = 128
    /// A new connection must send its first request head within this many seconds.
    public var headerTimeout: Duration = .seconds(30)
    /// An HTTP keep-alive connection with no request in progress, or a later request head that stalls, is closed
    /// after this many seconds (geth's HTTP idle timeout: 120 s). WebSockets are watched by ping/pong instead.
    public var idleTimeout: Duration = .seconds(120)
    /// Largest JSON-RPC batch (geth: 1,000); 0: no limit.
    public var batchLimit = 1_000
    /// Largest total size of a batch's results and errors (geth: 25,000,000 bytes); 0: no limit.
    public var batchResponseMaxSize = 25_000_000
    /// Per WebSocket connection: replies queued before the server stops reading that socket, and notifications
    /// queued before the connection is closed with 1008.
    public var webSocketQueueLimit = 10_000
    /// Per WebSocket connection: bytes of queued replies before the server stops reading that socket.
    public var webSocketQueueBytes = 16 << 20
    /// Serve `POST /debug/echo` (the load tests' baseline route); off in production.
    public var debugEcho = false
    /// Threads that run calls into the node (``NodeExecutor``), off Swift's cooperative pool.
    public var nodeThreads = 32
    /// Provider faults injected on the JSON-RPC paths from the start (README, "Provider faults"); changed at run
    /// time with `sandnet_setFaults`. Empty: none.
    public var faults = FaultSchedule()
    /// The market simulator served under `/coingecko/api/v3/` and `/coinbase/` (README, "Markets"); nil: none.
    public var market: MarketConfiguration? = MarketConfiguration()
    /// Serve every endpoint over TLS (`https://`, `wss://`) on the same port with this certificate and key; nil: plain
    /// HTTP (README, "TLS").
    public var tls: TLSListenerCredentials?
    /// The WalletConnect v2 relay at `/relay` (README, "WalletConnect v2"); nil: none.
    public var walletConnect: WalletConnectRelayConfiguration? = WalletConnectRelayConfiguration()
    /// With a port (0: any free one), the relay is also served at `/` on a listener of its own (`--relay-port`).
    public var walletConnectPort: Int?

    public init() {}
}

/// Serves a ``DevelopmentNetwork`` over HTTP and WebSocket on one port (as Anvil does): JSON-RPC at `/`, WebSocket
/// upgrade at `/` and `/ws`, the faucet API at `/api/claim` and `/api/info`, a faucet page at `/faucet`, the explorer
/// at `/explorer` (``addExplorerPageRoutes(to:)``), and the ICP
/// ledger on the IC HTTP interface paths with its faucet at `/api/icp/claim`.
public final class NodeServer: Sendable {
    public let network: DevelopmentNetwork
    public var node: SandnetNode { network.node }
    /// The ICP development replica served on the IC HTTP interface paths (`/api/v2/…`), if any.
    public var replica: Replica? { network.icp?.replica }
    public let configuration: ServerConfiguration
    let logger: Logger
    /// Raised once a stop was asked for: Hummingbird's lines about that stop are not errors (``ShutdownLogFilter``).
    let stopping = ShutdownLogFilter.Stopping()
    let boundPort = PortState()
    /// The open connections (``ConnectionGuard`` counts them).
    let connections = ConnectionCounter()
    /// The live `eth_subscribe` subscriptions of all WebSocket connections.
    let subscriptions = SubscriptionGauge()
    let portReady = AsyncStream<Int>.makeStream()
    /// Where calls into the node run (started and stopped by ``run(handleSignals:)``).
    let executor: NodeExecutor
    /// The live provider-fault schedule (``ServerConfiguration/faults`` at start).
    public let faults: FaultController
    /// The WalletConnect v2 relay (``ServerConfiguration/walletConnect``), if any.
    public let walletConnectRelay: WalletConnectRelay?
    let relayPort = PortState()
    let relayPortReady = AsyncStream<Int>.makeStream()

    public init(
        network: DevelopmentNetwork, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger? = nil
    ) {
        self.network = network
        self.configuration = configuration
        executor = NodeExecutor(threads: configuration.nodeThreads)
        faults = FaultController(configuration.faults)
        walletConnectRelay = configuration.walletConnect.map { WalletConnectRelay(configuration: $0) }
        var l = logger ?? Logger(label: "sandnet")
        if logger == nil { l.logLevel = .warning }
        self.logger = l
    }

    /// Serves `node` alone, with no ICP ledger.
    public convenience init(
        node: SandnetNode, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger? = nil
    ) {
        self.init(network: DevelopmentNetwork(node: node), configuration: configuration, logger: logger)
    }

    /// Connections open right now.
    public var openConnections: Int { connections.open.load(ordering: .relaxed) }

    /// `eth_subscribe` subscriptions live right now, over all WebSocket connections.
    public var webSocketSubscriptions: Int { subscriptions.live.load(ordering: .relaxed) }

    /// The port actually bound (after ``run()`` has started listening).
    public var port: Int? { boundPort.value.withLock { $0 } }

    /// The port of the relay's own listener (``ServerConfiguration/walletConnectPort``), once it listens.
    public var walletConnectPort: Int? { relayPort.value.withLock { $0 } }

    /// Waits until the relay's own listener is up and returns its port (nil when it has none).
    public func waitUntilRelayListening() async -> Int? {
        guard configuration.walletConnectPort != nil else { return nil }
        if let walletConnectPort { return walletConnectPort }
        for await port in relayPortReady.stream { return port }
        return walletConnectPort
    }

    /// Waits until the server listens and returns its port.
    public func waitUntilListening() async -> Int? {
        if let port { return port }
        for await port in portReady.stream { return port }
        return port
    }

    func buildApplication(tls: NIOSSLContext?) -> some ApplicationProtocol {
        let router = Router(context: NodeRequestContext.self)
        if configuration.cors {
            router.add(
                middleware: CORSMiddleware(
                    allowOrigin: .all, allowHeaders: [.accept, .contentType, .origin, .authorization],
                    allowMethods: [.get, .post, .options]))
        }
        router.add(middleware: ProviderFaultMiddleware(controller: faults, bodyLimit: configuration.maxRequestBytes))
        let node = self.node
        var dispatcher = network.dispatcher
        for (name, method) in faults.methods { dispatcher.register(name, method) }
        for (name, method) in walletConnectRelay?.methods ?? [:] { dispatcher.register(name, method) }
        dispatcher.batchLimit = configuration.batchLimit
        dispatcher.batchResponseMaxSize = configuration.batchResponseMaxSize
        let limit = configuration.maxRequestBytes
        let executor = self.executor
        let rpc: @Sendable (Request, NodeRequestContext) async throws -> Response = { [dispatcher] request, context in
            var request = request
            let body: ByteBuffer
            switch await Self.readBody(&request, upTo: limit) {
            case .body(let bytes):
                body = bytes
            case .tooLarge:
                let error = RPCError(code: -32600, message: "request body too large: limit is \(limit) bytes")
                return Self.json(RPCDispatcher.response(id: .null, error: error).bytes, status: .contentTooLarge)
            case .malformed(let reason):
                let error = RPCError(code: -32700, message: "parse error: malformed HTTP body (\(reason))")
                var response = Self.json(RPCDispatcher.response(id: .null, error: error).bytes, status: .badRequest)
                response.headers[.connection] = "close"
                return response
            }
            let client = RPCClient(address: context.remoteAddress?.ipAddress)
            let out = try await executor.handle(
                Array(buffer: body), dispatcher: dispatcher,
                overlay: WebSocketSession.httpSubscriptionMethods,
                client: client)
            guard let out else { return Response(status: .ok) }
            return Self.json(out, status: .ok)
        }
        router.post("/", use: rpc)
        router.post("/rpc", use: rpc)
        // Provider-style key URLs (Infura's /v3/KEY, Alchemy's /v2/KEY), so that a wallet's own path can carry
        // faults while `/` stays reliable.
        router.post("/v3/:key", use: rpc)
        router.post("/v2/:key", use: rpc)
        router.get("/health") { _, _ in "ok" }
        if configuration.debugEcho {
            // Load-test baseline: the cheapest JSON route this server framework can serve (Benchmarks/load).
            router.post("/debug/echo") { request, _ -> Response in
                var request = request
                let body = try await request.collectBody(upTo: 1 << 16)
                return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
            }
        }
        router.post("/api/claim") { request, context -> Response in
            var request = request
            let body: ByteBuffer
            switch await Self.readBody(&request, upTo: 1_024) {
            case .body(let bytes): body = bytes
            case .tooLarge: return Self.message("request body too large", status: .contentTooLarge)
            case .malformed(let reason):
                return Self.message("malformed HTTP body (\(reason))", status: .badRequest)
            }
            let bytes = Array(buffer: body)
            let ip = context.remoteAddress?.ipAddress
            let reply = try await executor.run { node.faucet.claim(httpBody: bytes, clientIP: ip) }
            var response = Self.json(reply.body.bytes, status: HTTPResponse.Status(code: reply.status))
            if let wait = reply.retryAfter { response.headers[.retryAfter] = String(wait) }
            return response
        }
        router.get("/api/info") { _, _ in Self.json(node.faucet.info.bytes, status: .ok) }
        if let icp = network.icp { addICPRoutes(to: router, icp: icp) }
        if let market = configuration.market { addMarketRoutes(to: router, market: market) }
        addExplorerRoutes(to: router, dispatcher: dispatcher)
        addNFTRoutes(to: router)
        router.get("/faucet") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: FaucetPage.html(node.faucet.info))))
        }
        addExplorerPageRoutes(to: router)
        let wsLimit = configuration.maxWebSocketMessageBytes
        let wsFragments = configuration.maxWebSocketFragments
        let queueLimits = OutboundQueue.Limits(
            replyLimit: configuration.webSocketQueueLimit, replyByteLimit: configuration.webSocketQueueBytes,
            notificationLimit: configuration.webSocketQueueLimit)
        let logger = self.logger
        let faults = self.faults
        let gauge = subscriptions
        for path in ["/", "/ws"] {
            router.ws(RouterPath(path)) { request, _ in
                request.headers[.upgrade]?.lowercased() == "websocket" ? .upgrade([:]) : .dontUpgrade
            } onUpgrade: { [dispatcher] inbound, outbound, context in
                let client = RPCClient(address: context.requestContext.remoteAddress?.ipAddress)
                var session = WebSocketSession(
                    node: node, dispatcher: dispatcher, executor: executor, limits: queueLimits,
                    logger: logger, client: client)
                session.faults = faults
                session.path = path
                session.gauge = gauge
                try await session.run(
                    inbound: inbound, outbound: outbound, maxMessage: wsLimit, maxFragments: wsFragments,
                    channel: context.requestContext.channel)
            }
        }
        walletConnectRelay?.addRoute(to: router, path: "/relay", maxMessage: wsLimit)
        let boundPort = self.boundPort
        let continuation = portReady.continuation
        return Application(
            router: router,
            server: serverBuilder(webSocketRouter: router, tls: tls),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                boundPort.value.withLock { $0 = port }
                continuation.yield(port)
            },
            logger: Logger(label: logger.label) { [logger, stopping] _ in
                ShutdownLogFilter(wrapped: logger.handler, stopping: stopping)
            })
    }

    /// HTTP/1.1 with the WebSocket upgrade, every connection behind a ``ConnectionGuard``; with `tls`, behind TLS
    /// first (``TLSChildChannel``).
    func serverBuilder(webSocketRouter: Router<NodeRequestContext>, tls: NIOSSLContext?) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration()
        let channelConfiguration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: TimeAmount(configuration.idleTimeout), httpDecoderConfiguration: decoder),
            ws: .init(maxFrameSize: configuration.maxWebSocketMessageBytes))
        let limits = ConnectionLimits(
            maxConnections: configuration.maxConnections,
            headerTimeout: TimeAmount(configuration.headerTimeout),
            maxHeaderBytes: decoder.maxHeaderListSize)
        let counter = connections
        let logger = self.logger
        return HTTPServerBuilder { responder in
            let guarded = GuardedChildChannel(
                inner: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: channelConfiguration),
                limits: limits, counter: counter, logger: logger)
            guard let tls else { return guarded }
            return TLSChildChannel(inner: guarded, context: tls)
        }
    }

    enum BodyOutcome {
        case body(ByteBuffer)
        case tooLarge
        /// The HTTP framing of the body is broken (e.g. a malformed chunk size).
        case malformed(String)
    }

    /// Collects a request body up to `limit` bytes, telling a body over the limit from a malformed one.
    static func readBody(_ request: inout Request, upTo limit: Int) async -> BodyOutcome {
        do {
            return .body(try await request.collectBody(upTo: limit))
        } catch is NIOTooManyBytesError {
            return .tooLarge
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return .tooLarge
        } catch {
            return .malformed("\(error)")
        }
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
    /// - Throws: ``TLSListenerError`` before listening when ``ServerConfiguration/tls`` cannot be used.
    public func run(handleSignals: Bool = true) async throws {
        let tls = try configuration.tls?.makeContext()
        executor.start()
        let app = buildApplication(tls: tls)
        node.failures.setHandler { [logger] failure in
            logger.error("ethereum node: \(failure); the chain keeps its last good state")
        }
        let miner = MiningService(node: node, executor: executor, logger: logger)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: app), .init(service: miner), .init(service: StopFlagService(stopping: stopping)),
        ]
        if let relay = walletConnectRelay, let port = configuration.walletConnectPort {
            let relayPort = self.relayPort
            let ready = relayPortReady.continuation
            let relayApp = relay.application(
                host: configuration.host, port: port, maxMessage: configuration.maxWebSocketMessageBytes,
                logger: logger,
                onRunning: { port in
                    relayPort.value.withLock { $0 = port }
                    ready.yield(port)
                })
            services.append(.init(service: relayApp))
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: services,
            gracefulShutdownSignals: handleSignals ? [.sigint, .sigterm] : [],
            logger: logger)
        // Connections still open after this are cancelled.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfiguration)
        // Cancelling the caller's task is a stop request, handled as a graceful shutdown: cancelling the group
        // directly raced Hummingbird's own shutdown (which then logged "Server shutdown error: Already closed" as an
        // error on every clean stop).
        let running = Task { try await group.run() }
        do {
            try await withTaskCancellationHandler {
                try await running.value
            } onCancel: { [stopping] in
                stopping.value.store(true, ordering: .relaxed)
                Task { await group.triggerGracefulShutdown() }
            }
        } catch {
            await executor.shutdown()
            try? node.shutdown()
            throw error
        }
        await executor.shutdown()
        try node.shutdown()
    }
}

/// Mines due blocks in interval mode and automine's empty-block interval (a 100 ms tick; blocks keep their exact
/// spacing).
struct MiningService: Service {
    let node: SandnetNode
    let executor: NodeExecutor
    /// Where a tick that could not run is logged (the node reports its own failures through `node.failures`).
    let logger: Logger

    func run() async throws {
        while !Task.isCancelledOrShuttingDown {
            // Interval mining, or automine's empty-block interval (the node decides whether a block is due).
            let timed =
                node.miningMode != .manual
                && (node.miningMode != .automatic || node.configuration.emptyBlockInterval != nil)
            if timed {
                do {
                    _ = try await executor.run { [node] in node.tick() }
                } catch {
                    logger.error("block timer: the tick could not run on the node's executor: \(error)")
                }
            }
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
