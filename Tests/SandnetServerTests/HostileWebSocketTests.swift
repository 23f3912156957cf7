import Foundation
import JSONCoding
import SandnetServer
import Testing

/// Hostile WebSocket clients (issue 38): dead sockets give their subscriptions back at once, and frames are held to
/// RFC 6455 as geth's server (gorilla/websocket) holds them. Over raw sockets on 127.0.0.1; no timing decides a
/// verdict (a wait polls for a state, with a hang guard only).
@Suite(.serialized) struct HostileWebSocketTests {
    /// Polls `condition` until it holds; throws when the hang guard expires (a failing run only).
    static func eventually(
        _ what: String, hangGuard: Duration = .seconds(600), _ condition: () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + hangGuard
        while !condition() {
            guard ContinuousClock.now < deadline else { throw RawSocket.Failure(description: "never: \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    static func subscribe(_ id: Int) -> [UInt8] {
        RawSocket.textFrame(#"{"jsonrpc":"2.0","id":\#(id),"method":"eth_subscribe","params":["newHeads"]}"#)
    }

    enum Ending: String, CaseIterable, Sendable {
        /// TCP reset with replies unread (the issue's attack).
        case reset
        /// End of stream with no close frame, after reading every reply.
        case abrupt
        /// A close frame, answered, after reading every reply.
        case clean
    }

    @Test(arguments: Ending.allCases) func subscriptionsOfAClosedSocketAreFreedAtOnce(_ ending: Ending) async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let count = 10_000
        let ws = try await RawSocket.webSocket(port: node.port, receiveBuffer: ending == .reset ? 4_096 : nil)
        var requests: [UInt8] = []
        for id in 1...count { requests += Self.subscribe(id) }
        let frames = WebSocketFrameReader(ws)
        switch ending {
        case .reset:
            // Unread replies back up into the server's queue; the subscriptions made so far are live.
            async let sent: Void = ws.send(requests)
            try await sent
            try await Self.eventually("every subscription") { node.server.webSocketSubscriptions == count }
            ws.reset()
        case .abrupt, .clean:
            async let sent: Void = ws.send(requests)
            let replies = try await RawSocket.blocking { () throws -> Int in
                var replies = 0
                while replies < count, let frame = try frames.nextNow() {
                    if frame.opcode == 1 { replies += 1 }
                }
                return replies
            }
            try await sent
            #expect(replies == count)
            #expect(node.server.webSocketSubscriptions == count)
            if ending == .clean {
                try await ws.send(RawSocket.frame([0x03, 0xE8], opcode: 8))
                #expect(try await frames.next()?.close?.code == 1000)
            } else {
                ws.shutdownOutput()
            }
        }
        try await Self.eventually("no subscriptions") { node.server.webSocketSubscriptions == 0 }
        #expect(node.node.events.subscriberCount == 0)
        // The node goes on serving, and a new subscriber is fed.
        _ = try await node.rpc("evm_mine")
        let next = try await RawSocket.webSocket(port: node.port)
        try await next.send(Self.subscribe(1))
        let nextFrames = WebSocketFrameReader(next)
        #expect(try await nextFrames.next()?.text.contains(#""result":"0x"#) == true)
        #expect(node.server.webSocketSubscriptions == 1)
    }

    // MARK: Frames (RFC 6455 §5.4, §8.1)

    static let chainID = Array(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#.utf8)

    /// Sends `frames` on a new WebSocket and returns the close frame the server answers with.
    static func closeAnswering(
        _ frames: [UInt8], server: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> (code: Int, reason: String)? {
        let node = try await RunningNode.start(server: server)
        defer { node.stop() }
        let ws = try await RawSocket.webSocket(port: node.port)
        try await ws.send(frames)
        let close = try await WebSocketFrameReader(ws).next()
        #expect(close?.opcode == 8, "\(close?.text ?? "end of stream")")
        return close?.close
    }

    @Test func aMessageInOneByteFragmentsIsAnswered() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let ws = try await RawSocket.webSocket(port: node.port)
        var frames: [UInt8] = []
        for (index, byte) in Self.chainID.enumerated() {
            frames += RawSocket.frame([byte], opcode: index == 0 ? 1 : 0, fin: index == Self.chainID.count - 1)
        }
        try await ws.send(frames)
        #expect(try await WebSocketFrameReader(ws).next()?.text == #"{"jsonrpc":"2.0","id":1,"result":"0xaa36a7"}"#)
    }

    @Test func theSizeLimitCountsEveryFragment() async throws {
        let part = [UInt8](repeating: 0x20, count: 600)
        let close = try await Self.closeAnswering(
            RawSocket.frame(part, opcode: 1, fin: false) + RawSocket.frame(part, opcode: 0, fin: false),
            server: { $0.maxWebSocketMessageBytes = 1_000 })
        #expect(close?.code == 1009)
        #expect(close?.reason == "message larger than 1000 bytes")
    }

    @Test func fragmentsPerMessageHaveALimit() async throws {
        var frames = RawSocket.frame([0x20], opcode: 1, fin: false)
        for _ in 0..<16 { frames += RawSocket.frame([0x20], opcode: 0, fin: false) }
        let close = try await Self.closeAnswering(frames, server: { $0.maxWebSocketFragments = 16 })
        #expect(close?.code == 1009)
        #expect(close?.reason == "message in more than 16 fragments")
    }

    @Test func aNewDataFrameInsideAFragmentedMessageFails1002() async throws {
        let close = try await Self.closeAnswering(
            RawSocket.frame(Array(Self.chainID[..<10]), opcode: 1, fin: false)
                + RawSocket.frame(Self.chainID, opcode: 1))
        #expect(close?.code == 1002)
        #expect(close?.reason == "new data frame inside a fragmented message (RFC 6455 section 5.4)")
    }

    @Test func aContinuationWithNoMessageFails1002() async throws {
        let close = try await Self.closeAnswering(RawSocket.frame(Self.chainID, opcode: 0))
        #expect(close?.code == 1002)
        #expect(close?.reason == "continuation frame with no message started (RFC 6455 section 5.4)")
    }

    @Test func invalidUTF8InATextMessageFails1007() async throws {
        let close = try await Self.closeAnswering(
            RawSocket.frame(
                Array(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","x":""#.utf8) + [0xC3, 0x28, 0x22, 0x7D],
                opcode: 1))
        #expect(close?.code == 1007)
        #expect(close?.reason == "text message is not valid UTF-8")
    }
}

/// WebSocket upgrade requests refused as RFC 6455 §4.2 and geth's server refuse them (issue 38).
@Suite(.serialized) struct WebSocketUpgradeValidationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let head: String
        let status: String
        let reason: String
        var testDescription: String { name }
    }

    static let key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    static let version = "Sec-WebSocket-Version: 13\r\n"
    static let upgrade = "Upgrade: websocket\r\nConnection: Upgrade\r\n"

    static let cases = [
        Case(
            name: "no key", head: "GET / HTTP/1.1\r\nHost: a\r\n\(upgrade)\(version)\r\n", status: "400 Bad Request",
            reason: "WebSocket upgrade needs a 'Sec-WebSocket-Key' header"),
        Case(
            name: "two keys", head: "GET / HTTP/1.1\r\nHost: a\r\n\(upgrade)\(key)\(key)\(version)\r\n",
            status: "400 Bad Request", reason: "WebSocket upgrade needs one 'Sec-WebSocket-Key' header, got 2"),
        Case(
            name: "key not 16 bytes",
            head: "GET / HTTP/1.1\r\nHost: a\r\n\(upgrade)Sec-WebSocket-Key: abcd\r\n\(version)\r\n",
            status: "400 Bad Request", reason: "'Sec-WebSocket-Key' must be base64 of 16 bytes (RFC 6455 section 4.1)"),
        Case(
            name: "no Connection: Upgrade",
            head: "GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n\(key)\(version)\r\n", status: "400 Bad Request",
            reason: "WebSocket upgrade needs a 'Connection: Upgrade' header"),
        Case(
            name: "HTTP/1.0", head: "GET / HTTP/1.0\r\nHost: a\r\n\(upgrade)\(key)\(version)\r\n",
            status: "400 Bad Request", reason: "WebSocket upgrade needs HTTP/1.1 or later, got HTTP/1.0"),
        Case(
            name: "version 8", head: "GET / HTTP/1.1\r\nHost: a\r\n\(upgrade)\(key)Sec-WebSocket-Version: 8\r\n\r\n",
            status: "426 Upgrade Required",
            reason: "unsupported WebSocket version: want a 'Sec-WebSocket-Version: 13' header"),
    ]

    @Test(arguments: cases) func refusedWithTheReason(_ refused: Case) async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let socket = try RawSocket(port: node.port)
        try await socket.send(refused.head)
        let text = String(decoding: try await socket.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 \(refused.status)\r\n"), "\(text)")
        #expect(text.hasSuffix("\r\n\r\n\(refused.reason)\n"), "\(text)")
        if refused.status.hasPrefix("426") { #expect(text.contains("\r\nSec-WebSocket-Version: 13\r\n")) }
        // A good upgrade still works.
        let ws = try await RawSocket.webSocket(port: node.port)
        try await ws.send(RawSocket.textFrame(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#))
        #expect(try await WebSocketFrameReader(ws).next()?.text == #"{"jsonrpc":"2.0","id":1,"result":"0xaa36a7"}"#)
    }
}
