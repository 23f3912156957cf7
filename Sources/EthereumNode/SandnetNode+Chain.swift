import EthereumLedger
import EthereumTransactions
import EthereumTypes

/// The node's typed read API: chain facts, fees, state at a block, blocks, transactions, receipts and logs. Each
/// read takes the ledger lock once, so it sees one consistent chain.
extension SandnetNode {
    // MARK: Chain

    /// The chain id now (``setChainID(_:)`` changes it).
    public var chainID: UInt64 { withLedger { $0.config.chainID } }
    /// The coinbase of the next block (``setCoinbase(_:)`` changes it).
    public var coinbase: Address { withLedger { $0.config.coinbase } }

    public var blockNumber: UInt64 { withLedger { $0.blockNumber } }

    /// Whether blocks are mined without being asked (automatic or interval mining).
    public var isMining: Bool { miningMode != .manual }

    // MARK: Fees

    /// The next block's base fee plus the suggested tip; a base fee set near 2^256 − 1
    /// (anvil_setNextBlockBaseFeePerGas) saturates instead of wrapping.
    public var gasPrice: UInt256 {
        withLedger { chain in
            let (price, overflow) = chain.nextBaseFee.addingReportingOverflow(suggestedTip(chain))
            return overflow ? UInt256.max : price
        }
    }

    /// The suggested priority fee (see ``suggestedTip(_:)``).
    public var maxPriorityFeePerGas: UInt256 { withLedger { suggestedTip($0) } }

    /// Suggested priority fee: the 60th percentile of effective tips over the last 20 blocks, 1 gwei when
    /// they hold no transactions (geth's oracle shape; Anvil's 1 gwei floor when idle).
    func suggestedTip(_ chain: Ledger) -> UInt256 {
        var tips: [UInt256] = []
        let head = chain.blockNumber
        let start = head >= 20 ? head - 19 : 0
        for n in start...head {
            guard let block = chain.block(number: n) else { continue }
            for tx in block.transactions {
                if let tip = tx.effectiveTip(baseFee: block.header.baseFeePerGas) { tips.append(tip) }
            }
        }
        guard !tips.isEmpty else { return UInt256(1_000_000_000 as UInt64) }
        tips.sort()
        return tips[(tips.count - 1) * 60 / 100]
    }

    /// eth_feeHistory with real reward percentiles: each block's transactions sorted by effective tip and
    /// weighted by gas used (geth's `processBlock`). At most 1,024 blocks, ending at `newest`.
    ///
    /// - Throws: ``NodeError/invalidRewardPercentile(_:)`` for a percentile outside 0…100 or not increasing,
    ///   ``NodeError/headerNotFound`` for a block the chain does not have.
    public func feeHistory(count: UInt64, newest: BlockSelector, percentiles: [Double]) throws(NodeError) -> FeeHistory
    {
        for (i, pct) in percentiles.enumerated() {
            if pct < 0 || pct > 100 { throw .invalidRewardPercentile("\(pct)") }
            if i > 0 && pct <= percentiles[i - 1] {
                throw .invalidRewardPercentile("#\(i - 1):\(percentiles[i - 1]) >= #\(i):\(pct)")
            }
        }
        return try withLedger { (chain) throws(NodeError) -> FeeHistory in
            guard let last = NodeChain.resolve(newest, chain) else { throw .headerNotFound }
            let blocks = min(count, 1_024, last + 1)
            guard blocks > 0 else {
                return FeeHistory(oldestBlock: 0, baseFeePerGas: [], gasUsedRatio: [], reward: nil)
            }
            let first = last + 1 - blocks
            var history = FeeHistory(
                oldestBlock: first, baseFeePerGas: [], gasUsedRatio: [], reward: percentiles.isEmpty ? nil : [])
            for n in first...last {
                guard let b = chain.block(number: n) else { continue }
                history.baseFeePerGas.append(b.header.baseFeePerGas)
                history.gasUsedRatio.append(Double(b.header.gasUsed) / Double(b.header.gasLimit))
                if !percentiles.isEmpty { history.reward!.append(Self.rewards(b, percentiles: percentiles)) }
            }
            // The base fee of the block after `last`.
            if last == chain.blockNumber {
                history.baseFeePerGas.append(chain.nextBaseFee)
            } else if let next = chain.block(number: last + 1) {
                history.baseFeePerGas.append(next.header.baseFeePerGas)
            }
            return history
        }
    }

