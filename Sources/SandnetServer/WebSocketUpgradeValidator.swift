import Foundation
import NIOCore
import NIOHTTP1

/// Holds a connection's first request, when it asks for a WebSocket, to RFC 6455 §4.2.1 as geth's server
/// (gorilla/websocket) does, before NIO's upgrader sees it: NIO closed the connection with no answer on a missing or
/// repeated `Sec-WebSocket-Key` or a version other than 13, and upgraded a key that is not base64 of 16 bytes, a
/// request without `Connection: Upgrade` and an HTTP/1.0 request (issue 38). A refused request is answered `400` with
/// the reason, or `426` with `Sec-WebSocket-Version: 13` for a wrong version (§4.4), and the connection closed by
/// ``ConnectionGuard``. The validator leaves the pipeline after the first request head.
final class WebSocketUpgradeValidator: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Why an upgrade request is refused.
    struct Refusal: Equatable, Sendable {
        let status: String
        let extraHeaders: String
        let reason: String

        static func badRequest(_ reason: String) -> Refusal {
            Refusal(status: "400 Bad Request", extraHeaders: "", reason: reason)
        }
    }

    /// A refused request's remaining parts are dropped.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if let refusal = Self.refusal(head),
            let guardContext = try? context.pipeline.syncOperations.context(handlerType: ConnectionGuard.self),
            let connectionGuard = guardContext.handler as? ConnectionGuard
        {
            refused = true
            _ = connectionGuard.answerRefusedUpgrade(guardContext, refusal)
            return
        }
        context.fireChannelRead(data)
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Whether `head` asks for a WebSocket and what is wrong with it, if anything.
    static func refusal(_ head: HTTPRequestHead) -> Refusal? {
        let upgrade = tokens(head.headers["upgrade"])
        guard upgrade.contains("websocket") else { return nil }
        guard head.version.major == 1, head.version.minor >= 1 else {
            return .badRequest(
                "WebSocket upgrade needs HTTP/1.1 or later, got HTTP/\(head.version.major).\(head.version.minor)")
        }
        guard tokens(head.headers["connection"]).contains("upgrade") else {
            return .badRequest("WebSocket upgrade needs a 'Connection: Upgrade' header")
        }
        let versions = head.headers["sec-websocket-version"]
        guard versions.count == 1, versions[0].trimmingCharacters(in: .whitespaces) == "13" else {
            return Refusal(
                status: "426 Upgrade Required", extraHeaders: "Sec-WebSocket-Version: 13\r\n",
                reason: "unsupported WebSocket version: want a 'Sec-WebSocket-Version: 13' header")
        }
        let keys = head.headers["sec-websocket-key"]
        guard keys.count == 1 else {
            return .badRequest(
                keys.isEmpty
                    ? "WebSocket upgrade needs a 'Sec-WebSocket-Key' header"
                    : "WebSocket upgrade needs one 'Sec-WebSocket-Key' header, got \(keys.count)")
        }
        guard let key = Data(base64Encoded: keys[0].trimmingCharacters(in: .whitespaces)), key.count == 16 else {
            return .badRequest("'Sec-WebSocket-Key' must be base64 of 16 bytes (RFC 6455 section 4.1)")
        }
        return nil
    }

    /// The comma-separated tokens of a header's values, lowercased.
    private static func tokens(_ values: [String]) -> Set<String> {
        var out: Set<String> = []
        for value in values {
            for token in value.split(separator: ",") {
                out.insert(token.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        return out
    }
}
