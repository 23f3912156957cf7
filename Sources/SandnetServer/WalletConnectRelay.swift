import Foundation
import Hummingbird
import HummingbirdWebSocket
import JSONCoding
import JSONRPC
import Logging
import Synchronization
import WalletConnect

/// Settings of the local WalletConnect v2 relay (README, "WalletConnect v2").
public struct WalletConnectRelayConfiguration: Sendable {
    /// Who may connect (client JWT mode, project ids).
    public var admission = RelayAdmission()
    public var limits = RelayLimits()
    /// Faults armed from the start (changed at run time through ``WalletConnectRelay/setFaults(_:)``).
    public var faults = RelayFaults()
    /// Frames queued for one connection before it is closed with 1008 (a reader that does not read).
    public var outboundLimit = 10_000

    public init() {}
}

/// The relay's owner: the pure ``RelayCore`` under one lock, and one outbound queue per connection. Frames are
/// queued (a non-blocking yield) inside the lock, so every connection sees them in the core's order; the writing
/// happens on each connection's own task. Nothing else is locked here, and the lock is never held across an await.
public final class WalletConnectRelay: Sendable {
    enum Outbound: Sendable {
        case text(String)
        case close(code: UInt16, reason: String)
    }

    struct State {
        var core: RelayCore
        var writers: [RelayCore.ConnectionID: AsyncStream<Outbound>.Continuation] = [:]
        var anonymous: UInt64 = 0
    }

    public let configuration: WalletConnectRelayConfiguration
    let state: Mutex<State>
    /// Milliseconds since 1970 (injected by tests).
    let clock: @Sendable () -> Int64

    public init(
        configuration: WalletConnectRelayConfiguration = WalletConnectRelayConfiguration(),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1_000) }
    ) {
        self.configuration = configuration
        self.clock = clock
        var core = RelayCore(limits: configuration.limits, firstDeliveryID: UInt64(max(0, clock())) * 1_000_000)
        core.faults = configuration.faults
        state = Mutex(State(core: core))
    }

    /// The faults still armed.
    public var faults: RelayFaults { state.withLock { $0.core.faults } }

    /// Arms faults (replacing those still armed).
    public func setFaults(_ faults: RelayFaults) { state.withLock { $0.core.faults = faults } }

    /// The relay's recent publishes (method, topic, tag, TTL, prompt), oldest first.
    public var log: [RelayCore.PublishRecord] { state.withLock { $0.core.log } }

    /// Connections open right now.
    public var connectionCount: Int { state.withLock { $0.core.connectionCount } }

    /// The client id of a connection that upgraded, or why it is refused (its WebSocket is closed with 1008 and the
    /// reason: a close frame's reason reaches every client library, an HTTP refusal's body does not).
    func admit(_ request: Request) throws(RelayAdmission.Refusal) -> String {
        var token = request.uri.queryParameters.get("auth")
        if let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        let anonymous = state.withLock {
            $0.anonymous += 1
            return "anonymous:\($0.anonymous)"
        }
        return try configuration.admission.admit(
            token: token, projectID: request.uri.queryParameters.get("projectId"), anonymousID: anonymous,
            now: clock() / 1_000)
    }

    func open(clientID: String) -> (RelayCore.ConnectionID, AsyncStream<Outbound>) {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Outbound.self, bufferingPolicy: .bufferingOldest(configuration.outboundLimit))
        let id = state.withLock {
            let id = $0.core.connect(clientID: clientID)
            $0.writers[id] = continuation
            return id
        }
        return (id, stream)
    }

    func receive(_ frame: [UInt8], from id: RelayCore.ConnectionID) {
        let now = clock()
        state.withLock { Self.perform($0.core.receive(frame, from: id, now: now), state: &$0) }
    }

    func tick() {
        let now = clock()
        state.withLock { Self.perform($0.core.tick(now: now), state: &$0) }
    }

    func close(_ id: RelayCore.ConnectionID) {
        state.withLock {
            $0.core.disconnect(id)
            $0.writers.removeValue(forKey: id)?.finish()
        }
    }

    private static func perform(_ actions: [RelayCore.Action], state: inout State) {
        for action in actions {
            switch action {
            case .send(let id, let text):
                guard let writer = state.writers[id] else { continue }
                if case .dropped = writer.yield(.text(text)) {
                    // The queue is full: the writer ends the stream and closes the socket with 1008.
                    writer.finish()
                    state.writers[id] = nil
                    state.core.disconnect(id)
                }
            case .close(let id, let code, let reason):
                state.writers[id]?.yield(.close(code: code, reason: reason))
            }
        }
    }

    /// Serves one upgraded connection until either side closes it.
    func serve(
        clientID: String, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, maxMessage: Int
    ) async throws {
        let (id, stream) = open(clientID: clientID)
        defer { close(id) }
        let limit = configuration.outboundLimit
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await item in stream {
                    switch item {
                    case .text(let text): try await outbound.write(.text(text))
                    case .close(let code, let reason):
                        try await outbound.close(.init(codeNumber: Int(code)), reason: reason)
                        return
                    }
                }
                guard !Task.isCancelled else { return }
                try await outbound.close(
                    .policyViolation, reason: "client too slow: more than \(limit) frames queued (outboundLimit)")
            }
            group.addTask { [weak self] in
                // TTL expiry, redelivery of unacknowledged messages, delayed deliveries.
                while !Task.isCancelled {
                    try await Task.sleep(for: .milliseconds(250))
                    self?.tick()
                }
            }
            group.addTask { [weak self] in
                for try await message in inbound.messages(maxSize: maxMessage) {
                    switch message {
                    case .text(let text): self?.receive(Array(text.utf8), from: id)
                    case .binary(let buffer): self?.receive(Array(buffer: buffer), from: id)
                    }
                }
            }
            _ = try await group.next()
            group.cancelAll()
        }
    }

    /// Adds the relay's WebSocket route at `path` (a refused client JWT or project id: closed with 1008 and the
    /// reason).
    func addRoute<Context: WebSocketRequestContext>(to router: Router<Context>, path: String, maxMessage: Int) {
        router.ws(RouterPath(path)) { request, _ in
            request.headers[.upgrade]?.lowercased() == "websocket" ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { [self] inbound, outbound, context in
            let clientID: String
            do {
                clientID = try admit(context.request)
            } catch {
                try await outbound.close(.policyViolation, reason: "\(error)")
                return
            }
            try await serve(clientID: clientID, inbound: inbound, outbound: outbound, maxMessage: maxMessage)
        }
    }
}

