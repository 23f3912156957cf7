import EthereumNode
import Foundation
import SandnetServer
import TLSCertificates
import Testing

/// `--tls` (issue 39): a client that speaks plain HTTP to the TLS port gets a clear answer or a clean close, never a
/// hang; credentials that cannot serve stop the server before it listens. The TLS round trips themselves (HTTPS,
/// WSS, the IC interface) are tested by real clients in Tests/Interop/test_tls.py.
@Suite(.serialized) struct TLSListenerTests {
    static func credentials() throws -> (TLSListenerCredentials, String) {
        let dir = NSTemporaryDirectory() + "sandnet-tls-server-\(UUID().uuidString)"
        let issued = try LocalCertificateAuthority(directory: dir).credentials(names: .loopback)
        return (
            TLSListenerCredentials(
                certificateChainPEM: issued.certificateChainPEM, privateKeyPEM: issued.privateKeyPEM),
            dir
        )
    }

    @Test func plainHTTPToTheTLSPortIsAnswered400AndClosed() async throws {
        let (tls, dir) = try Self.credentials()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let node = try await RunningNode.start(server: { $0.tls = tls })
        defer { node.stop() }
        let socket = try RawSocket(port: node.port)
        try await socket.send(TransportLimitsTests.post(TransportLimitsTests.chainID))
        let text = String(decoding: try await socket.readToEnd(), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(text)")
        #expect(
            text.hasSuffix(
                "\r\n\r\nThis port speaks TLS: use https:// (or wss:// for WebSocket), and trust the node's CA (README, \"TLS\").\n"
            ))
    }

    @Test func bytesThatAreNeitherHTTPNorTLSAreClosed() async throws {
        let (tls, dir) = try Self.credentials()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let node = try await RunningNode.start(server: { $0.tls = tls })
        defer { node.stop() }
        let socket = try RawSocket(port: node.port)
        try await socket.send([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09])
        // The TLS handler refuses the record and closes (at most with a TLS alert; never an HTTP answer).
        let reply = try await socket.readToEnd()
        #expect(!String(decoding: reply, as: UTF8.self).contains("HTTP/1.1"))
        #expect(reply.count < 64)
        #expect(node.server.openConnections <= 1)
    }

    @Test func credentialsThatDoNotParseStopTheServerBeforeItListens() async throws {
        let (good, dir) = try Self.credentials()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.tls = TLSListenerCredentials(certificateChainPEM: good.certificateChainPEM, privateKeyPEM: "nope")
        let server = NodeServer(node: try SandnetNode(configuration: NodeConfiguration()), configuration: configuration)
        await #expect(throws: TLSListenerError.self) { try await server.run(handleSignals: false) }
        #expect(server.port == nil)
    }
}