    /// The effective tips of `block` at `percentiles`, weighted by gas used; zeros for an empty block.
    static func rewards(_ block: Block, percentiles: [Double]) -> [UInt256] {
        let baseFee = block.header.baseFeePerGas
        let tips = zip(block.transactions, block.receipts).map {
            (tip: $0.0.effectiveTip(baseFee: baseFee) ?? .zero, gas: $0.1.gasUsed)
        }
        return FeeMarket.rewards(tips: tips, totalGas: tips.reduce(0) { $0 + $1.gas }, percentiles: percentiles)
    }

    // MARK: State

    /// The balance of `address` at a block (default latest; `pending`: after the pending block).
    public func balance(of address: Address, at block: BlockSelector? = nil) throws(NodeError) -> UInt256 {
        try withLedger { (chain) throws(NodeError) in try account(address, at: block, chain).balance }
    }

    /// The account at a block; `pending` reads the pending state (the executable pool applied to the head).
    func account(_ address: Address, at block: BlockSelector?, _ chain: Ledger) throws(NodeError) -> Account {
        if case .pending? = block { return chain.pendingState(now: clock()).ledger.account(address) }
        return chain.account(address, atBlock: try NodeChain.stateBlock(block, chain))
    }

    /// The nonce of `address` at a block; `pending` is the pool's next nonce (geth's `GetPoolNonce`: the sender's
    /// consecutive pool transactions counted, including those the pending block cannot take yet).
    public func transactionCount(of address: Address, at block: BlockSelector? = nil) throws(NodeError) -> UInt64 {
        try withLedger { (chain) throws(NodeError) in
            if case .pending? = block { return chain.pendingNonce(address) }
            return chain.account(address, atBlock: try NodeChain.stateBlock(block, chain)).nonce
        }
    }

    public func code(at address: Address, block: BlockSelector? = nil) throws(NodeError) -> [UInt8] {
        try withLedger { (chain) throws(NodeError) in try account(address, at: block, chain).code }
    }

    /// The 32-byte value of storage slot `key` of `address` (native tokens keep their state there; anything else
    /// only what `anvil_setStorageAt` wrote).
    public func storage(at address: Address, key: [UInt8], block: BlockSelector? = nil) throws(NodeError) -> [UInt8] {
        try withLedger { (chain) throws(NodeError) in
            let number = try NodeChain.stateBlock(block, chain)
            return chain.storage(address, slot: UInt256(bigEndian: key) ?? .zero, atBlock: number).bigEndianBytes
        }
    }

    /// eth_call: the call's checks against the state at `block`, then its output. Native contracts (tokens,
    /// Multicall3) run; any other target answers empty data (as geth does for code-less targets). A reverting call
    /// throws ``NodeError/executionReverted(message:data:)``.
    public func call(_ request: TransactionRequest, at block: BlockSelector? = nil) throws -> [UInt8] {
        try withLedger { chain in
            let number = try NodeChain.stateBlock(block, chain)
            try checkCall(request, chain)
            let outcome = chain.call(Self.callRequest(request), atBlock: number)
            switch outcome.failure {
            case nil: return outcome.output
            case .reverted(let data)?:
                throw NodeError.executionReverted(message: outcome.failureMessage ?? "execution reverted", data: data)
            case .invalidOpcode?, .outOfGas?: throw NodeError.executionFailed(outcome.failureMessage ?? "")
            }
        }
    }

    static func callRequest(_ request: TransactionRequest) -> CallRequest {
        CallRequest(
            from: request.from ?? .zero, to: request.to, value: request.value, data: request.data, gas: request.gas)
    }

    /// eth_estimateGas: the gas the transaction needs within its `gas` cap: for a native contract what it uses as a
    /// transaction (before the refund), otherwise its intrinsic gas or the EIP-7623 floor.
    public func estimateGas(_ request: TransactionRequest, at block: BlockSelector? = nil) throws -> UInt64 {
        let native = try withLedger { chain -> UInt64? in
            try checkCall(request, chain)
            guard let to = request.to, chain.nativeContracts.contract(at: to) != nil else { return nil }
            do throws(EstimateGasError) {
                return try chain.estimateGas(Self.callRequest(request))
            } catch {
                switch error {
                case .reverted(let data, let message): throw NodeError.executionReverted(message: message, data: data)
                case .failed(let message): throw NodeError.executionFailed(message)
                case .gasRequiredExceedsAllowance(let cap): throw NodeError.gasRequiredExceedsAllowance(cap: cap)
                }
            }
        }
        if let native { return native }
        let needed = request.gasNeeded
        if let cap = request.gas, cap < needed { throw NodeError.gasRequiredExceedsAllowance(cap: cap) }
        return needed
    }

