import AmbientTraffic
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

/// Blocks that keep coming and other users' traffic in the node, on an injected clock (no timers, no sleeps).
@Suite struct LivingChainTests {
    static func livingNode(_ profile: FeeProfile = .sepolia, seed: UInt64 = 1) throws -> (SandnetNode, TestClock) {
        try makeNode {
            $0.ambient.profile = profile
            $0.ambient.seed = seed
            $0.emptyBlockInterval = 12
        }
    }

    @Test func theLibraryDefaultStaysStill() throws {
        let (node, clock) = try makeNode()
        clock.advance(3_600)
        #expect(node.tick().isEmpty)
        #expect(node.blockNumber == 0)
        #expect(node.feeProfile == .dev)
    }

    @Test func automineKeepsABlockComingEveryIntervalWithOtherUsersTraffic() throws {
        let (node, clock) = try Self.livingNode()
        let first = node.tick()  // the head (genesis) is older than 12 s
        #expect(first.count == 1)
        #expect(first[0].header.timestamp == clock.now)
        #expect(first[0].transactions.count > 10)
        clock.advance(11)
        #expect(node.tick().isEmpty)
        clock.advance(1)
        #expect(node.tick().count == 1)
        #expect(node.blockNumber == 2)
        // A wallet's own transfer still mines at once (automine), and the interval counts from that block.
        clock.advance(5)
        _ = try TypedNodeAPITests.transfer(node, nonce: 0, tip: 1_000_000_000)
        #expect(node.blockNumber == 3)
        clock.advance(11)
        #expect(node.tick().isEmpty)
        clock.advance(1)
        #expect(node.tick().count == 1)
    }

    @Test func feeHistoryRewardsAndTheTipOracleLookLive() throws {
        let (node, clock) = try Self.livingNode()
        for _ in 0..<20 {
            node.tick()
            clock.advance(12)
        }
        let history = try node.feeHistory(count: 10, newest: .latest, percentiles: [10, 50, 90])
        let rewards = try #require(history.reward)
        // web3swift's automatic fees read these: on Sepolia, and now here, the median reward is never 0.
        #expect(rewards.allSatisfy { $0[1] > .zero })
        #expect(rewards.allSatisfy { $0[1] >= UInt256(1_000_000_000 as UInt64) || $0[0] < $0[1] })
        #expect(history.gasUsedRatio.allSatisfy { $0 > 0.05 && $0 <= 1 })
        #expect(node.maxPriorityFeePerGas > .zero)
        // The base fee left 1 gwei for the profile's equilibrium (it falls while the blocks are light).
        #expect(history.baseFeePerGas.last! < UInt256(1_000_000_000 as UInt64))
    }

    @Test func aSeedReplaysTheSameChain() throws {
        func heads(seed: UInt64) throws -> [[UInt8]] {
            let (node, clock) = try Self.livingNode(seed: seed)
            return (0..<3).map { _ in
                defer { clock.advance(12) }
                return node.tick().first?.hash ?? []
            }
        }
        let a = try heads(seed: 7)
        #expect(a == (try heads(seed: 7)))
        #expect(a != (try heads(seed: 8)))
    }

    @Test func switchingProfileChangesTheNextBlocks() throws {
        let (node, clock) = try Self.livingNode()
        #expect(node.tick().first?.transactions.isEmpty == false)
        #expect(try node.call("sandnet_setFeeProfile", [.string("stall")]) == .bool(true))
        #expect(try node.call("sandnet_getFeeProfile") == .string("stall"))
        clock.advance(12)
        #expect(node.tick().first?.transactions.isEmpty == true)
        #expect(
            throws: RPCError(
                code: -32602,
                message:
                    "invalid argument 0: unknown fee profile \"busy\"; known: dev, quiet, sepolia, daily-swell, spike, stall"
            )
        ) { try node.call("sandnet_setFeeProfile", [.string("busy")]) }
    }

    @Test func spikeTrafficFillsTheBlockAndRaisesTheBaseFee() throws {
        let (node, clock) = try Self.livingNode(.spike)
        // Spike episodes start at block 50 of every 300.
        try node.mine(blocks: 49)
        let before = try node.feeHistory(count: 1, newest: .latest, percentiles: []).baseFeePerGas.last!
        clock.advance(600)  // past the 49 blocks' timestamps
        let block = try #require(node.tick().first)
        #expect(block.header.number == 50)
        #expect(block.header.gasUsed > 60_000_000 - 21_000)
        #expect(block.header.baseFeePerGas == before)
        let after = try node.feeHistory(count: 1, newest: .latest, percentiles: []).baseFeePerGas.last!
        #expect(after > before + before / UInt256(9))  // +12.5 % minus one transfer's worth
    }
}

