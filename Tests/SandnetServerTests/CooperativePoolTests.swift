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

    /// Old-block reads wait on the ledger lock and may read LevelDB: they run on the executor, not inline. When
    /// `eth_getBlockByNumber` was a "quick read" run inline, 64 of them blocked every cooperative thread and `/health`
    /// hung.
    @Test(.timeLimit(.minutes(5)))  // a hang guard only: a passing run takes well under a second
    func blockReadsWaitingForTheLedgerDoNotStallOtherConnections() async throws {
        let running = try await RunningNode.start()
        defer { running.stop() }
        let release = HeldLockRequests.hold { whileHeld in running.node.chain.withLedger { _ in whileHeld() } }
        let session = HeldLockRequests.session()
        let waiting = HeldLockRequests.post(64, to: running.url, with: session) { i in
            #"{"jsonrpc":"2.0","id":\#(i),"method":"eth_getBlockByNumber","params":["0x0",false]}"#
        }
        #expect(try await HeldLockRequests.health(port: running.port, with: session) == "ok")
        release.signal()
        let genesis = try await waiting.value.filter {
            try JSON.parse([UInt8]($0.body))["result"]?["number"] == .string("0x0")
        }
        #expect(genesis.count == 64)
    }

    /// Every method registered inline answers while the ledger lock is held: none of them reaches the chain.
    @Test(.timeLimit(.minutes(5)))  // a hang guard only
    func inlineMethodsAnswerWhileTheLedgerLockIsHeld() async throws {
        let running = try await RunningNode.start()
        defer { running.stop() }
        let inline = running.server.network.dispatcher.inlineMethods.sorted()
        #expect(inline.count == 8)
        let release = HeldLockRequests.hold { whileHeld in running.node.chain.withLedger { _ in whileHeld() } }
        defer { release.signal() }
        for name in inline {
            let params = name == "web3_sha3" ? #"["0x"]"# : "[]"
            let (status, _, body) = try await running.post(
                body: Data(#"{"jsonrpc":"2.0","id":1,"method":"\#(name)","params":\#(params)}"#.utf8))
            #expect(status == 200)
            #expect(try JSON.parse([UInt8](body))["result"] != nil, "\(name)")
        }
    }
}