    /// Stateful checks geth applies to eth_call/eth_estimateGas with explicit fees and value.
    func checkCall(_ request: TransactionRequest, _ chain: Ledger) throws {
        if request.to == nil && request.data.count > chain.config.maxInitCodeSize {
            throw LedgerError.maxInitCodeSizeExceeded(size: request.data.count, limit: chain.config.maxInitCodeSize)
        }
        let baseFee = chain.nextBaseFee
        if let maxFee = request.maxFeePerGas {
            if let tip = request.maxPriorityFeePerGas, tip > maxFee {
                throw LedgerError.tipAboveFeeCap
            }
            if maxFee < baseFee && !maxFee.isZero {
                throw LedgerError.feeCapBelowBaseFee(sender: request.from ?? .zero, maxFee: maxFee, baseFee: baseFee)
            }
        }
        if let from = request.from, !request.value.isZero {
            let balance = chain.account(from).balance
            if balance < request.value { throw NodeError.insufficientFundsForTransfer }
        }
    }

    // MARK: Blocks

    /// The block a selector names: a sealed block, the pending block, or nil when the chain has none.
    public func block(_ selector: BlockSelector) -> BlockView? {
        withLedger { chain in
            if case .pending = selector { return .pending(PendingBlock(block: chain.pendingState(now: clock()).block)) }
            guard let n = NodeChain.resolve(selector, chain), let block = chain.block(number: n) else { return nil }
            return .sealed(block)
        }
    }

    public func block(hash: [UInt8]) -> Block? { withLedger { $0.block(hash: hash) } }

    /// Transactions in the block a selector names (the pending block's for `pending`); nil when the chain has none.
    public func transactionCount(inBlock selector: BlockSelector) -> Int? {
        withLedger { chain in
            if case .pending = selector { return chain.pendingState(now: clock()).block.transactions.count }
            guard let n = NodeChain.resolve(selector, chain), let b = chain.block(number: n) else { return nil }
            return b.transactions.count
        }
    }

    /// Whether the chain has the block a selector names (uncle counts answer null otherwise).
    public func hasBlock(_ selector: BlockSelector) -> Bool { withLedger { NodeChain.resolve(selector, $0) != nil } }

    // MARK: Transactions

    /// A transaction by hash, mined or in the pool.
    public func transaction(hash: [UInt8]) -> TransactionLookup? {
        withLedger { chain in
            guard let (tx, location) = chain.transaction(hash) else { return nil }
            let block = location.flatMap { chain.block(number: $0.blockNumber) }
            return TransactionLookup(transaction: tx, block: block, index: location?.index)
        }
    }

    /// The transaction at `index` of the block a selector or hash names.
    public func transaction(inBlock selector: BlockSelector, index: UInt64) -> TransactionLookup? {
        withLedger { chain in
            let block: Block?
            if case .hash(let hash) = selector {
                block = chain.block(hash: hash)
            } else if case .pending = selector {
                block = chain.pendingState(now: clock()).block
            } else {
                block = NodeChain.resolve(selector, chain).flatMap { chain.block(number: $0) }
            }
            guard let block, index < block.transactions.count else { return nil }
            return TransactionLookup(transaction: block.transactions[Int(index)], block: block, index: Int(index))
        }
    }

    public func receipt(hash: [UInt8]) -> (receipt: Receipt, block: Block)? {
        withLedger { $0.receipt(hash).map { ($0.0, $0.1) } }
    }

    /// The receipts of the block a selector names (`pending`: the pending block's); nil when the chain has none.
    public func receipts(inBlock selector: BlockSelector) -> (receipts: [Receipt], block: Block)? {
        withLedger { chain in
            if case .pending = selector {
                let block = chain.pendingState(now: clock()).block
                return (block.receipts, block)
            }
            guard let n = NodeChain.resolve(selector, chain), let b = chain.block(number: n) else { return nil }
            return (b.receipts, b)
        }
    }

    // MARK: Logs

    /// The logs matching `filter`, in chain order.
    public func logs(_ filter: LogFilter) throws(NodeError) -> [LogEntry] {
        guard !filter.exceedsQueryLimit else { throw .tooManyFilterCriteriaPerPosition }
        return try withLedger { (chain) throws(NodeError) in try NodeChain.logs(filter, chain) }
    }
}
