import AmbientTraffic
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import KeccakHashing
import NativeContracts
import Synchronization
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
        #expect(node.ambient.feeProfile == .dev)
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
        let history = try node.chain.feeHistory(count: 10, newest: .latest, percentiles: [10, 50, 90])
        let rewards = try #require(history.reward)
        // web3swift's automatic fees read these: on Sepolia, and now here, the median reward is never 0.
        #expect(rewards.allSatisfy { $0[1] > .zero })
        #expect(rewards.allSatisfy { $0[1] >= UInt256(1_000_000_000 as UInt64) || $0[0] < $0[1] })
        #expect(history.gasUsedRatio.allSatisfy { $0 > 0.05 && $0 <= 1 })
        #expect(node.chain.maxPriorityFeePerGas > .zero)
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
        try node.dev.mine(blocks: 49)
        let before = try node.chain.feeHistory(count: 1, newest: .latest, percentiles: []).baseFeePerGas.last!
        clock.advance(600)  // past the 49 blocks' timestamps
        let block = try #require(node.tick().first)
        #expect(block.header.number == 50)
        // Full: token transfers are packed by their 65,000 gas limit but use 41–63k, so a full block uses ≥ 98 %.
        #expect(block.header.gasUsed > 58_800_000)
        #expect(block.header.baseFeePerGas == before)
        let after = try node.chain.feeHistory(count: 1, newest: .latest, percentiles: []).baseFeePerGas.last!
        #expect(after > before + before / UInt256(9))  // +12.5 % × the block's fullness
    }
}

/// Other users' token transfers: USDC, LINK and the USDT-quirks token, each a Transfer log in its receipt.
@Suite struct AmbientTokenTrafficTests {
    static let transferTopic = Array(Keccak256.hash(utf8: "Transfer(address,address,uint256)"))
    static let tokens: Set<Address> = [
        TokenDefinition.usdc.address, TokenDefinition.link.address, TokenDefinition.usdt.address,
    ]

    @Test func otherUsersSendTokensThatLogTransfers() throws {
        let (node, clock) = try LivingChainTests.livingNode()
        var sentTo: [Address: Int] = [:]
        for _ in 0..<3 {
            #expect(node.tick().count == 1)
            clock.advance(12)
            let (receipts, block) = try #require(node.chain.receipts(inBlock: .latest))
            for (receipt, tx) in zip(receipts, block.transactions) {
                #expect(receipt.status)  // every transfer succeeds: the users hold the tokens
                guard let to = tx.to, Self.tokens.contains(to) else {
                    #expect(receipt.logs.isEmpty && tx.data.isEmpty)
                    continue
                }
                sentTo[to, default: 0] += 1
                #expect(tx.value == .zero && tx.gasLimit == 65_000)
                #expect(receipt.gasUsed > 30_000 && receipt.gasUsed < 65_000)
                let log = try #require(receipt.logs.first)
                #expect(receipt.logs.count == 1 && log.address == to && log.topics.first == Self.transferTopic)
                #expect(log.topics.count == 3 && Array(log.topics[1].suffix(20)) == tx.sender.bytes)
            }
        }
        #expect(Set(sentTo.keys) == Self.tokens)  // all three tokens move
        #expect(sentTo.values.reduce(0, +) > 10)
        // The senders hold what the ledger's token controls gave them, less what they sent.
        let latest = try #require(node.chain.receipts(inBlock: .latest)?.block)
        let sender = try #require(latest.transactions.first { $0.to == TokenDefinition.usdc.address }?.sender)
        let answer = try node.call(
            "eth_call",
            [
                TokenRPCTests.call(
                    TokenRPCTests.usdc,
                    TokenRPCTests.calldata("balanceOf(address)", [TokenRPCTests.address(sender.lowercased)]))
            ])
        let text = try #require(answer.stringValue)
        let held = try #require(UInt256(hexDigits: text.dropFirst(2)))
        #expect(held > UInt256(500_000_000_000 as UInt64) && held <= UInt256(1_001_000_000_000 as UInt64))
    }

