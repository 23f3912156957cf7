import EthereumLedger
import EthereumTransactions
import EthereumTypes
import NativeContracts

/// What `anvil_metadata` (`hardhat_metadata`) reports.
public struct NodeMetadata: Sendable, Equatable {
    public var clientVersion: String
    public var chainID: UInt64
    /// 32 bytes, new at start and at every `anvil_reset`: a client that sees it change knows its caches are stale.
    public var instanceID: [UInt8]
    public var latestBlockNumber: UInt64
    public var latestBlockHash: [UInt8]
    /// Live snapshots by id: the head's number and hash when each was taken.
    public var snapshots: [Snapshot]

    public struct Snapshot: Sendable, Equatable {
        public var id: UInt64
        public var blockNumber: UInt64
        public var blockHash: [UInt8]
    }
}

/// Anvil's and Hardhat's developer controls, typed: what `anvil_*`, `hardhat_*` and `evm_*` do to accounts, blocks
/// (mining, snapshots, reverts, reorgs, rollbacks, reset), the mining mode and the state dump.
///
/// Holds no state of its own (so no lock): it acts through the owners it was given. Every operation that seals or
/// removes blocks runs in the miner's turn (``Miner``), with ``NodeChain``'s lock taken inside it.
public final class DevControls: Sendable {
    let configuration: NodeConfiguration
    let chain: NodeChain
    let miner: Miner
    let ambient: AmbientDriver
    let filters: NodeFilters
    let conditions: ConditionsGate
    let submitter: TransactionSubmitter
    let accounts: DevAccounts
    /// The chain as created, for `anvil_reset` (``reset()``): its configuration (tokens included) and genesis.
    let genesis: (config: ChainConfig, accounts: [GenesisAccount])
    let clock: @Sendable () -> UInt64

    init(
        configuration: NodeConfiguration, chain: NodeChain, miner: Miner, ambient: AmbientDriver, filters: NodeFilters,
        conditions: ConditionsGate, submitter: TransactionSubmitter, accounts: DevAccounts,
        genesis: (config: ChainConfig, accounts: [GenesisAccount]), clock: @escaping @Sendable () -> UInt64
    ) {
        self.configuration = configuration
        self.chain = chain
        self.miner = miner
        self.ambient = ambient
        self.filters = filters
        self.conditions = conditions
        self.submitter = submitter
        self.accounts = accounts
        self.genesis = genesis
        self.clock = clock
    }

    // MARK: Accounts and storage

    public func setBalance(_ address: Address, _ balance: UInt256) throws(LedgerError) {
        try chain.withLedger { (chain) throws(LedgerError) in try chain.setBalance(address, balance) }
    }

    /// anvil_addBalance: `address`'s balance raised by `amount`.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when the balance or the total supply would pass 2^256 − 1.
    public func addBalance(_ address: Address, _ amount: UInt256) throws(LedgerError) {
        try chain.withLedger { (chain) throws(LedgerError) in
            let (sum, overflow) = chain.account(address).balance.addingReportingOverflow(amount)
            guard !overflow else { throw .valueOutOfRange("balance would exceed 2^256-1 wei") }
            try chain.setBalance(address, sum)
        }
    }

    public func setNonce(_ address: Address, _ nonce: UInt64) throws(LedgerError) {
        try chain.withLedger { (chain) throws(LedgerError) in try chain.setNonce(address, nonce) }
    }

    public func setCode(_ address: Address, _ code: [UInt8]) throws(LedgerError) {
        try chain.withLedger { (chain) throws(LedgerError) in try chain.setCode(address, code) }
    }

    /// anvil_setStorageAt / hardhat_setStorageAt: a storage word now (sealed into the next block).
    public func setStorage(_ address: Address, key: [UInt8], value: [UInt8]) {
        let slot = UInt256(bigEndian: key) ?? .zero
        let word = UInt256(bigEndian: value) ?? .zero
        chain.withLedger { $0.setStorage(address, slot: slot, value: word) }
    }

