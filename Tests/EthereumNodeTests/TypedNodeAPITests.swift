import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import Testing

/// The node's typed API, called without JSON: what the JSON-RPC layer converts to and from.
@Suite struct TypedNodeAPITests {
    static func transfer(_ node: SandnetNode, nonce: UInt64, tip: UInt64) throws -> [UInt8] {
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: node.chainID, nonce: nonce, maxPriorityFeePerGas: UInt256(tip),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gas: 21_000, to: node.devAccounts[1].address,
                value: UInt256(1_000 as UInt64)))
        return try node.submit(raw: try tx.signed(privateKey: node.devAccounts[0].privateKey).encoded)
    }

    @Test func feeHistoryIsTyped() throws {
        let (node, _) = try makeNode()
        _ = try Self.transfer(node, nonce: 0, tip: 2_000_000_000)
        _ = try Self.transfer(node, nonce: 1, tip: 3_000_000_000)
        let history = try node.chain.feeHistory(count: 2, newest: .latest, percentiles: [50])
        #expect(history.oldestBlock == 1)
        #expect(history.baseFeePerGas.count == 3)
        #expect(history.reward == [[UInt256(2_000_000_000 as UInt64)], [UInt256(3_000_000_000 as UInt64)]])
        #expect(history.gasUsedRatio.allSatisfy { $0 > 0 })
        #expect(throws: NodeError.invalidRewardPercentile("#0:50.0 >= #1:40.0")) {
            try node.chain.feeHistory(count: 1, newest: .latest, percentiles: [50, 40])
        }
        #expect(throws: NodeError.headerNotFound) {
            try node.chain.feeHistory(count: 1, newest: .number(99), percentiles: [])
        }
        #expect(try node.chain.feeHistory(count: 0, newest: .latest, percentiles: [10]).gasUsedRatio.isEmpty)
    }

    @Test func stateReadsAndSelectors() throws {
        let (node, _) = try makeNode()
        let sender = node.devAccounts[0].address
        let before = try node.chain.balance(of: sender)
        _ = try Self.transfer(node, nonce: 0, tip: 1_000_000_000)
        #expect(try node.chain.balance(of: sender, at: .number(0)) == before)
        #expect(try node.chain.balance(of: sender) < before)
        #expect(try node.chain.transactionCount(of: sender) == 1)
        #expect(throws: NodeError.headerNotFound) { try node.chain.balance(of: sender, at: .number(5)) }
        #expect(
            try node.chain.storage(at: sender, key: [UInt8](repeating: 0, count: 32))
                == [UInt8](repeating: 0, count: 32))
        guard case .sealed(let block)? = node.chain.block(.latest) else {
            Issue.record("the head is a sealed block")
            return
        }
        #expect(block.number == 1)
        guard case .pending(let pending)? = node.chain.block(.pending) else {
            Issue.record("`pending` is the pending block")
            return
        }
        #expect(pending.number == 2 && pending.transactions.isEmpty && pending.block.size > 0)
        #expect(node.chain.block(.number(7)) == nil)
        #expect(node.chain.transaction(inBlock: .latest, index: 0)?.index == 0)
        #expect(node.chain.transaction(inBlock: .hash(block.hash), index: 1) == nil)
    }

    @Test func callsAndEstimatesAreChecked() throws {
        let (node, _) = try makeNode()
        var request = TransactionRequest(
            from: node.devAccounts[0].address, to: node.devAccounts[1].address, data: [1, 0])
        // EIP-7623's floor (21,000 + 10 × (1 + 4 × 1) tokens) is above the standard 21,000 + 4 + 16.
        #expect(try node.chain.estimateGas(request) == 21_050)
        request.gas = 21_000
        #expect(throws: NodeError.gasRequiredExceedsAllowance(cap: 21_000)) { try node.chain.estimateGas(request) }
        request.value = .max
        // Without fee fields geth's state transition wants the value alone (issue 30); the estimator names its gas.
        let balance = UInt256(10_000) * UInt256(1_000_000_000_000_000_000 as UInt64)
        let short = NodeError.insufficientFunds(sender: node.devAccounts[0].address, have: balance, want: .max)
        #expect(throws: short) { try node.chain.call(request) }
        #expect(throws: NodeError.estimationFailed(gas: 21_000, short)) { try node.chain.estimateGas(request) }
        request.maxFeePerGas = UInt256(1_000_000_000 as UInt64)
        #expect(throws: NodeError.insufficientFundsForTransfer) { try node.chain.estimateGas(request) }
    }

    @Test func logQueriesAreBounded() throws {
        let (node, _) = try makeNode()
        #expect(throws: NodeError.invalidBlockRange) {
            try node.chain.logs(LogFilter(fromBlock: .number(1), toBlock: .number(0)))
        }
        // geth (and execution-apis' filter-error-future-block-range): a range past the head is refused, not empty.
        #expect(throws: NodeError.blockRangeBeyondHead) { try node.chain.logs(LogFilter(toBlock: .number(1))) }
        #expect(throws: NodeError.blockRangeBeyondHead) {
            try node.chain.logs(LogFilter(fromBlock: .number(0x29), toBlock: .number(0x2f)))
        }
        #expect(throws: NodeError.invalidBlockRange) {
            try node.filters.newFilter(LogFilter(fromBlock: .number(2), toBlock: .number(1)))
        }
        #expect(throws: NodeError.unknownBlock) {
            try node.chain.logs(LogFilter(blockHash: [UInt8](repeating: 7, count: 32)))
        }
        let many = LogFilter(addresses: Array(repeating: node.devAccounts[0].address, count: LogFilter.queryLimit + 1))
        #expect(throws: NodeError.tooManyFilterCriteriaPerPosition) { try node.chain.logs(many) }
        #expect(try node.chain.logs(LogFilter()).isEmpty)
    }

    @Test func filtersAndSnapshots() throws {
        let (node, _) = try makeNode()
        let blocks = try node.filters.newBlockFilter()
        try node.mine(blocks: 2)
        guard case .hashes(let hashes) = try node.filters.changes(blocks) else {
            Issue.record("a block filter hands out hashes")
            return
        }
        #expect(hashes.count == 2)
        #expect(node.filters.uninstall(blocks))
        #expect(throws: NodeError.filterNotFound) { try node.filters.changes(blocks) }
        let id = try node.snapshot()
        try node.mine(blocks: 3)
        #expect(node.blockNumber == 5)
        #expect(try node.revert(to: id))
        #expect(node.blockNumber == 2)
        #expect(throws: NodeError.tooManyBlocks(limit: 100_000)) { try node.mine(blocks: 100_001) }
        #expect(throws: NodeError.reorgTooDeep(limit: 100_000)) { try node.reorg(depth: 100_001, requeue: false) }
    }

    @Test func signingNeedsAKeyTheNodeHolds() throws {
        let (node, _) = try makeNode()
        #expect(try node.signPersonalMessage([1, 2, 3], address: node.devAccounts[0].address).count == 65)
        #expect(throws: NodeError.unknownAccount) { try node.signPersonalMessage([1], address: Address.zero) }
        #expect(throws: NodeError.unknownAccount) {
            try node.sendTransaction(TransactionRequest(to: node.devAccounts[1].address), from: Address.zero)
        }
    }
}