    @Test func aChainWithoutNativeTokensKeepsPlainTransfers() throws {
        let (node, _) = try makeNode {
            $0.ambient.profile = .sepolia
            $0.ambient.seed = 1
            $0.emptyBlockInterval = 12
            $0.chain.nativeContracts = NativeContractRegistry()
        }
        let block = try #require(node.tick().first)
        #expect(block.transactions.count > 10)
        #expect(block.transactions.allSatisfy { $0.data.isEmpty && $0.to.map { !Self.tokens.contains($0) } == true })
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
        node.conditions.set(conditions)
        let hash = try node.submit(raw: try Self.rawTransfer(node, nonce: 0))
        #expect(hash.count == 32)
        #expect(node.chain.transaction(hash: hash) == nil)
        #expect(node.blockNumber == 0)
        #expect(try node.chain.transactionCount(of: node.devAccounts[0].address, at: .pending) == 0)
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
        node.conditions.set(conditions)
        let hash = try node.submit(raw: try Self.rawTransfer(node, nonce: 0))
        #expect(node.chain.transaction(hash: hash) == nil)
        #expect(node.conditions.heldTransactions == [hash])
        #expect(node.tick().first?.transactions.isEmpty == true)  // block 1
        clock.advance(12)
        #expect(node.tick().first?.transactions.isEmpty == true)  // block 2 releases it; automine mines block 3
        #expect(node.conditions.heldTransactions.isEmpty)
        #expect(node.chain.receipt(hash: hash)?.block.header.number == 3)
    }

    @Test func scheduledReorgsReplaceTheHead() throws {
        let (node, clock) = try makeNode { $0.emptyBlockInterval = 12 }
        var conditions = ChainConditions()
        conditions.reorgEvery = 2
        conditions.reorgDepth = 1
        node.conditions.set(conditions)
        _ = node.tick()
        clock.advance(12)
        let second = try #require(node.tick().first)
        #expect(node.blockNumber == 2)
        #expect(node.chain.block(hash: second.hash) == nil)  // replaced by the scheduled reorg
        #expect(try node.call("sandnet_getChainConditions")["reorgEvery"] == .int(2))
        #expect(
            throws: RPCError(
                code: -32602,
                message:
                    "invalid argument 0: unknown field \"reorgevery\"; known: delayBlocks, dropProbability, reorgDepth, reorgEvery, reorgRequeue, seed"
            )
        ) { try node.call("sandnet_setChainConditions", [.object([("reorgevery", .int(2))])]) }
    }

    @Test func scheduledReorgsGiveLogFiltersAndSubscribersRemovedLogs() throws {
        let (node, clock) = try LivingChainTests.livingNode()
        var conditions = ChainConditions()
        conditions.reorgEvery = 2
        conditions.reorgDepth = 2
        node.conditions.set(conditions)
        let removedBlocks = Mutex<[[UInt8]]>([])
        let subscription = node.events.subscribe { event in
            if case .removedBlocks(let blocks) = event { removedBlocks.withLock { $0 += blocks.map(\.hash) } }
        }
        defer { subscription.cancel() }
        let filter = try node.filters.newFilter(LogFilter(addresses: [TokenDefinition.usdc.address]))
        let first = try #require(node.tick().first)
        guard case .logs(let delivered) = try node.filters.changes(filter) else {
            Issue.record("a log filter answers logs")
            return
        }
        #expect(!delivered.isEmpty && delivered.allSatisfy { !$0.removed && $0.block.hash == first.hash })
        clock.advance(12)
        _ = node.tick()  // block 2, then the scheduled reorg replaces blocks 1 and 2
        #expect(node.chain.block(hash: first.hash) == nil)
        #expect(removedBlocks.withLock { $0.contains(first.hash) })
        guard case .logs(let changes) = try node.filters.changes(filter) else {
            Issue.record("a log filter answers logs")
            return
        }
        let removed = changes.filter(\.removed)
        #expect(removed.map(\.receipt.transactionHash) == delivered.map(\.receipt.transactionHash))
        #expect(removed.allSatisfy { $0.block.hash == first.hash })
    }
}
