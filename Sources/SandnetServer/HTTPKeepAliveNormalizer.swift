import NIOCore
import NIOHTTP1

/// Marks every request that does not keep its connection alive with `Connection: close`, which is the one signal
/// Hummingbird reads: an HTTP/1.0 request without `Connection: keep-alive` (RFC 9112 §9.3) or a `Connection` header
/// whose tokens include `close` in any case. Hummingbird then closes after the response; an HTTP/1.0 client that
/// reads to the end of the stream no longer waits for the idle timeout (issue 38). It leaves the pipeline on a
/// WebSocket upgrade request, whose bytes after the head are frames.
final class HTTPKeepAliveNormalizer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers["upgrade"].contains(where: { $0.lowercased().contains("websocket") }) {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        guard !head.isKeepAlive, head.headers["connection"] != ["close"] else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
