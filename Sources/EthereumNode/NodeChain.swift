import EthereumLedger
import EthereumLedgerStorage
import EthereumTransactions
import EthereumTypes
import Synchronization

/// The chain's owner: the ledger and its persistence (``PersistentLedger``) behind one lock. Every operation runs
/// under the lock and its changes are written to the data directory as one batch before the lock is released (a
/// failed write rolls memory back, see ``PersistentLedger/perform(_:)``).
///
/// It answers the node's typed reads (chain facts, fees, state at a block, blocks, transactions, receipts, logs,
/// proofs, access lists, eth_simulateV1, eth_config): each takes the lock once, so it sees one consistent chain.
///
/// Lock: the innermost lock of the node; nothing else is taken while it is held (see ``SandnetNode``'s lock order),
/// except the tip oracle's memory (``TipOracle``), a leaf lock taken under it and holding no I/O.
public final class NodeChain: Sendable {
    struct State: Sendable {
        var ledger: PersistentLedger
        /// `anvil_metadata`'s instance id: new at start and at every reset.
        var instanceID: [UInt8]
    }

    private let state: Mutex<State>
    /// geth's tip oracle remembers its last answer (taken under the ledger lock, see the lock note above).
    private let tipOracle = Mutex(TipOracle())
    /// The node's clock (the pending block's timestamp).
    let clock: @Sendable () -> UInt64

    init(_ chain: PersistentLedger, clock: @escaping @Sendable () -> UInt64) {
        state = Mutex(State(ledger: chain, instanceID: Self.newInstanceID()))
        self.clock = clock
    }

