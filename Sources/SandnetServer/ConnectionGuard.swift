import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Limits every connection of the server, whatever it becomes (HTTP/1.1 keep-alive or WebSocket).
struct ConnectionLimits: Sendable {
    /// Open connections at most; one more is answered 503 and closed.
    var maxConnections: Int
    /// A new connection must have sent its first request head within this time (slow or silent clients).
    var headerTimeout: TimeAmount
    /// The request head limit of the HTTP parser (NIO's default, 80 KiB), named in the 431 answer.
    var maxHeaderBytes: Int
}

/// The number of open connections, shared by all of them.
final class ConnectionCounter: Sendable {
    let open = Atomic<Int>(0)
}

/// The first handler of every connection (bytes in, bytes out; it never looks inside them except to find the end
/// of the first request head). It counts connections and refuses those over the limit with 503; it closes a
/// connection whose first request head does not arrive within the header timeout (with 408 if part of it came);
/// and it writes the raw answers to requests the HTTP parser rejects before Hummingbird has a request to answer
/// (see ``HTTPParseErrorResponder``). Later requests of a keep-alive connection are watched by Hummingbird's idle
/// timeout; WebSockets by their ping/pong.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum State {
        case new
        /// Reading the first request head; `atLineStart` is true right after a line feed.
        case awaitingHead(atLineStart: Bool, sawBytes: Bool)
        case open
        /// An answer was written and the output closed: input is discarded until the client closes.
        case closing
    }

    private let limits: ConnectionLimits
    private let counter: ConnectionCounter
    private let logger: Logger
    private var state = State.new
    private var counted = false
    private var timer: Scheduled<Void>?

    init(limits: ConnectionLimits, counter: ConnectionCounter, logger: Logger) {
        self.limits = limits
        self.counter = counter
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard case .new = state else { return }
        counted = true
        let open = counter.open.wrappingAdd(1, ordering: .relaxed).newValue
        if open > limits.maxConnections {
            logger.warning("connection refused: \(limits.maxConnections) connections open (--max-connections)")
            answer(
                context, status: "503 Service Unavailable", extraHeaders: "Retry-After: 1\r\n",
                text: "too many open connections: limit is \(limits.maxConnections) (--max-connections)")
            return
        }
        state = .awaitingHead(atLineStart: false, sawBytes: false)
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limits.headerTimeout) { [self] in
            self.timer = nil
            guard case .awaitingHead(_, let sawBytes) = self.state else { return }
            if sawBytes {
                self.answer(
                    context, status: "408 Request Timeout",
                    text:
                        "request head not received within \(Self.seconds(self.limits.headerTimeout)) (--header-timeout)"
                )
            } else {
                Self.giveUp(context)
            }
        }
    }

    /// Closes a connection Hummingbird has not started serving. The upgrade handler is told the input ended first,
    /// so it winds down quietly instead of logging an error for every refused or timed-out connection.
    private static func giveUp(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }

    /// The server is done with the connection once it closes its output: it stops counting then (before the
    /// client can see the end of the stream), or when the channel goes away, whichever comes first.
    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode != .input { uncount() }
        context.close(mode: mode, promise: promise)
    }

    private func finish() {
        timer?.cancel()
        timer = nil
        uncount()
    }

    private func uncount() {
        if counted {
            counted = false
            counter.open.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .closing:
            return
        case .awaitingHead(var atLineStart, _):
            let buffer = unwrapInboundIn(data)
            var complete = false
            for byte in buffer.readableBytesView {
                if byte == UInt8(ascii: "\n") {
                    if atLineStart {
                        complete = true
                        break
                    }
                    atLineStart = true
                } else if byte != UInt8(ascii: "\r") {
                    atLineStart = false
                }
            }
            if complete {
                state = .open
                timer?.cancel()
                timer = nil
            } else {
                state = .awaitingHead(atLineStart: atLineStart, sawBytes: true)
            }
        case .new, .open:
            break
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .closing = state, let event = event as? ChannelEvent, event == .inputClosed {
            Self.giveUp(context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// "30 s", "0.25 s".
    static func seconds(_ time: TimeAmount) -> String {
        let ns = time.nanoseconds
        return ns % 1_000_000_000 == 0 ? "\(ns / 1_000_000_000) s" : "\(Double(ns) / 1e9) s"
    }

    /// Answers a request the parser rejected before Hummingbird saw it (431 for a head over the limit, 400
    /// otherwise) and closes the connection.
    /// The caller has checked that Hummingbird has no HTTP/1.1 handler on the connection yet (the parser can fail
    /// on the chunk that also ends the head). Returns false when an answer is already out.
    func answerParseError(_ context: ChannelHandlerContext, _ error: HTTPParserError) -> Bool {
        if case .closing = state { return false }
        if error == .headerOverflow {
            answer(
                context, status: "431 Request Header Fields Too Large",
                text: "request header too large: limit is \(limits.maxHeaderBytes) bytes")
        } else {
            answer(context, status: "400 Bad Request", text: "malformed HTTP request: \(error)")
        }
        return true
    }

    /// Answers a WebSocket upgrade request ``WebSocketUpgradeValidator`` refused, and closes the connection. Returns
    /// false when an answer is already out.
    func answerRefusedUpgrade(
        _ context: ChannelHandlerContext, _ refusal: WebSocketUpgradeValidator.Refusal
    ) -> Bool {
        if case .closing = state { return false }
        answer(context, status: refusal.status, extraHeaders: refusal.extraHeaders, text: refusal.reason)
        return true
    }

    /// Writes a plain-text answer on the wire, closes the output and discards input until the client closes (so
    /// the answer is not lost to a reset); the header timeout bounds the wait.
    private func answer(_ context: ChannelHandlerContext, status: String, extraHeaders: String = "", text: String) {
        state = .closing
        uncount()
        let body = text + "\n"
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\(extraHeaders)\r\n"
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer(string: head + body))), promise: nil)
        // NIO shuts the output down once the pending write is on the wire.
        let shutdown = context.eventLoop.makePromise(of: Void.self)
        shutdown.futureResult.assumeIsolated().whenFailure { _ in context.close(promise: nil) }
        context.close(mode: .output, promise: shutdown)
        timer?.cancel()
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: limits.headerTimeout) { [self] in
            self.timer = nil
            Self.giveUp(context)
        }
    }
}

