import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumRPC
import Foundation
import HummingbirdWebSocket
import JSONCoding
import JSONRPC
import Logging
import NIOCore
import Synchronization

/// One WebSocket connection: JSON-RPC requests (single or batched, in text or binary frames, as geth reads both)
/// plus eth_subscribe/eth_unsubscribe (newHeads, newPendingTransactions, logs), answered in text frames.
///
/// Replies and notifications go through one bounded ``OutboundQueue`` and one writer, in order: a slow reader
/// makes the session stop reading (backpressure), and notifications it cannot take close the connection with
/// 1008 and the limit in the reason. Nothing is dropped silently.
///
/// Lock order: the node's locks (held by `EventHub.publish`) → ``SessionState/subscriptions`` → the queue's lock.
struct WebSocketSession {
    let node: SandnetNode
    let dispatcher: RPCDispatcher
    /// Where the dispatcher runs (off the cooperative pool).
    let executor: NodeExecutor
    let limits: OutboundQueue.Limits
    let logger: Logger
    /// The peer, for per-client limits (the faucet's per-IP cooldown).
    var client = RPCClient()
    /// Provider faults (`websocket-disconnect`) and the path the connection was upgraded at.
    var faults: FaultController?
    var path = "/"
    /// Counts the subscriptions of every connection.
    var gauge = SubscriptionGauge()

    /// How long a connection closing for a slow reader may take to deliver its close frame before it is cut.
    static let closeGrace: Duration = .seconds(15)

    private enum Outcome: Sendable { case writerDone, readerDone, graceExpired }

    func run(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, maxMessage: Int, maxFragments: Int,
        channel: any Channel
    ) async throws {
        let queue = OutboundQueue(limits: limits)
        let state = SessionState(gauge: gauge)
        let overlay = Self.subscriptionMethods(state)
        let notificationLimit = limits.notificationLimit
        let subscription = node.events.subscribe { event in
            for text in state.notifications(for: event, lookup: { node.chain.transaction(hash: $0)?.transaction }) {
                queue.pushNotification(
                    text,
                    closeReason:
                        "client too slow: more than \(notificationLimit) notifications queued (--ws-queue-limit)")
            }
        }
        // A dead or closing connection gives its subscriptions back at once (issue 38: a reset socket's were kept
        // and fed), not after the close handshake.
        let release: @Sendable () -> Void = {
            subscription.cancel()
            state.removeAll()
        }
        defer { release() }
        let dispatcher = self.dispatcher
        let executor = self.executor
        let client = self.client
        let faults = self.faults
        let path = self.path
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            // Also when a task throws (a reset socket): the writer and a reply waiting for room are woken, so the
            // group can end.
            defer { queue.finish() }
            group.addTask {
                while true {
                    switch await queue.next() {
                    case .message(let text):
                        try await outbound.write(.text(text))
                    case .close(let reason):
                        try await outbound.close(.policyViolation, reason: reason)
                        return .writerDone
                    case .finished:
                        return .writerDone
                    }
                }
            }
            group.addTask {
                defer { release() }
                var assembler = WebSocketMessageAssembler(maxBytes: maxMessage, maxFragments: maxFragments)
                for try await frame in inbound {
                    let bytes: [UInt8]
                    switch assembler.take(frame) {
                    case .more: continue
                    case .message(_, let buffer): bytes = Array(buffer: buffer)
                    case .fail(let code, let reason):
                        switch code {
                        case .protocolError: try await outbound.close(.protocolError, reason: reason)
                        case .invalidData: try await outbound.close(.dataInconsistentWithMessage, reason: reason)
                        case .messageTooLarge: try await outbound.close(.messageTooLarge, reason: reason)
                        }
                        return .readerDone
                    }
                    if let faults, faults.severs(path: path, client: client.address, message: bytes) {
                        channel.close(promise: nil)  // severed: no reply, no close frame
                        break
                    }
                    let reply = try await executor.handle(
                        bytes, dispatcher: dispatcher, overlay: overlay, client: client)
                    guard let out = reply else { continue }
                    guard await queue.pushReply(String(decoding: out, as: UTF8.self)) else { break }
                }
                return .readerDone
            }
            var writerDone = false
            var readerDone = false
            var graceStarted = false
            while let outcome = try await group.next() {
                switch outcome {
                case .writerDone: writerDone = true
                case .readerDone: readerDone = true
                case .graceExpired:
                    channel.close(promise: nil)
                    writerDone = true
                    readerDone = true
                }
                if writerDone && readerDone { break }
                guard queue.isClosing else {
                    // The client closed: nothing more can be delivered.
                    break
                }
                // Closing for a slow reader: let the writer flush what is queued and the close frame, and the
                // client answer it (Hummingbird closes the TCP connection right after this returns, discarding
                // unsent bytes), but not forever.
                if !graceStarted {
                    graceStarted = true
                    group.addTask {
                        try await Task.sleep(for: Self.closeGrace)
                        return .graceExpired
                    }
                }
            }
            group.cancelAll()
        }
    }

    /// eth_subscribe / eth_unsubscribe of this connection, with geth's texts (`rpc/handler.go`, `rpc/errors.go`).
    static func subscriptionMethods(_ state: SessionState) -> [String: RPCMethod] {
        [
            "eth_subscribe": { params in
                guard let name = params[0]?.stringValue else {
                    throw RPCError.invalidParams("expected subscription name as first argument")
                }
                return .string(state.add(try SubscriptionTopic(name: name, filter: params[1])))
            },
            "eth_unsubscribe": { params in
                guard let id = params[0] else { throw RPCError.invalidParams("missing value for required argument 0") }
                guard let id = id.stringValue, state.remove(id) else { throw RPCError.server("subscription not found") }
                return .bool(true)
            },
        ]
    }

    /// Over HTTP, as geth answers: no subscriptions on a connection without notifications.
    static let httpSubscriptionMethods: [String: RPCMethod] = [
        "eth_subscribe": { _ in throw RPCError(code: -32601, message: "notifications not supported") },
        "eth_unsubscribe": { params in
            guard params[0] != nil else { throw RPCError.invalidParams("missing value for required argument 0") }
            throw RPCError.server("subscription not found")
        },
    ]

    static func notification(_ id: String, _ result: JSON) -> String {
        JSON.object([
            ("jsonrpc", .string("2.0")), ("method", .string("eth_subscription")),
            ("params", .object([("subscription", .string(id)), ("result", result)])),
        ]).serialized
    }
}