extension WalletConnectRelay {
    /// The relay alone at `/` on a listener of its own (pywalletconnect connects to `/?auth=…&projectId=…`), with
    /// WebSocket pings every 20 s (the JS SDK drops a socket silent for 31 s).
    func application(
        host: String, port: Int, maxMessage: Int, logger: Logger, onRunning: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        let router = Router(context: BasicWebSocketRequestContext.self)
        addRoute(to: router, path: "/", maxMessage: maxMessage)
        router.get("/health") { _, _ in "ok" }
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(
                webSocketRouter: router,
                configuration: HTTP1WebSocketUpgradeChannel.Configuration(
                    ws: .init(maxFrameSize: maxMessage, autoPing: .enabled(timePeriod: .seconds(20))))),
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}

extension WalletConnectRelay {
    /// Development methods (README, "WalletConnect v2"): `sandnet_setWalletConnectFaults({counts})` arms relay
    /// faults, `sandnet_getWalletConnectFaults` returns those still armed, `sandnet_walletConnectLog` the recent
    /// publishes (method, topic, tag, ttl, prompt, client id).
    public var methods: [String: RPCMethod] {
        [
            "sandnet_setWalletConnectFaults": { [self] params in
                try params.atMost(1)
                let config = try params.required(0) { $0 }
                do throws(RelayFaultsError) {
                    setFaults(try RelayFaults(json: config))
                } catch {
                    throw RPCError.invalidParams("invalid argument 0: \(error.description)")
                }
                return .bool(true)
            },
            "sandnet_getWalletConnectFaults": { [self] params in
                try params.atMost(0)
                return faults.json
            },
            "sandnet_walletConnectLog": { [self] params in
                try params.atMost(0)
                return .array(
                    log.map {
                        .object([
                            ("method", .string($0.method)), ("topic", .string($0.topic)), ("tag", .int($0.tag)),
                            ("ttl", .int($0.ttl)), ("prompt", .bool($0.prompt)), ("clientId", .string($0.clientID)),
                            ("messageId", .string($0.messageID)), ("publishedAt", .int($0.publishedAt)),
                        ])
                    })
            },
        ]
    }
}