    // MARK: Native tokens

    /// anvil_dealERC20 (hardhat_dealERC20, anvil_setERC20Balance): sets `holder`'s balance of a native token, the
    /// total supply following. With `emitTransfer` the change is made by a real transaction instead: a `transfer`
    /// from the faucet's reserve (a raise) or to the faucet (a cut, signed with the dev key it holds), so indexers see
    /// a `Transfer` log in a real receipt; returns its hash.
    @discardableResult
    public func dealToken(_ tokenAddress: Address, holder: Address, amount: UInt256, emitTransfer: Bool = false) throws
        -> [UInt8]?
    {
        guard emitTransfer else {
            try chain.withLedger { (chain) throws(LedgerError) in
                try chain.setTokenBalance(token: tokenAddress, holder: holder, amount: amount)
            }
            return nil
        }
        let current = chain.withLedger { $0.tokenBalance(token: tokenAddress, holder: holder) }
        if amount == current { return nil }
        let raise = amount > current
        let delta = raise ? amount - current : current - amount
        let faucet = accounts.faucet
        let data = ERC20Call.transfer(to: raise ? holder : faucet.address, amount: delta).encoded()
        if raise {
            return try submitter.sendFromKey(
                faucet.privateKey, from: faucet.address,
                request: TransactionRequest(from: faucet.address, to: tokenAddress, data: data))
        }
        guard let key = accounts.devKey(for: holder) else { throw NodeError.unknownAccount }
        return try submitter.sendFromKey(
            key, from: holder, request: TransactionRequest(from: holder, to: tokenAddress, data: data))
    }

    /// anvil_setERC20Allowance: `owner`'s allowance to `spender` now.
    public func setTokenAllowance(_ tokenAddress: Address, owner: Address, spender: Address, amount: UInt256) throws {
        try chain.withLedger { (chain) throws(LedgerError) in
            try chain.setTokenAllowance(token: tokenAddress, owner: owner, spender: spender, amount: amount)
        }
    }

    // MARK: Mining

    /// anvil_mine: `count` blocks, `interval` seconds apart when given.
    public func mine(blocks count: UInt64 = 1, interval: UInt64? = nil) throws {
        let count = try blockCount(count)
        let now = clock()
        defer { submitter.releaseHeld() }
        if ambient.feeProfile != .dev {
            _ = try mineWithTraffic(blocks: count, now: now, interval: interval)
            return
        }
        try miner.turn { turn in
            turn.sealed(try chain.withLedger { try $0.mine(blocks: count, now: now, interval: interval) })
        }
    }

    /// anvil_mine under a fee profile other than `dev`: each block with other users' transactions for it.
    private func mineWithTraffic(blocks count: Int, now: UInt64, interval: UInt64?) throws -> [Block] {
        try miner.turn { turn in
            var mined: [Block] = []
            for i in 0..<count {
                mined += try ambient.mineBlock(now: now, timer: false, spacing: i > 0 ? interval : nil, &turn)
            }
            return mined
        }
    }

    /// evm_mine: `count` blocks, the first at `timestamp` when given.
    public func mine(blocks count: UInt64 = 1, timestamp: UInt64?) throws {
        let count = try blockCount(count)
        let now = clock()
        try miner.turn { turn in
            turn.sealed(
                try chain.withLedger { chain in
                    if let timestamp { try chain.setNextTimestamp(timestamp) }
                    return try chain.mine(blocks: count, now: now)
                })
        }
    }

    /// A block count from a client, at most ``NodeConfiguration/maxBlocksPerRequest``: mining is synchronous, so
    /// a larger count would hold the ledger (and every other client) for minutes.
    func blockCount(_ n: UInt64) throws(NodeError) -> Int {
        let limit = configuration.maxBlocksPerRequest
        guard n <= limit else { throw .tooManyBlocks(limit: limit) }
        return Int(clamping: n)
    }

