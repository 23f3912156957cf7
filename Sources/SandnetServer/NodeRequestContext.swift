import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The request context of the node's router: WebSocket-capable and aware of the client address (for the
/// faucet's per-IP limit).
struct NodeRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<NodeRequestContext>
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        remoteAddress = source.channel.remoteAddress
    }

    /// Allow bodies up to the node's limit; the handlers enforce the real limit with a clear error.
    var maxUploadSize: Int { 64 << 20 }
}
