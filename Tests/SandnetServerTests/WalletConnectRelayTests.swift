import Foundation
import HummingbirdWSClient
import JSONCoding
import Logging
import SandnetServer
import Synchronization
import Testing
import WalletConnect

/// The WalletConnect v2 relay over real WebSockets on 127.0.0.1: at `/relay` on the node's port and at `/` on its
/// own listener (as pywalletconnect connects), with client JWTs in the query or the Authorization header.
@Suite struct WalletConnectRelayTests {
    static let topic = String(repeating: "c", count: 64)
    static let seed = [UInt8](repeating: 7, count: 32)

    static func token(audience: String = "wss://relay.walletconnect.com") throws -> String {
        let now = Int64(Date().timeIntervalSince1970)
        return try RelayJWT.sign(
            seed: seed, subject: String(repeating: "0", count: 64), audience: audience, issuedAt: now,
            expiresAt: now + 86_400)
    }

    /// Connects, sends `frames` one by one and collects text frames until `until` says enough; acknowledges every
    /// `irn_subscription` it reads (as the SDKs do).
    static func session(
        _ url: String, authorization: String? = nil, frames: [String], until: @escaping @Sendable ([JSON]) -> Bool
    ) async throws -> [JSON] {
        let received = Mutex<[JSON]>([])
        var configuration = WebSocketClientConfiguration()
        if let authorization { configuration.additionalHeaders[.authorization] = authorization }
        _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: Logger(label: "test")) {
            inbound, outbound, _ in
            for frame in frames { try await outbound.write(.text(frame)) }
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                let json = try JSON.parse(text)
                if json["method"] == .string("irn_subscription"), let id = json["id"] {
                    try await outbound.write(.text(#"{"id":\#(id.serialized),"jsonrpc":"2.0","result":true}"#))
                }
                let all = received.withLock {
                    $0.append(json)
                    return $0
                }
                if until(all) { break }
            }
            try await outbound.close(.normalClosure, reason: nil)
        }
        return received.withLock { $0 }
    }

    @Test func aPublishOnTheOwnListenerReachesALaterSubscriberAtSlashRelay() async throws {
        let node = try await RunningNode.start(server: { $0.walletConnectPort = 0 })
        defer { node.stop() }
        let relayPort = try #require(await node.server.waitUntilRelayListening())
        let relay = try #require(node.server.walletConnectRelay)
        // The dApp (pywalletconnect's way: `/` with ?auth= and ?projectId=) publishes before anyone listens.
        let published = try await Self.session(
            "ws://127.0.0.1:\(relayPort)/?auth=\(try Self.token())&projectId=any",
            frames: [
                #"{"id":1778341964282845123,"jsonrpc":"2.0","method":"irn_publish","params":{"topic":"\#(Self.topic)","message":"AHF3ZWNm","ttl":300,"tag":1100,"prompt":true}}"#
            ], until: { $0.count == 1 })
        #expect(published.first?.serialized == #"{"id":1778341964282845123,"jsonrpc":"2.0","result":true}"#)
        // The wallet (reown-swift's way: Authorization header) subscribes at /relay and gets it from the mailbox.
        let other = try RelayJWT.sign(
            seed: [UInt8](repeating: 9, count: 32), subject: "n", audience: "wss://relay.walletconnect.org",
            issuedAt: 1, expiresAt: Int64(Date().timeIntervalSince1970) + 60)
        let received = try await Self.session(
            "ws://127.0.0.1:\(node.port)/relay?projectId=p", authorization: "Bearer \(other)",
            frames: [#"{"id":"a","jsonrpc":"2.0","method":"irn_subscribe","params":{"topic":"\#(Self.topic)"}}"#],
            until: { $0.count == 2 })
        let walletID = try RelayJWT(parsing: other).issuer
        #expect(received.first?["result"] == .string(RelayHash.subscriptionID(topic: Self.topic, clientID: walletID)))
        #expect(received.last?["params"]?["data"]?["message"] == .string("AHF3ZWNm"))
        #expect(relay.log.map(\.tag) == [1100])
        #expect(relay.log.first?.clientID == (try RelayJWT(parsing: try Self.token()).issuer))
    }

    @Test func strictModeRefusesTheUpgradeAndNamesTheReason() async throws {
        let node = try await RunningNode.start(server: {
            var relay = WalletConnectRelayConfiguration()
            relay.admission = RelayAdmission(mode: .strict, audiences: ["wss://relay.walletconnect.org"])
            $0.walletConnect = relay
        })
        defer { node.stop() }
        let close = try await WebSocketClient.connect(
            url: "ws://127.0.0.1:\(node.port)/relay?auth=\(try Self.token())", logger: Logger(label: "test")
        ) { inbound, _, _ in
            for try await _ in inbound.messages(maxSize: 1 << 16) {}
        }
        #expect(close?.closeCode == .policyViolation)
        #expect(
            close?.reason
                == "invalid relay JWT: aud wss://relay.walletconnect.com is not one of wss://relay.walletconnect.org")
        #expect(node.server.walletConnectRelay?.connectionCount == 0)
    }
}