    /// evm_setAutomine: turning it on mines the pool's executable transactions, as automatic mining would; queued
    /// ones (a nonce gap, a fee cap below the base fee) wait and no empty block is mined for them.
    public func setAutomine(_ on: Bool) throws {
        let now = clock()
        try miner.turn { turn in
            turn.sealed(
                try chain.withLedger { chain -> [Block] in
                    chain.miningMode = on ? .automatic : .manual
                    return on ? try chain.mineExecutable(now: now) : []
                })
        }
    }

    /// anvil_getAutomine.
    public var isAutomine: Bool { chain.miningMode == .automatic }

    /// evm_setIntervalMining: a block every `seconds` (0: manual).
    public func setIntervalMining(_ seconds: UInt64) throws {
        try chain.withLedger { try $0.setIntervalMining(seconds) }
    }

    /// anvil_getIntervalMining: the interval in seconds, nil unless mining on a timer.
    public var miningInterval: UInt64? {
        if case .interval(let seconds) = chain.miningMode { return seconds }
        return nil
    }

    // MARK: Snapshots, reverts, reorgs, reset

    /// evm_snapshot: an id to revert to, at most ``NodeConfiguration/snapshotLimit`` at once.
    public func snapshot() throws(NodeError) -> UInt64 {
        let limit = configuration.snapshotLimit
        return try chain.withLedger { (chain) throws(NodeError) in
            guard chain.retainedChanges.snapshots < limit else { throw .tooManySnapshots(limit: limit) }
            return chain.snapshot()
        }
    }

    /// evm_revert: back to snapshot `id` (consumed); false when there is no such snapshot. Blocks mined since the
    /// snapshot leave the chain, and their logs go to filters and `logs` subscribers again with `removed: true`.
    public func revert(to id: UInt64) throws -> Bool {
        try miner.turn { turn in
            let (reverted, removed) = try chain.withLedger { chain -> (Bool, [Block]) in
                var removed: [Block] = []
                if let height = chain.snapshotHeads.first(where: { $0.id == id })?.number, height < chain.blockNumber {
                    removed = (height + 1...chain.blockNumber).compactMap { chain.block(number: $0) }
                }
                let reverted = try chain.revert(to: id)
                return (reverted, reverted ? removed : [])
            }
            turn.removed(removed)
            return reverted
        }
    }

    /// anvil_reorg: replaces the last `depth` blocks (at most ``NodeConfiguration/maxBlocksPerRequest``), putting
    /// their transactions back in the pool when `requeue` is set.
    public func reorg(depth: UInt64, requeue: Bool) throws {
        let limit = configuration.maxBlocksPerRequest
        guard depth <= limit else { throw NodeError.reorgTooDeep(limit: limit) }
        let now = clock()
        try miner.turn { turn in
            let (removed, mined) = try chain.withLedger {
                try $0.reorgReplacing(depth: Int(depth), requeueTransactions: requeue, now: now)
            }
            turn.removed(removed)
            turn.sealed(mined)
        }
    }

    /// anvil_rollback: removes the last `depth` blocks (1 when nil), at most
    /// ``NodeConfiguration/maxBlocksPerRequest``. Their transactions are not returned to the pool. Log filters and
    /// `logs` subscribers get the removed blocks' logs with `removed: true`, as after a reorg.
    public func rollback(depth: UInt64?) throws {
        let depth = depth ?? 1
        let limit = configuration.maxBlocksPerRequest
        guard depth <= limit else {
            throw LedgerError.valueOutOfRange("cannot roll back more than \(limit) blocks at once")
        }
        try miner.turn { (turn) throws(LedgerError) in
            turn.removed(try chain.withLedger { (chain) throws(LedgerError) in try chain.rollback(depth: depth) })
        }
    }