/// The live subscriptions of every WebSocket connection of a server (``NodeServer/webSocketSubscriptions``).
final class SubscriptionGauge: Sendable {
    let live = Atomic<Int>(0)
}

/// Per-connection subscription table, shared by the reader (eth_subscribe) and the event handler.
final class SessionState: Sendable {
    private let subscriptions = Mutex<[(id: String, topic: SubscriptionTopic)]>([])
    private let counter = Atomic<UInt64>(1)
    private let gauge: SubscriptionGauge

    init(gauge: SubscriptionGauge = SubscriptionGauge()) { self.gauge = gauge }

    func add(_ topic: SubscriptionTopic) -> String {
        let n = counter.add(1, ordering: .relaxed).oldValue
        let id = "0x" + String(n &* 0x9e37_79b9_7f4a_7c15, radix: 16)
        subscriptions.withLock { $0.append((id, topic)) }
        gauge.live.add(1, ordering: .relaxed)
        return id
    }

    func remove(_ id: String) -> Bool {
        let removed = subscriptions.withLock { list in
            guard let index = list.firstIndex(where: { $0.id == id }) else { return false }
            list.remove(at: index)
            return true
        }
        if removed { gauge.live.subtract(1, ordering: .relaxed) }
        return removed
    }

    /// Drops every subscription (the connection is gone).
    func removeAll() {
        let count = subscriptions.withLock { list in
            defer { list = [] }
            return list.count
        }
        gauge.live.subtract(count, ordering: .relaxed)
    }

    /// The notifications `event` causes, in subscription order. `lookup` finds a pending transaction for full
    /// `newPendingTransactions` subscribers (called at most once per event, outside this table's lock; events are
    /// published with the ledger lock released).
    func notifications(for event: NodeEvent, lookup: ([UInt8]) -> LedgerTransaction? = { _ in nil }) -> [String] {
        let active = subscriptions.withLock { $0 }
        guard !active.isEmpty else { return [] }
        var out: [String] = []
        var header: JSON?
        var fullTransaction: JSON??
        for (id, topic) in active {
            for result in topic.results(
                for: event, header: &header, pendingTransaction: &fullTransaction, lookup: lookup)
            {
                out.append(WebSocketSession.notification(id, result))
            }
        }
        return out
    }
}
