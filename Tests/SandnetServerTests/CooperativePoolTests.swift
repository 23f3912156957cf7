import Foundation
import JSONCoding
import Testing

@testable import EthereumNode

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Calls into the node run on threads of their own: while the ledger lock is held (as it is while a block is sealed
/// and written), requests waiting for it occupy none of Swift's cooperative threads, so other connections are still
/// served. Before the node's executor, 64 such requests blocked every cooperative thread and `/health` hung.
@Suite(.serialized) struct CooperativePoolTests {
    @Test(.timeLimit(.minutes(5)))  // a hang guard only: a passing run takes well under a second
    func requestsWaitingForTheLedgerDoNotStallOtherConnections() async throws {
        let running = try await RunningNode.start()
        defer { running.stop() }
        // Hold the ledger lock, as sealing a block and writing it does.
        let release = HeldLockRequests.hold { whileHeld in running.node.chain.withLedger { _ in whileHeld() } }
        let session = HeldLockRequests.session()
        let url = URL(string: "http://127.0.0.1:\(running.port)/")!
        let waiting = HeldLockRequests.post(64, to: url, with: session) { i in
            #"{"jsonrpc":"2.0","id":\#(i),"method":"evm_mine","params":[]}"#
        }
        // Every evm_mine waits for the lock; the server still answers another connection.
        #expect(try await HeldLockRequests.health(port: running.port, with: session) == "ok")
        release.signal()
        let mined = try await waiting.value.filter { try JSON.parse([UInt8]($0.body))["result"] == .string("0x0") }
        #expect(mined.count == 64)
        #expect(running.node.blockNumber == 64)
    }
}