/// Chain conditions: dropped and delayed raw transactions, scheduled reorgs (seeded; injected clock).
@Suite struct ChainConditionTests {
    static func rawTransfer(_ node: SandnetNode, nonce: UInt64) throws -> [UInt8] {
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: node.chainID, nonce: nonce, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gas: 21_000, to: node.devAccounts[1].address,
                value: UInt256(1_000 as UInt64)))
        return try tx.signed(privateKey: node.devAccounts[0].privateKey).encoded
    }

    @Test func aDroppedTransactionGetsAHashAndIsNeverMined() throws {
        let (node, _) = try makeNode()
        var conditions = ChainConditions()
        conditions.dropProbability = 1
        node.setChainConditions(conditions)
        let hash = try node.submit(raw: try Self.rawTransfer(node, nonce: 0))
        #expect(hash.count == 32)
        #expect(node.transaction(hash: hash) == nil)
        #expect(node.blockNumber == 0)
        #expect(try node.transactionCount(of: node.devAccounts[0].address, at: .pending) == 0)
        // The pool's checks still answer at once.
        let short = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: node.chainID, nonce: 0, maxPriorityFeePerGas: UInt256(1),
                maxFeePerGas: UInt256(10_000_000_000 as UInt64),
                gas: 20_000, to: node.devAccounts[1].address, value: UInt256(1)))
        #expect(throws: LedgerError.intrinsicGasTooLow(gas: 20_000, needed: 21_000)) {
            try node.submit(raw: try short.signed(privateKey: node.devAccounts[0].privateKey).encoded)
        }
    }

    @Test func aDelayedTransactionWaitsItsBlocks() throws {
        let (node, clock) = try makeNode { $0.emptyBlockInterval = 12 }
        var conditions = ChainConditions()
        conditions.delayBlocks = 2
        node.setChainConditions(conditions)
        let hash = try node.submit(raw: try Self.rawTransfer(node, nonce: 0))
        #expect(node.transaction(hash: hash) == nil)
        #expect(node.heldTransactions == [hash])
        #expect(node.tick().first?.transactions.isEmpty == true)  // block 1
        clock.advance(12)
        #expect(node.tick().first?.transactions.isEmpty == true)  // block 2 releases it; automine mines block 3
        #expect(node.heldTransactions.isEmpty)
        #expect(node.receipt(hash: hash)?.block.header.number == 3)
    }

    @Test func scheduledReorgsReplaceTheHead() throws {
        let (node, clock) = try makeNode { $0.emptyBlockInterval = 12 }
        var conditions = ChainConditions()
        conditions.reorgEvery = 2
        conditions.reorgDepth = 1
        node.setChainConditions(conditions)
        _ = node.tick()
        clock.advance(12)
        let second = try #require(node.tick().first)
        #expect(node.blockNumber == 2)
        #expect(node.block(hash: second.hash) == nil)  // replaced by the scheduled reorg
        #expect(try node.call("sandnet_getChainConditions")["reorgEvery"] == .int(2))
        #expect(
            throws: RPCError(
                code: -32602,
                message:
                    "invalid argument 0: unknown field \"reorgevery\"; known: delayBlocks, dropProbability, reorgDepth, reorgEvery, reorgRequeue, seed"
            )
        ) { try node.call("sandnet_setChainConditions", [.object([("reorgevery", .int(2))])]) }
    }
}