    /// Runs `body` on the ledger under the lock; what it changed is written before the lock is released.
    func withLedger<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state) throws(E) -> T in try state.ledger.perform(body) }
    }

    /// A read-only copy of the ledger (copy-on-write: O(1)).
    var snapshot: Ledger { state.withLock { $0.ledger.ledger } }

    /// The instance id (`anvil_metadata`) with a read of the ledger, under one lock.
    func withInstance<T>(_ body: ([UInt8], Ledger) -> T) -> T {
        state.withLock { body($0.instanceID, $0.ledger.ledger) }
    }

    /// Flushes the pool and head to disk (clean shutdown).
    func flush() throws(LedgerError) { try state.withLock { (state) throws(LedgerError) in try state.ledger.flush() } }

    /// anvil_reset: replaces the chain with a fresh one from `config` and `genesis`, in the store as one synced write,
    /// and takes a new instance id; when the write fails nothing changes.
    func reset(config: ChainConfig, genesis: [GenesisAccount]) throws(LedgerError) {
        try state.withLock { (state) throws(LedgerError) in
            try state.ledger.reset(to: state.ledger.ledger.reset(config: config, genesis: genesis))
            state.instanceID = Self.newInstanceID()
            tipOracle.withLock { $0 = TipOracle() }
        }
    }

    /// 32 random bytes: an instance id names a run of the node, it is never part of the chain's state.
    static func newInstanceID() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
    }

    // MARK: The typed read API (each read takes the lock once, so it sees one consistent chain)

    // MARK: Chain

    /// The chain id now (``setChainID(_:)`` changes it).
    public var chainID: UInt64 { withLedger { $0.config.chainID } }
    /// The coinbase of the next block (``setCoinbase(_:)`` changes it).
    public var coinbase: Address { withLedger { $0.config.coinbase } }

    public var blockNumber: UInt64 { withLedger { $0.blockNumber } }

    /// How blocks are mined now.
    public var miningMode: MiningMode { withLedger { $0.miningMode } }

    /// Whether blocks are mined without being asked (automatic or interval mining).
    public var isMining: Bool { miningMode != .manual }

    // MARK: Fees

    /// The suggested tip plus the latest block's base fee (geth `internal/ethapi/api.go` `GasPrice` adds the current
    /// header's base fee, not the next block's); a base fee near 2^256 − 1 saturates instead of wrapping.
    public var gasPrice: UInt256 {
        withLedger { chain in
            let latest = chain.block(number: chain.blockNumber)?.header.baseFeePerGas ?? chain.nextBaseFee
            let (price, overflow) = latest.addingReportingOverflow(suggestedTip(chain))
            return overflow ? UInt256.max : price
        }
    }

    /// The suggested priority fee (see ``suggestedTip(_:)``).
    public var maxPriorityFeePerGas: UInt256 { withLedger { suggestedTip($0) } }

    /// The suggested priority fee: geth's oracle (``TipOracle``), computed once per head.
    func suggestedTip(_ chain: Ledger) -> UInt256 {
        tipOracle.withLock { $0.suggest(chain) }
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
            guard let last = Self.resolve(newest, chain) else { throw .headerNotFound }
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
        return chain.account(address, atBlock: try Self.stateBlock(block, chain))
    }

    /// The nonce of `address` at a block; `pending` is the pool's next nonce (geth's `GetPoolNonce`: the sender's
    /// consecutive pool transactions counted, including those the pending block cannot take yet).
    public func transactionCount(of address: Address, at block: BlockSelector? = nil) throws(NodeError) -> UInt64 {
        try withLedger { (chain) throws(NodeError) in
            if case .pending? = block { return chain.pendingNonce(address) }
            return chain.account(address, atBlock: try Self.stateBlock(block, chain)).nonce
        }
    }

    public func code(at address: Address, block: BlockSelector? = nil) throws(NodeError) -> [UInt8] {
        try withLedger { (chain) throws(NodeError) in try account(address, at: block, chain).code }
    }

    /// The 32-byte value of storage slot `key` of `address` (native tokens keep their state there; anything else
    /// only what `anvil_setStorageAt` wrote).
    public func storage(at address: Address, key: [UInt8], block: BlockSelector? = nil) throws(NodeError) -> [UInt8] {
        try withLedger { (chain) throws(NodeError) in
            let number = try Self.stateBlock(block, chain)
            return chain.storage(address, slot: UInt256(bigEndian: key) ?? .zero, atBlock: number).bigEndianBytes
        }
    }

    /// eth_call: the call's checks against the state at `block`, then its output. Native contracts (tokens,
    /// Multicall3) run; any other target answers empty data (as geth does for code-less targets). A reverting call
    /// throws ``NodeError/executionReverted(message:data:)``.
    public func call(_ request: TransactionRequest, at block: BlockSelector? = nil) throws -> [UInt8] {
        try withLedger { chain in
            let number = try Self.stateBlock(block, chain)
            try checkCall(request, chain, at: block)
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

    /// eth_estimateGas as geth's estimator (`eth/gasestimator`) bounds it: the highest gas limit is the call's `gas`
    /// when at least 21,000, else the block's gas limit, capped by EIP-7825 (2^24), by what the sender can fund at its
    /// fee cap (a call with a fee cap whose `value` is not below the balance: `insufficient funds for transfer`) and by
    /// the RPC gas cap; a state-transition check that fails at that limit answers `failed with N gas: …`. Then the gas
    /// the transaction needs: for a native contract what it uses as a transaction (before the refund), otherwise its
    /// intrinsic gas or the EIP-7623 floor.
    public func estimateGas(_ request: TransactionRequest, at block: BlockSelector? = nil) throws -> UInt64 {
        let (native, highest) = try withLedger { chain -> (UInt64?, UInt64) in
            let context = try callContext(block, chain)
            let highest = try estimationLimit(request, context, chain)
            try checkCall(request, chain, context: context, gas: highest, estimating: true)
            guard let to = request.to, chain.nativeContracts.contract(at: to) != nil else { return (nil, highest) }
            var call = Self.callRequest(request)
            call.gas = highest
            do throws(EstimateGasError) {
                return (try chain.estimateGas(call), highest)
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
        if highest < needed { throw NodeError.gasRequiredExceedsAllowance(cap: highest) }
        return needed
    }

    /// The RPC gas cap (geth's `--rpc.gascap` default, 50,000,000): eth_call's gas when the call names none.
    public static let rpcGasCap: UInt64 = 50_000_000

    /// The state and header a call runs against: the state block (nil: the head's or the pending state), the
    /// base fee and gas limit of the block it runs in (the named block's; `pending`: the next block's).
    struct CallContext {
        var stateBlock: UInt64?
        var baseFee: UInt256
        var gasLimit: UInt64
    }

    func callContext(_ block: BlockSelector?, _ chain: Ledger) throws(NodeError) -> CallContext {
        let number = try Self.stateBlock(block, chain)
        if case .pending? = block {
            return CallContext(stateBlock: number, baseFee: chain.nextBaseFee, gasLimit: chain.config.gasLimit)
        }
        guard let header = chain.block(number: number ?? chain.blockNumber)?.header else {
            return CallContext(stateBlock: number, baseFee: chain.nextBaseFee, gasLimit: chain.config.gasLimit)
        }
        return CallContext(stateBlock: number, baseFee: header.baseFeePerGas, gasLimit: header.gasLimit)
    }

    /// The fee cap geth's message carries: `gasPrice`, else `maxFeePerGas`, else zero.
    static func feeCap(_ request: TransactionRequest) -> UInt256 {
        request.gasPrice ?? request.maxFeePerGas ?? .zero
    }

    /// geth's `Estimate` upper bound (see ``estimateGas(_:at:)``).
    func estimationLimit(_ request: TransactionRequest, _ context: CallContext, _ chain: Ledger) throws -> UInt64 {
        var highest = context.gasLimit
        if let gas = request.gas, gas >= GasSchedule.transactionBase { highest = gas }
        if let cap = chain.config.transactionGasCap, highest > cap { highest = cap }
        let feeCap = Self.feeCap(request)
        if !feeCap.isZero {
            let balance = chain.account(request.from ?? .zero, atBlock: context.stateBlock).balance
            if request.value >= balance { throw NodeError.insufficientFundsForTransfer }
            let allowance = (balance - request.value) / feeCap
            if let fundable = allowance.uint64Value, highest > fundable { highest = fundable }
        }
        return min(highest, Self.rpcGasCap)
    }

    /// The checks geth's state transition makes before a call runs (`core/state_transition.go` `preCheck` and
    /// `buyGas`, eth_call's message from `TransactionArgs.CallDefaults`): with a fee field set, a tip above the fee cap
    /// and a fee cap below the block's base fee; then the sender's balance against gas × fee cap + value (no fee
    /// fields: the value alone). `gas` is the call's (eth_call: its `gas` or the RPC gas cap; eth_estimateGas: the
    /// highest limit), and eth_estimateGas wraps a failure as geth's estimator does (`failed with N gas: …`).
    func checkCall(
        _ request: TransactionRequest, _ chain: Ledger, context: CallContext, gas: UInt64, estimating: Bool
    ) throws {
        if request.to == nil && request.data.count > chain.config.maxInitCodeSize {
            throw LedgerError.maxInitCodeSizeExceeded(size: request.data.count, limit: chain.config.maxInitCodeSize)
        }
        let sender = request.from ?? .zero
        do throws(NodeError) {
            let feeCap = Self.feeCap(request)
            let tip = request.gasPrice ?? request.maxPriorityFeePerGas ?? .zero
            if !(feeCap.isZero && tip.isZero) {
                if feeCap < tip { throw .callTipAboveFeeCap(sender: sender, tip: tip, maxFee: feeCap) }
                if feeCap < context.baseFee {
                    throw .callFeeCapTooLow(sender: sender, maxFee: feeCap, baseFee: context.baseFee)
                }
            }
            let balance = chain.account(sender, atBlock: context.stateBlock).balance
            let (cost, o1) = UInt256(gas).multipliedReportingOverflow(by: feeCap)
            let (want, o2) = cost.addingReportingOverflow(request.value)
            if o1 || o2 { throw .insufficientFunds(sender: sender, have: balance, want: nil) }
            if balance < want { throw .insufficientFunds(sender: sender, have: balance, want: want) }
        } catch {
            throw estimating ? NodeError.estimationFailed(gas: gas, error) : error
        }
    }

    /// eth_call's checks (see ``checkCall(_:_:context:gas:estimating:)``) at `block`.
    func checkCall(_ request: TransactionRequest, _ chain: Ledger, at block: BlockSelector?) throws {
        try checkCall(
            request, chain, context: try callContext(block, chain), gas: request.gas ?? Self.rpcGasCap,
            estimating: false)
    }

    // MARK: Blocks

    /// The block a selector names: a sealed block, the pending block, or nil when the chain has none.
    public func block(_ selector: BlockSelector) -> BlockView? {
        withLedger { chain in
            if case .pending = selector { return .pending(PendingBlock(block: chain.pendingState(now: clock()).block)) }
            guard let n = Self.resolve(selector, chain), let block = chain.block(number: n) else { return nil }
            return .sealed(block)
        }
    }

    public func block(hash: [UInt8]) -> Block? { withLedger { $0.block(hash: hash) } }

    /// Transactions in the block a selector names (the pending block's for `pending`); nil when the chain has none.
    public func transactionCount(inBlock selector: BlockSelector) -> Int? {
        withLedger { chain in
            if case .pending = selector { return chain.pendingState(now: clock()).block.transactions.count }
            guard let n = Self.resolve(selector, chain), let b = chain.block(number: n) else { return nil }
            return b.transactions.count
        }
    }

    /// Whether the chain has the block a selector names (uncle counts answer null otherwise).
    public func hasBlock(_ selector: BlockSelector) -> Bool { withLedger { Self.resolve(selector, $0) != nil } }

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
                block = Self.resolve(selector, chain).flatMap { chain.block(number: $0) }
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
            guard let n = Self.resolve(selector, chain), let b = chain.block(number: n) else { return nil }
            return (b.receipts, b)
        }
    }

    // MARK: Logs

    /// The logs matching `filter`, in chain order.
    public func logs(_ filter: LogFilter) throws(NodeError) -> [LogEntry] {
        guard !filter.exceedsQueryLimit else { throw .tooManyFilterCriteriaPerPosition }
        return try withLedger { (chain) throws(NodeError) in try Self.logs(filter, chain) }
    }

    // MARK: eth_getProof (EIP-1186): an account and storage slots with Merkle proofs against a state root

    /// The most storage keys one proof request may name (geth's `maxGetProofKeys`).
    public static let maxProofKeys = 1_024

    /// `address` and its storage `slots` at `block` (default latest) with their proofs, as geth's `GetProof`
    /// answers them: the head (including unsealed developer changes), `pending` (the pending block's state) and the
    /// ``StateProof/provableStateDepth`` blocks below the head.
    ///
    /// - Throws: ``NodeError/tooManyStorageKeys(limit:got:)`` over ``maxProofKeys`` slots,
    ///   ``NodeError/headerNotFound`` for a block the chain does not have,
    ///   ``NodeError/historicalStateUnavailable(root:)`` for an older block.
    public func proof(of address: Address, slots: [UInt256], at block: BlockSelector? = nil) throws(NodeError)
        -> StateProof
    {
        guard slots.count <= Self.maxProofKeys else {
            throw .tooManyStorageKeys(limit: Self.maxProofKeys, got: slots.count)
        }
        return try withLedger { (chain) throws(NodeError) -> StateProof in
            if case .pending? = block {
                guard let proof = chain.pendingState(now: clock()).ledger.stateProof(address, slots: slots) else {
                    preconditionFailure("the pending state is its own head and always provable")
                }
                return proof
            }
            let number = try Self.stateBlock(block, chain)
            guard let proof = chain.stateProof(address, slots: slots, atBlock: number) else {
                let root = number.flatMap { chain.block(number: $0)?.header.stateRoot } ?? []
                throw .historicalStateUnavailable(root: root)
            }
            return proof
        }
    }

    // MARK: eth_createAccessList (EIP-2930).

    /// The access list `request` needs at `block` (default latest; `pending` reads the head, as eth_call does) and
    /// the gas it uses with it, as geth's `CreateAccessList` answers: a plain transfer touches nothing (empty list,
    /// its intrinsic gas); a native contract call lists the storage words and accounts its execution touches. A
    /// failing execution is not an error: its text comes back in ``AccessListResult/error``.
    ///
    /// - Throws: the checks eth_call makes (fees against the base fee, value against the balance) and
    ///   ``NodeError/headerNotFound`` for a block the chain does not have.
    public func createAccessList(_ request: TransactionRequest, at block: BlockSelector? = nil) throws
        -> AccessListResult
    {
        try withLedger { chain in
            let number = try Self.stateBlock(block, chain)
            try checkCall(request, chain, at: block)
            let from = request.from ?? .zero
            let nonce = request.nonce ?? chain.account(from, atBlock: number).nonce
            return chain.createAccessList(
                Self.callRequest(request), given: request.accessList, nonce: nonce, atBlock: number)
        }
    }

    /// eth_config (EIP-7910): the current fork, the next scheduled one and the last one. Sandnet's chain runs Osaka
    /// rules from genesis and schedules no later fork, so `current` is Osaka with activation time 0 and `next` and
    /// `last` are nil (geth's answer for a chain without a future fork). Sandnet runs no EVM: no precompile or
    /// system contract executes, so both maps are empty.
    public var forkConfig: (current: ForkConfig, next: ForkConfig?, last: ForkConfig?) {
        let genesisHash = withLedger { $0.block(number: 0)?.hash ?? [] }
        let checksum = Self.crc32(genesisHash)
        let current = ForkConfig(
            activationTime: 0,
            blobSchedule: ForkConfig.BlobSchedule(target: 6, max: 9, baseFeeUpdateFraction: 5_007_716),
            chainID: chainID,
            forkID: [
                UInt8(checksum >> 24), UInt8(checksum >> 16 & 0xff), UInt8(checksum >> 8 & 0xff),
                UInt8(checksum & 0xff),
            ],
            precompiles: [:], systemContracts: [:])
        return (current, nil, nil)
    }

    /// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as EIP-2124's fork hash uses it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// geth's limits: 256 blocks past the base, 5,000 calls in one block, 10,000 in all.
    public static let maxSimulatedBlocks: UInt64 = 256
    public static let maxSimulatedCallsPerBlock = 5_000
    public static let maxSimulatedCalls = 10_000
    /// geth's default `--rpc.gascap`: the gas all calls of one request may use together.
    public static let simulationGasBudget: UInt64 = 50_000_000
    /// geth's `timestampIncrement`: a simulated block without a time comes 12 s after its parent.
    public static let simulatedBlockInterval: UInt64 = 12

    /// eth_simulateV1: runs the blocks of `request` on a copy of the state at `block` (default latest) and seals
    /// them; the chain does not change. Gaps in block numbers are filled with empty blocks, as geth fills them.
    ///
    /// - Throws: ``SimulationInputError`` for the request's shape (geth's -32602, -38020, -38021, -38026),
    ///   ``SimulationError`` for a call no block could include (-380xx), ``NodeError/headerNotFound`` and
    ///   ``NodeError/historicalStateUnavailable(root:)`` for the base block.
    public func simulate(_ request: SimulationRequest, at block: BlockSelector? = nil) throws -> [SimulatedBlock] {
        guard !request.blocks.isEmpty else { throw SimulationInputError.emptyInput }
        guard request.blocks.count <= Self.maxSimulatedBlocks else { throw SimulationInputError.tooManyBlocks }
        var total = 0
        for b in request.blocks {
            guard b.calls.count <= Self.maxSimulatedCallsPerBlock else {
                throw SimulationInputError.tooManyCallsInBlock(b.calls.count, limit: Self.maxSimulatedCallsPerBlock)
            }
            total += b.calls.count
            guard total <= Self.maxSimulatedCalls else {
                throw SimulationInputError.tooManyCalls(total, limit: Self.maxSimulatedCalls)
            }
        }
        var chain = try withLedger { (ledger) throws -> SimulatedChain in
            if case .pending? = block { return SimulatedChain(ledger.pendingState(now: clock()).ledger, atBlock: nil)! }
            let number = try Self.stateBlock(block, ledger)
            guard let base = SimulatedChain(ledger, atBlock: number) else {
                throw NodeError.historicalStateUnavailable(
                    root: number.flatMap { ledger.block(number: $0)?.header.stateRoot } ?? [])
            }
            return base
        }
        let chainID = chain.ledger.config.chainID
        var results: [SimulatedBlock] = []
        var budget = Self.simulationGasBudget
        for (spec, input) in try Self.sanitize(request.blocks, parent: chain.ledger.head.header) {
            for (address, change) in input?.stateOverrides ?? [] { try chain.applyOverride(address, change) }
            let calls = (input?.calls ?? []).map { request in
                SimulatedCall(
                    from: request.from ?? .zero, to: request.to, value: request.value, data: request.data,
                    gas: request.gas, nonce: request.nonce, gasPrice: request.gasPrice,
                    maxFeePerGas: request.maxFeePerGas, maxPriorityFeePerGas: request.maxPriorityFeePerGas,
                    accessList: request.accessList)
            }
            let (sealed, outcomes) = try chain.simulateBlock(
                spec, calls: calls, validation: request.validation, budget: &budget
            ) {
                Self.unsignedTransaction($0, chainID: chainID)
            }
            results.append(SimulatedBlock(block: sealed, calls: outcomes))
        }
        return results
    }

    /// The call as geth's `ToTransaction(DynamicFeeTxType)` makes it: an EIP-1559 transaction with a zero
    /// signature (its hash is geth's), the sender kept beside it.
    static func unsignedTransaction(_ call: SimulatedCall, chainID: UInt64) -> LedgerTransaction {
        let tx = DynamicFeeTransaction(
            chainID: chainID, nonce: call.nonce ?? 0, maxPriorityFeePerGas: call.maxPriorityFeePerGas ?? .zero,
            maxFeePerGas: call.maxFeePerGas ?? .zero, gas: call.gas ?? 0, to: call.to, value: call.value,
            data: call.data, accessList: call.accessList)
        let signed = SignedTransaction(
            transaction: .dynamicFee(tx), signature: EthereumSignature(yParity: 0, r: .zero, s: .zero))
        return LedgerTransaction(signed, sender: call.from)
    }

    /// geth's `sanitizeChain`: numbers strictly increasing (gaps filled with empty blocks 12 s apart), at most
    /// ``maxSimulatedBlocks`` past the base, timestamps strictly increasing (default parent + 12 s).
    static func sanitize(_ blocks: [SimulationRequest.Block], parent: BlockHeader) throws(SimulationInputError)
        -> [(SimulatedBlockSpec, SimulationRequest.Block?)]
    {
        var out: [(SimulatedBlockSpec, SimulationRequest.Block?)] = []
        var previousNumber = parent.number
        var previousTime = parent.timestamp
        for block in blocks {
            let o = block.overrides
            let number = o.number ?? previousNumber + 1
            guard number > previousNumber else { throw .blockNumberNotInOrder(number, previous: previousNumber) }
            guard number - parent.number <= maxSimulatedBlocks else { throw .tooManyBlocks }
            while previousNumber + 1 < number {
                previousNumber += 1
                previousTime = try nextTime(after: previousTime)
                out.append((SimulatedBlockSpec(number: previousNumber, timestamp: previousTime), nil))
            }
            previousNumber = number
            let time: UInt64
            if let given = o.time { time = given } else { time = try nextTime(after: previousTime) }
            guard time > previousTime else { throw .timestampNotInOrder(time, previous: previousTime) }
            previousTime = time
            out.append(
                (
                    SimulatedBlockSpec(
                        number: number, timestamp: time, gasLimit: o.gasLimit, feeRecipient: o.feeRecipient,
                        prevRandao: o.prevRandao, baseFee: o.baseFeePerGas, beaconRoot: o.beaconRoot), block
                ))
        }
        return out
    }

    /// The default time of a simulated block: its parent's + 12 s, refused past 2^64−1 (a block at 2^64−5 followed
    /// by one without a time trapped the node).
    private static func nextTime(after previous: UInt64) throws(SimulationInputError) -> UInt64 {
        let (time, overflow) = previous.addingReportingOverflow(simulatedBlockInterval)
        guard !overflow else { throw .timestampOverflow(previous: previous) }
        return time
    }

    // MARK: Selectors and log queries (pure functions of a ledger)

    /// One end of a log query's range: a number as given (it may lie past the head), a tag or hash resolved.
    static func rangeEnd(_ selector: BlockSelector?, _ chain: Ledger) -> UInt64? {
        guard let selector else { return nil }
        if case .number(let n) = selector { return n }
        return resolve(selector, chain)
    }

    /// Resolves a block selector to a number; nil when the chain has no such block.
    static func resolve(_ selector: BlockSelector, _ chain: Ledger) -> UInt64? {
        switch selector {
        case .latest, .pending: return chain.blockNumber
        case .earliest: return 0
        case .safe: return chain.blockNumber >= 32 ? chain.blockNumber - 32 : 0
        case .finalized: return chain.blockNumber >= 64 ? chain.blockNumber - 64 : 0
        case .number(let n): return n <= chain.blockNumber ? n : nil
        case .hash(let h): return chain.block(hash: h)?.number
        }
    }

    /// The block a state read looks at: nil for the head (and `pending`), else its number; geth's
    /// "header not found" for a block the chain does not have.
    static func stateBlock(_ selector: BlockSelector?, _ chain: Ledger) throws(NodeError) -> UInt64? {
        if case .pending? = selector { return nil }
        guard let n = resolve(selector ?? .latest, chain) else { throw .headerNotFound }
        return n == chain.blockNumber ? nil : n
    }

    /// The longest block range eth_getLogs scans (Alchemy's and Infura's 100,000 blocks / -32005).
    static let maxLogRange: UInt64 = 100_000

    /// The logs matching `filter`, in chain order.
    static func logs(_ filter: LogFilter, _ chain: Ledger) throws(NodeError) -> [LogEntry] {
        var blocks: [Block] = []
        if let hash = filter.blockHash {
            guard let b = chain.block(hash: hash) else { throw .unknownBlock }
            blocks = [b]
        } else {
            let head = chain.blockNumber
            let from = rangeEnd(filter.fromBlock, chain) ?? head
            let to = rangeEnd(filter.toBlock, chain) ?? head
            guard from <= to else { throw .invalidBlockRange }
            guard to <= head else { throw .blockRangeBeyondHead }
            guard to - from <= maxLogRange else { throw .blockRangeTooLarge(limit: maxLogRange) }
            blocks = (from...to).compactMap { chain.block(number: $0) }
        }
        var out: [LogEntry] = []
        for block in blocks {
            for receipt in block.receipts {
                for (i, log) in receipt.logs.enumerated() where filter.matches(log) {
                    out.append(LogEntry(log: log, receipt: receipt, block: block, index: i))
                }
            }
        }
        return out
    }
}