/// Catches HTTP parser errors at the end of the pipeline while no HTTP/1.1 request handler exists yet (the first
/// request of a connection, before Hummingbird decides between HTTP and a WebSocket upgrade) and has
/// ``ConnectionGuard`` answer them; without it such a connection got no answer and hung. Later parser errors go
/// on to Hummingbird, which answers 400 and closes. It never looks at the messages it passes on.
final class HTTPParseErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError,
            (try? context.pipeline.syncOperations.handler(type: HTTPConnectionStateHandler.self)) == nil,
            let guardContext = try? context.pipeline.syncOperations.context(handlerType: ConnectionGuard.self),
            let connectionGuard = guardContext.handler as? ConnectionGuard,
            connectionGuard.answerParseError(guardContext, parseError)
        else {
            context.fireErrorCaught(error)
            return
        }
    }
}

/// A server child channel (Hummingbird's HTTP/1.1 + WebSocket upgrade channel) with ``ConnectionGuard`` first in
/// the pipeline and ``HTTPParseErrorResponder`` after the upgrade handler.
struct GuardedChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let limits: ConnectionLimits
    let counter: ConnectionCounter
    let logger: Logger

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(
                ConnectionGuard(limits: limits, counter: counter, logger: self.logger), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(HTTPParseErrorResponder())
            // Between the request decoder and the upgrade handler: it sees the first request head before an upgrade.
            let decoder = try channel.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try channel.pipeline.syncOperations.addHandler(HTTPKeepAliveNormalizer(), position: .after(decoder))
            try channel.pipeline.syncOperations.addHandler(WebSocketUpgradeValidator(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
