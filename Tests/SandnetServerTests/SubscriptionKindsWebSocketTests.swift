import EthereumNode
import Foundation
import HummingbirdWSClient
import JSONCoding
import Logging
import SandnetServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 19's subscription kinds over a real WebSocket: `syncing` (accepted, silent while synced, as geth),
/// `newPendingTransactions` with `true` (full transaction objects) and unknown names (geth's -32601).
@Suite struct SubscriptionKindsWebSocketTests {
    @Test func syncingFullPendingAndUnknownNames() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev = node.node.devAccounts[0].address.lowercased
        let received = try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                let result = Mutex<[String]>([])
                _ = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(node.port)/", logger: Logger(label: "test")
                ) {
                    inbound, outbound, _ in
                    var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    var frames: [String] = []
                    for (id, params) in [
                        (1, #"["syncing"]"#), (2, #"["newPendingTransactions",true]"#),
                        (3, #"["newPendingTransactions"]"#), (4, #"["bogus"]"#),
                        (5, #"["newPendingTransactions","yes"]"#),
                    ] {
                        try await outbound.write(
                            .text(#"{"jsonrpc":"2.0","id":\#(id),"method":"eth_subscribe","params":\#(params)}"#))
                        guard case .text(let ack)? = try await iterator.next() else { return }
                        frames.append(ack)
                    }
                    for nonce in 0..<2 {
                        _ = try await node.rpc(
                            "eth_sendTransaction",
                            [
                                .object([
                                    ("from", .string(dev)), ("to", .string(dev)), ("nonce", .string("0x\(nonce)")),
                                ])
                            ])
                        for _ in 0..<2 {
                            guard case .text(let note)? = try await iterator.next() else { return }
                            frames.append(note)
                        }
                    }
                    result.withLock { $0 = frames }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                return result.withLock { $0 }
            }
            group.addTask {
                // A hang guard only: generous enough never to decide a passing run on an overloaded machine.
                try await Task.sleep(for: .seconds(300))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let frames = try #require(received).map { try JSON.parse($0) }
        try #require(frames.count == 9)
        let syncingID = frames[0]["result"]
        let fullID = frames[1]["result"]
        let hashID = frames[2]["result"]
        #expect(syncingID?.stringValue?.hasPrefix("0x") == true && fullID != hashID)
        #expect(frames[3]["error"]?["code"] == .number("-32601"))
        #expect(frames[3]["error"]?["message"] == .string("no \"bogus\" subscription in eth namespace"))
        #expect(frames[4]["error"]?["code"] == .number("-32602"))
        #expect(
            frames[4]["error"]?["message"]
                == .string("invalid argument 1: json: cannot unmarshal string into Go value of type bool"))
        // Per transaction: the full object, then the hash, in subscription order; the syncing subscription is silent.
        for pair in [(5, 6), (7, 8)] {
            let full = frames[pair.0]["params"]
            let hash = frames[pair.1]["params"]
            #expect(full?["subscription"] == fullID && hash?["subscription"] == hashID)
            #expect(full?["result"]?["hash"] == hash?["result"])
            #expect(full?["result"]?["from"] == .string(dev))
            #expect(full?["result"]?["blockHash"] == .null)
        }
        #expect(frames[5]["params"]?["result"]?["nonce"] == .string("0x0"))
        #expect(frames[7]["params"]?["result"]?["nonce"] == .string("0x1"))
    }
}
