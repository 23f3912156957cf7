import ByteCoding
import EthereumLedger
import Foundation
import HummingbirdWebSocket
import JSONCoding
import JSONRPC
import Logging
import SandnetNode
import Synchronization

/// One WebSocket connection: JSON-RPC requests plus eth_subscribe/eth_unsubscribe (newHeads,
/// newPendingTransactions, logs), with one writer so frames never interleave.
struct WebSocketSession {
    let node: SandnetNode
    let logger: Logger

    enum Topic: Sendable { case newHeads, pending, logs }

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, maxMessage: Int) async throws {
        let (outgoing, send) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let state = SessionState()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await text in outgoing { try await outbound.write(.text(text)) }
            }
            group.addTask {
                for await event in node.events.subscribe() {
                    let active = state.subscriptions.withLock { $0 }
                    guard !active.isEmpty else { continue }
                    for (id, topic) in active {
                        switch (event, topic) {
                        case (.newBlock(let block), .newHeads):
                            send.yield(Self.notification(id, NodeFormat.header(block)))
                        case (.pendingTransaction(let hash), .pending):
                            send.yield(Self.notification(id, .string(Hex.encodePrefixed(hash))))
                        default: break
                        }
                    }
                }
            }
            for try await message in inbound.messages(maxSize: maxMessage) {
                guard case .text(let text) = message else { continue }
                let bytes = Array(text.utf8)
                if let reply = handleSubscription(bytes, state) {
                    send.yield(reply)
                } else if let out = node.dispatcher.handle(bytes) {
                    send.yield(String(decoding: out, as: UTF8.self))
                }
            }
            send.finish()
            group.cancelAll()
        }
    }

    /// Handles eth_subscribe / eth_unsubscribe; nil for anything else.
    func handleSubscription(_ bytes: [UInt8], _ state: SessionState) -> String? {
        guard let request = try? JSON.parse(bytes), let method = request["method"]?.stringValue,
            method == "eth_subscribe" || method == "eth_unsubscribe"
        else { return nil }
        let id = request["id"] ?? .null
        let params = request["params"]?.arrayValue ?? []
        func reply(_ result: JSON) -> String {
            JSON.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]).serialized
        }
        if method == "eth_unsubscribe" {
            guard let sub = params.first?.stringValue else {
                return RPCDispatcher.response(id: id, error: .invalidParams("missing value for required argument 0")).serialized
            }
            return reply(.bool(state.subscriptions.withLock { $0.removeValue(forKey: sub) != nil }))
        }
        let topic: Topic
        switch params.first?.stringValue {
        case "newHeads": topic = .newHeads
        case "newPendingTransactions": topic = .pending
        case "logs": topic = .logs
        case let other:
            return RPCDispatcher.response(
                id: id, error: .invalidParams("no \"\(other ?? "")\" subscription in eth namespace")).serialized
        }
        let n = state.counter.add(1, ordering: .relaxed).oldValue
        let subID = "0x" + String(n &* 0x9e37_79b9_7f4a_7c15, radix: 16)
        state.subscriptions.withLock { $0[subID] = topic }
        return reply(.string(subID))
    }

    static func notification(_ id: String, _ result: JSON) -> String {
        JSON.object([
            ("jsonrpc", .string("2.0")), ("method", .string("eth_subscription")),
            ("params", .object([("subscription", .string(id)), ("result", result)])),
        ]).serialized
    }
}

/// Per-connection subscription table, shared by the reader and the event forwarder.
final class SessionState: Sendable {
    let subscriptions = Mutex<[String: WebSocketSession.Topic]>([:])
    let counter = Atomic<UInt64>(1)
}
