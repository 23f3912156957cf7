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
        _ what: String, hangGuard: Duration = .seconds(30), _ condition: () -> Bool
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
}
