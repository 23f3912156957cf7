import ByteCoding
import Foundation
import HummingbirdWSClient
import JSONCoding
import Logging
import Synchronization
import WalletConnect

/// A WalletConnect relay client over one WebSocket (the emulators' transport): `irn_*` calls with 19-digit ids
/// (as reown-swift's), and the messages delivered by `irn_subscription`, each acknowledged at once.
public final class RelayClient: Sendable {
    /// A message the relay delivered.
    public struct Delivery: Sendable {
        public let topic: String
        public let message: String
        public let tag: Int64
    }

    /// Why a relay call failed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    struct State {
        var waiting: [String: CheckedContinuation<JSON, any Error>] = [:]
        var outbound: AsyncStream<String>.Continuation?
        var closed = false
        var nextID: UInt64
    }

    let state: Mutex<State>
    /// Messages delivered by the relay, in order.
    public let deliveries: AsyncStream<Delivery>
    let deliveryContinuation: AsyncStream<Delivery>.Continuation
    let task = Mutex<Task<Void, Never>?>(nil)

    init() {
        state = Mutex(State(nextID: UInt64(Date().timeIntervalSince1970 * 1_000) * 1_000_000))
        let (stream, continuation) = AsyncStream<Delivery>.makeStream(bufferingPolicy: .bufferingOldest(10_000))
        deliveries = stream
        deliveryContinuation = continuation
    }

    /// Connects to a relay URL (`ws://127.0.0.1:PORT/relay`), authenticating with a fresh client JWT for `seed`.
    /// - Returns: once the WebSocket is open.
    public static func connect(
        url: String, seed: [UInt8] = SessionCrypto.randomBytes(), audience: String = "wss://relay.walletconnect.org",
        logger: Logger = Logger(label: "walletconnect")
    ) async throws -> RelayClient {
        let client = RelayClient()
        let now = Int64(Date().timeIntervalSince1970)
        let token = try RelayJWT.sign(
            seed: seed, subject: Hex.encode(SessionCrypto.randomBytes()), audience: audience, issuedAt: now,
            expiresAt: now + 86_400)
        let separator = url.contains("?") ? "&" : "?"
        let target = url + separator + "auth=" + token
        let (outgoing, outbound) = AsyncStream.makeStream(of: String.self)
        client.state.withLock { $0.outbound = outbound }
        try await withCheckedThrowingContinuation { (opened: CheckedContinuation<Void, any Error>) in
            let once = Mutex<CheckedContinuation<Void, any Error>?>(opened)
            let task = Task {
                do {
                    _ = try await WebSocketClient.connect(url: target, logger: logger) { inbound, writer, _ in
                        once.withLock { $0.take() }?.resume()
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for await text in outgoing { try await writer.write(.text(text)) }
                            }
                            group.addTask {
                                for try await message in inbound.messages(maxSize: 4 << 20) {
                                    guard case .text(let text) = message else { continue }
                                    if let ack = client.receive(text) { outbound.yield(ack) }
                                }
                            }
                            _ = try await group.next()
                            group.cancelAll()
                        }
                    }
                } catch {
                    once.withLock { $0.take() }?.resume(throwing: error)
                }
                once.withLock { $0.take() }?.resume(throwing: Failure("the relay closed the connection"))
                client.finish(Failure("the relay connection closed"))
            }
            client.task.withLock { $0 = task }
        }
        return client
    }

    /// Handles one frame; returns the acknowledgement to send for a delivery.
    func receive(_ text: String) -> String? {
        guard let json = try? JSON.parse(text) else { return nil }
        if json["method"] == .string("irn_subscription") {
            if let data = json["params"]?["data"], let topic = data["topic"]?.stringValue,
                let message = data["message"]?.stringValue
            {
                deliveryContinuation.yield(
                    Delivery(topic: topic, message: message, tag: data["tag"]?.numberText.flatMap { Int64($0) } ?? 0))
            }
            return JSON.object([("id", json["id"] ?? .null), ("jsonrpc", .string("2.0")), ("result", .bool(true))])
                .serialized
        }
        let key = json["id"]?.numberText ?? json["id"]?.stringValue ?? ""
        let waiter = state.withLock { $0.waiting.removeValue(forKey: key) }
        if let error = json["error"] {
            waiter?.resume(throwing: Failure(error["message"]?.stringValue ?? error.serialized))
        } else {
            waiter?.resume(returning: json["result"] ?? .null)
        }
        return nil
    }

    /// Calls a relay method and waits for its answer.
    public func call(_ method: String, _ params: JSON) async throws -> JSON {
        try await withCheckedThrowingContinuation { continuation in
            let sent: Bool = state.withLock {
                guard !$0.closed, let outbound = $0.outbound else { return false }
                let id = $0.nextID
                $0.nextID += 1
                $0.waiting[String(id)] = continuation
                let request = JSON.object([
                    ("id", .int(id)), ("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params),
                ])
                outbound.yield(request.serialized)
                return true
            }
            if !sent { continuation.resume(throwing: Failure("the relay connection is closed")) }
        }
    }

    public func subscribe(_ topic: String) async throws {
        _ = try await call("irn_subscribe", .object([("topic", .string(topic))]))
    }

    public func publish(_ topic: String, message: String, tag: Int64, ttl: Int64 = 300, prompt: Bool = false)
        async throws
    {
        _ = try await call(
            "irn_publish",
            .object([
                ("topic", .string(topic)), ("message", .string(message)), ("ttl", .int(ttl)), ("tag", .int(tag)),
                ("prompt", .bool(prompt)),
            ]))
    }

    /// Closes the connection; waiting calls fail.
    public func close() {
        finish(Failure("the relay connection was closed"))
        task.withLock { $0?.cancel() }
    }

    func finish(_ failure: Failure) {
        let waiting = state.withLock {
            $0.closed = true
            $0.outbound?.finish()
            let waiting = $0.waiting
            $0.waiting = [:]
            return waiting
        }
        for waiter in waiting.values { waiter.resume(throwing: failure) }
        deliveryContinuation.finish()
    }
}
