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

/// `eth_subscribe("logs", filter)` over a real WebSocket: a token transfer's Transfer log, then after `anvil_reorg`
/// the same log with `removed: true`.
@Suite struct TokenLogsWebSocketTests {
    static let usdc = "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238"

    @Test func logsSubscriptionSeesTransfersAndRemovedLogs() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev = node.node.devAccounts[0].address.lowercased
        let transfer =
            "0xa9059cbb" + String(repeating: "0", count: 24) + "000000000000000000000000000000000000f00d"
            + String(repeating: "0", count: 62) + "64"
        let received = try await withThrowingTaskGroup(of: [String]?.self) { group in
            group.addTask {
                let result = Mutex<[String]>([])
                _ = try await WebSocketClient.connect(
                    url: "ws://127.0.0.1:\(node.port)/", logger: Logger(label: "test")
                ) {
                    inbound, outbound, _ in
                    try await outbound.write(
                        .text(
                            #"{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["logs",{"address":"\#(Self.usdc)","topics":[null,null,["0x000000000000000000000000000000000000000000000000000000000000f00d"]]}]}"#
                        ))
                    var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                    guard case .text(let ack)? = try await iterator.next() else { return }
                    #expect(ack.contains("\"result\":\"0x"))
                    _ = try await node.rpc(
                        "eth_sendTransaction",
                        [.object([("from", .string(dev)), ("to", .string(Self.usdc)), ("data", .string(transfer))])])
                    guard case .text(let added)? = try await iterator.next() else { return }
                    _ = try await node.rpc("anvil_reorg", [.string("0x1")])
                    guard case .text(let removed)? = try await iterator.next() else { return }
                    result.withLock { $0 = [added, removed] }
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
        let notes = try #require(received)
        #expect(notes.count == 2)
        let added = try JSON.parse(notes[0])["params"]?["result"]
        let removed = try JSON.parse(notes[1])["params"]?["result"]
        #expect(added?["address"] == .string(Self.usdc))
        #expect(added?["data"] == .string("0x" + String(repeating: "0", count: 62) + "64"))
        #expect(added?["removed"] == .bool(false))
        #expect(removed?["removed"] == .bool(true))
        #expect(removed?["transactionHash"] == added?["transactionHash"])
        #expect(removed?["blockHash"] == added?["blockHash"])
    }
}
