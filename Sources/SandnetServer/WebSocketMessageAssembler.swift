import HummingbirdWebSocket
import NIOCore

/// Puts a WebSocket message together from its frames, as RFC 6455 §5.4 orders them, into one buffer: memory is
/// proportional to the payload whatever the fragmentation (issue 38: 1-byte fragments cost ~110 bytes each when every
/// frame was kept until the last). It refuses what geth's server (gorilla/websocket) refuses, with the RFC's close
/// codes: a message over the size limit counted across its fragments (1009), more fragments than the limit (1009), a
/// new data frame inside a fragmented message or a continuation with no message started (1002), and a text message
/// that is not UTF-8 (1007, §8.1).
struct WebSocketMessageAssembler {
    enum Kind: Equatable { case text, binary }

    enum Step: Equatable {
        /// The message is not complete yet.
        case more
        case message(Kind, ByteBuffer)
        /// Fail the connection with this close code and reason.
        case fail(CloseCode, String)
    }

    /// The RFC 6455 close codes the assembler fails a connection with.
    enum CloseCode: Int, Equatable {
        case protocolError = 1002
        case invalidData = 1007
        case messageTooLarge = 1009
    }

    /// Largest message in bytes, all fragments together (``ServerConfiguration/maxWebSocketMessageBytes``).
    let maxBytes: Int
    /// Most frames in one message (``ServerConfiguration/maxWebSocketFragments``).
    let maxFragments: Int

    private var kind: Kind?
    private var buffer = ByteBuffer()
    private var fragments = 0

    init(maxBytes: Int, maxFragments: Int) {
        self.maxBytes = maxBytes
        self.maxFragments = maxFragments
    }

    mutating func take(_ frame: WebSocketDataFrame) -> Step {
        switch frame.opcode {
        case .text, .binary:
            guard kind == nil else {
                return .fail(.protocolError, "new data frame inside a fragmented message (RFC 6455 section 5.4)")
            }
            kind = frame.opcode == .text ? .text : .binary
            fragments = 0
            buffer = ByteBuffer()
        case .continuation:
            guard kind != nil else {
                return .fail(.protocolError, "continuation frame with no message started (RFC 6455 section 5.4)")
            }
        }
        fragments += 1
        guard fragments <= maxFragments else {
            return .fail(.messageTooLarge, "message in more than \(maxFragments) fragments")
        }
        guard frame.data.readableBytes <= maxBytes - buffer.readableBytes else {
            return .fail(.messageTooLarge, "message larger than \(maxBytes) bytes")
        }
        if frame.fin, buffer.readableBytes == 0 {
            // Unfragmented (the usual case): no copy.
            buffer = frame.data
        } else {
            var data = frame.data
            buffer.writeBuffer(&data)
        }
        guard frame.fin, let kind else { return .more }
        self.kind = nil
        let message = buffer
        buffer = ByteBuffer()
        if kind == .text, String(validating: message.readableBytesView, as: UTF8.self) == nil {
            return .fail(.invalidData, "text message is not valid UTF-8")
        }
        return .message(kind, message)
    }
}
