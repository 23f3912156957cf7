import Dispatch
import Foundation
import JSONCoding
import Synchronization
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
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Hold the ledger lock on a thread that is not the cooperative pool's.
        Thread.detachNewThread {
            running.node.ledger.withLock { _ in
                held.signal()
                release.wait()
            }
        }
        held.wait()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        let session = URLSession(configuration: configuration)
        let url = URL(string: "http://127.0.0.1:\(running.port)/")!
        let waiting = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<64 {
                    group.addTask {
                        var request = URLRequest(url: url)
                        request.httpMethod = "POST"
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        request.httpBody = Data(#"{"jsonrpc":"2.0","id":\#(i),"method":"evm_mine","params":[]}"#.utf8)
                        let (data, _) = try await session.data(for: request)
                        return try JSON.parse([UInt8](data))["result"] == .string("0x0") ? 1 : 0
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        // Every evm_mine waits for the lock; the server still answers another connection.
        let (health, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(running.port)/health")!)
        #expect(String(decoding: health, as: UTF8.self) == "ok")
        release.signal()
        #expect(try await waiting.value == 64)
        #expect(running.node.blockNumber == 64)
    }
}
