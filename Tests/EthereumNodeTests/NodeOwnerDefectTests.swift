import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import Foundation
import KeccakHashing
import KeyValueStorage
import Synchronization
import Testing

/// The defects found while splitting ``SandnetNode`` into owners (issue 28), each shown by a test that failed
/// before its fix.
@Suite struct NodeOwnerDefectTests {
    static let dead = try! Address(parsing: "0x000000000000000000000000000000000000dead")

    /// The faucet checked the cooldown and recorded the claim under two lock acquisitions, with the transfer in
    /// between: concurrent claims from one client all passed the check.
    @Test func concurrentClaimsFromOneIPPayExactlyOnce() throws {
        let (node, _) = try makeNode { $0.faucetCooldown = 3_600 }
        let faucet = node.faucet
        let outcomes = Mutex<[Result<[UInt8], FaucetError>]>([])
        onThreads(16) { i in
            let address = Address([UInt8](repeating: 0, count: 19) + [UInt8(i + 1)])!
            let outcome: Result<[UInt8], FaucetError>
            do throws(FaucetError) {
                outcome = .success(try faucet.claim(address: address, clientIP: "10.0.0.7"))
            } catch {
                outcome = .failure(error)
            }
            outcomes.withLock { $0.append(outcome) }
        }
        let all = outcomes.withLock { $0 }
        let paid = all.compactMap { try? $0.get() }
        #expect(paid.count == 1)
        #expect(all.count == 16)
        // The one transfer is mined (automine); nobody else was paid.
        #expect(node.blockNumber == 1)
    }

    /// `mine(blocks:)` published its blocks outside the miner's turn and automine inside it, so a `newHeads`
    /// subscriber could see block N+1 before block N.
    @Test func newHeadsArriveInChainOrderUnderConcurrentMiningAndAutomine() async throws {
        let (node, _) = try makeNode { $0.accountCount = 4 }
        let seen = Mutex<[UInt64]>([])
        // A subscriber that does some work per block before it queues it (as a WebSocket session encodes it).
        let subscription = node.events.subscribe { event in
            guard case .newBlock(let block) = event else { return }
            var digest = block.hash
            for _ in 0..<200 { digest = Keccak256.hash(digest + digest) }
            seen.withLock { $0.append(block.number) }
        }
        defer { subscription.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                let sender = node.devAccounts[task].address
                group.addTask {
                    for i in 0..<25 {
                        if task % 2 == 0 {
                            try node.dev.mine(blocks: UInt64(1 + i % 3))
                        } else {
                            _ = try node.submitter.sendTransaction(
                                TransactionRequest(to: Self.dead, value: UInt256(1)), from: sender)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let numbers = seen.withLock { $0 }
        // 2 × 49 blocks asked for, and every transfer mined (some share a block with another).
        #expect(node.blockNumber >= 98)
        #expect(node.pool.content.pending.isEmpty)
        #expect(try node.chain.balance(of: Self.dead) == UInt256(50))
        #expect(numbers == Array(1...node.blockNumber))
    }

    /// Interval mining's errors were dropped (`try? mineTimerBlock`): a full disk went unnoticed. Now they reach the
    /// node's failure handler, the chain stays as it was, reads are answered, and mining resumes once the store
    /// recovers.
    @Test func aFailedTimerBlockReachesTheHandlerAndTheNodeRecovers() throws {
        let store = FlakyStore()
        var config = NodeConfiguration()
        config.miningMode = .interval(seconds: 12)
        let clock = TestClock()
        let node = try SandnetNode(configuration: config, store: store, clock: { clock.now })
        let failures = Mutex<[BackgroundFailure]>([])
        node.failures.setHandler { failure in failures.withLock { $0.append(failure) } }
        let sender = node.devAccounts[0].address
        let hash = try node.submitter.sendTransaction(
            TransactionRequest(to: Self.dead, value: UInt256(5)), from: sender)

        store.failing.store(true, ordering: .relaxed)
        clock.advance(12)
        #expect(node.tick().isEmpty)
        let reported = failures.withLock { $0 }
        #expect(reported.count == 1)
        #expect(reported.first?.path == .timerBlock)
        #expect(reported.first?.message.contains("disk full") == true)
        // Consistent: no block, the transaction still pending, reads answered.
        #expect(node.blockNumber == 0)
        #expect(try node.chain.balance(of: Self.dead) == .zero)
        #expect(node.chain.transaction(hash: hash)?.block == nil)

        store.failing.store(false, ordering: .relaxed)
        clock.advance(1)
        let mined = node.tick()
        #expect(mined.count == 1)
        #expect(mined.first?.transactions.map(\.hash) == [hash])
        #expect(try node.chain.balance(of: Self.dead) == UInt256(5))
        #expect(failures.withLock { $0.count } == 1)
        // What the node answers is what the store holds.
        let reopened = try SandnetNode(configuration: config, store: store.inner, clock: { clock.now })
        #expect(reopened.blockNumber == 1)
        #expect(try reopened.chain.balance(of: Self.dead) == UInt256(5))
    }
}

/// Runs `body(0..<count)` on `count` threads of their own, released together, and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let ready = Atomic<Int>(0)
    let group = DispatchGroup()
    for i in 0..<count {
        group.enter()
        Thread {
            ready.add(1, ordering: .acquiringAndReleasing)
            while ready.load(ordering: .acquiring) < count {}  // a start gate: every thread claims at once
            body(i)
            group.leave()
        }.start()
    }
    group.wait()
}

/// An in-memory store whose writes fail while ``failing`` is set (a full disk), reads unaffected.
final class FlakyStore: KeyValueStore {
    let inner = InMemoryStore()
    let failing = Atomic<Bool>(false)

    func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try inner.get(key) }

    func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        guard !failing.load(ordering: .relaxed) else { throw StorageError("disk full") }
        try inner.write(batch, sync: sync)
    }

    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try inner.scan(prefix: prefix, body)
    }
}
