import HummingbirdCore
import Logging
import NIOCore
import NIOSSL

/// A certificate chain and key for the node's TLS listener, in PEM (the CLI gets them from `TLSCertificates`).
public struct TLSListenerCredentials: Sendable {
    /// The server certificate first, then any intermediates and the CA.
    public var certificateChainPEM: String
    public var privateKeyPEM: String

    public init(certificateChainPEM: String, privateKeyPEM: String) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
    }

    /// The TLS context every connection shares (TLS 1.2 and 1.3, HTTP/1.1 by ALPN).
    /// - Throws: ``TLSListenerError`` when the PEM does not parse or the key does not fit the certificate.
    func makeContext() throws(TLSListenerError) -> NIOSSLContext {
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificateChainPEM.utf8))
            guard !chain.isEmpty else { throw TLSListenerError(reason: "the certificate chain is empty") }
            let key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
            configuration.minimumTLSVersion = .tlsv12
            configuration.applicationProtocols = ["http/1.1"]
            return try NIOSSLContext(configuration: configuration)
        } catch let error as TLSListenerError {
            throw error
        } catch {
            throw TLSListenerError(reason: "\(error)")
        }
    }
}

/// The TLS listener could not be set up from the credentials given.
public struct TLSListenerError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public var description: String { "TLS: \(reason)" }
}

/// TLS in front of the node's child channel: the plain-text sniffer, then swift-nio-ssl's server handler, placed
/// before every handler of `inner` (the connection guard and HTTP see plain text).
struct TLSChildChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let context: NIOSSLContext

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { [context] value in
            try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context), position: .first)
            try channel.pipeline.syncOperations.addHandler(PlainHTTPOnTLSPortResponder(), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// The first handler of a TLS connection. A TLS client's first byte is 0x16 (a handshake record); a client that
/// starts with a letter speaks plain HTTP (`http://` or `ws://` to an `https://` port): it is answered
/// `400 Bad Request` with a line saying so, in plain text, and the connection is closed, instead of the TLS
/// handshake failing without a word. Any other first byte is left to the TLS handler, which refuses it and closes.
final class PlainHTTPOnTLSPortResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    static let answer =
        "This port speaks TLS: use https:// (or wss:// for WebSocket), and trust the node's CA (README, \"TLS\").\n"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        guard let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) else { return }
        let isLetter = (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first)
        guard isLetter else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        let body = Self.answer
        let head =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        // Written to the socket directly: this handler sits before the TLS handler.
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: head + body))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }
}
