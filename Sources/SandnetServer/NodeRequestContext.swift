import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the node's router: WebSocket-capable and aware of the client address (for the
/// faucet's per-IP limit).
struct NodeRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<NodeRequestContext>
    let remoteAddress: SocketAddress?
    /// The connection, for a WebSocket session that must cut a client too slow to take its close frame.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    /// Allow bodies up to the node's limit; the handlers enforce the real limit with a clear error.
    var maxUploadSize: Int { 64 << 20 }
}