    /// anvil_reset (Sandnet does not fork): a fresh chain from the same genesis and configuration. The pool is
    /// emptied, snapshots are dropped (their ids are not reused), the run-time parameters, clock offset and timestamp
    /// rules return to the configuration's, transactions held by chain conditions are dropped, and the instance id
    /// changes. Filters and subscriptions stay installed and see the new chain's blocks, as in Anvil. With a data
    /// directory the chain's records in it are replaced by the fresh chain in one synced write (the ICP ledger's
    /// records in the same directory are left alone); when that write fails nothing changes.
    public func reset() throws {
        try miner.turn { (_) throws(LedgerError) in
            try chain.reset(config: genesis.config, genesis: genesis.accounts)
            filters.restartChain()
            conditions.dropHeld()
        }
    }

    // MARK: What the node reports

    /// anvil_metadata.
    public var metadata: NodeMetadata {
        chain.withInstance { instanceID, chain in
            NodeMetadata(
                clientVersion: configuration.clientVersion, chainID: chain.config.chainID, instanceID: instanceID,
                latestBlockNumber: chain.blockNumber, latestBlockHash: chain.head.hash,
                snapshots: chain.snapshotHeads.map { .init(id: $0.id, blockNumber: $0.number, blockHash: $0.hash) })
        }
    }

    /// anvil_nodeInfo's facts about the head.
    public var nodeInfo: NodeInfo {
        chain.withLedger { chain in
            NodeInfo(
                blockNumber: chain.blockNumber, blockTimestamp: chain.head.header.timestamp, blockHash: chain.head.hash,
                chainID: chain.config.chainID, baseFee: chain.head.header.baseFeePerGas,
                gasLimit: chain.config.gasLimit)
        }
    }

    // MARK: State dump

    /// Every account with its balance, nonce and code, sorted by address, and the head's number (anvil_dumpState).
    public func dumpState() -> (block: UInt64, accounts: [(Address, Account)]) {
        chain.withLedger { chain in
            (chain.blockNumber, chain.world.addresses.sorted().map { ($0, chain.account($0)) })
        }
    }

    /// Merges accounts into the chain (anvil_loadState, `--load-state`): per address the last value of each field
    /// wins. Every account and the new total supply are checked before anything is written, so a refused load
    /// changes nothing.
    public func loadState(_ accounts: [AccountOverride]) throws {
        try chain.withLedger { chain in try Self.merge(accounts, into: &chain) }
    }

    static func merge(_ changes: [AccountOverride], into ledger: inout Ledger) throws {
        // One change per address, lowered balances first: then every intermediate total lies between the current
        // supply and the checked final one.
        var merged: [Address: AccountOverride] = [:]
        var order: [Address] = []
        for change in changes {
            if merged[change.address] == nil { order.append(change.address) }
            var m = merged[change.address] ?? AccountOverride(address: change.address)
            m.balance = change.balance ?? m.balance
            m.nonce = change.nonce ?? m.nonce
            m.code = change.code ?? m.code
            merged[change.address] = m
        }
        var supply = ledger.totalSupply
        for (address, m) in merged where m.balance != nil { supply = supply - ledger.account(address).balance }
        for m in merged.values {
            guard let balance = m.balance else { continue }
            let (sum, overflow) = supply.addingReportingOverflow(balance)
            guard !overflow else {
                throw LedgerError.valueOutOfRange(
                    "state dump balances are too large: the total supply would exceed 2^256-1 wei")
            }
            supply = sum
        }
        func lowers(_ address: Address) -> Bool {
            guard let balance = merged[address]?.balance else { return false }
            return balance < ledger.account(address).balance
        }
        let lowered = order.filter(lowers)
        let rest = order.filter { !lowers($0) }
        for address in lowered + rest {
            let m = merged[address]!
            if let b = m.balance { try ledger.setBalance(address, b) }
            if let n = m.nonce { try ledger.setNonce(address, n) }
            if let c = m.code { try ledger.setCode(address, c) }
        }
    }
}
