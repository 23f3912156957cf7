import EthereumLedger
import EthereumTransactions
import EthereumTypes
import NativeContracts

/// Anvil's and Hardhat's developer controls, typed: what `anvil_*`, `hardhat_*` and `evm_*` do.
extension SandnetNode {
    public func setBalance(_ address: Address, _ balance: UInt256) throws(LedgerError) {
        try withLedger { (chain) throws(LedgerError) in try chain.setBalance(address, balance) }
    }

    public func setNonce(_ address: Address, _ nonce: UInt64) throws(LedgerError) {
        try withLedger { (chain) throws(LedgerError) in try chain.setNonce(address, nonce) }
    }

    public func setCode(_ address: Address, _ code: [UInt8]) throws(LedgerError) {
        try withLedger { (chain) throws(LedgerError) in try chain.setCode(address, code) }
    }

    /// anvil_mine: `count` blocks, `interval` seconds apart when given.
    public func mine(blocks count: UInt64 = 1, interval: UInt64? = nil) throws {
        let count = try blockCount(count)
        let now = clock()
        defer { releaseHeld() }
        if ambient.feeProfile != .dev {
            _ = try mineWithTraffic(blocks: count, now: now, interval: interval)
            return
        }
        try miner.turn { turn in
            turn.sealed(try withLedger { try $0.mine(blocks: count, now: now, interval: interval) })
        }
    }

    /// evm_mine: `count` blocks, the first at `timestamp` when given.
    public func mine(blocks count: UInt64 = 1, timestamp: UInt64?) throws {
        let count = try blockCount(count)
        let now = clock()
        try miner.turn { turn in
            turn.sealed(
                try withLedger { chain in
                    if let timestamp { try chain.setNextTimestamp(timestamp) }
                    return try chain.mine(blocks: count, now: now)
                })
        }
    }

    /// evm_snapshot: an id to revert to, at most ``NodeConfiguration/snapshotLimit`` at once.
    public func snapshot() throws(NodeError) -> UInt64 {
        let limit = configuration.snapshotLimit
        return try withLedger { (chain) throws(NodeError) in
            guard chain.retainedChanges.snapshots < limit else { throw .tooManySnapshots(limit: limit) }
            return chain.snapshot()
        }
    }

    /// evm_revert: back to snapshot `id` (consumed); false when there is no such snapshot.
    /// evm_revert: blocks mined since the snapshot leave the chain, and their logs go to filters and `logs`
    /// subscribers again with `removed: true`.
    public func revert(to id: UInt64) throws -> Bool {
        try miner.turn { turn in
            let (reverted, removed) = try withLedger { chain -> (Bool, [Block]) in
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

    /// evm_increaseTime: the total offset in seconds afterwards (at least 0).
    public func increaseTime(by seconds: UInt64) throws -> UInt64 {
        UInt64(max(0, try withLedger { try $0.increaseTime(seconds) }))
    }

    public func setNextBlockTimestamp(_ timestamp: UInt64) throws {
        try withLedger { try $0.setNextTimestamp(timestamp) }
    }

    /// evm_setAutomine: turning it on mines the pool's executable transactions, as automatic mining would; queued
    /// ones (a nonce gap, a fee cap below the base fee) wait and no empty block is mined for them.
    public func setAutomine(_ on: Bool) throws {
        let now = clock()
        try miner.turn { turn in
            turn.sealed(
                try withLedger { chain -> [Block] in
                    chain.miningMode = on ? .automatic : .manual
                    return on ? try chain.mineExecutable(now: now) : []
                })
        }
    }

    public var isAutomine: Bool { miningMode == .automatic }

    /// evm_setIntervalMining: a block every `seconds` (0: manual).
    public func setIntervalMining(_ seconds: UInt64) throws {
        try withLedger { try $0.setIntervalMining(seconds) }
    }

    /// anvil_dropTransaction: false when the pool has no such transaction.
    public func dropTransaction(_ hash: [UInt8]) -> Bool { withLedger { $0.dropTransaction(hash) } }

    /// anvil_dropAllTransactions: empties the pool (pending and queued). Returns how many were dropped.
    @discardableResult
    public func dropAllTransactions() -> Int {
        withLedger { chain in chain.pool.all.reduce(0) { n, tx in chain.dropTransaction(tx.hash) ? n + 1 : n } }
    }

    /// anvil_removePoolTransactions: drops every pool transaction sent by `sender`. Returns how many.
    @discardableResult
    public func removePoolTransactions(from sender: Address) -> Int {
        withLedger { chain in
            chain.pool.all.filter { $0.sender == sender }.reduce(0) { n, tx in
                chain.dropTransaction(tx.hash) ? n + 1 : n
            }
        }
    }

    /// anvil_addBalance: `address`'s balance raised by `amount`.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when the balance or the total supply would pass 2^256 − 1.
    public func addBalance(_ address: Address, _ amount: UInt256) throws(LedgerError) {
        try withLedger { (chain) throws(LedgerError) in
            let (sum, overflow) = chain.account(address).balance.addingReportingOverflow(amount)
            guard !overflow else { throw .valueOutOfRange("balance would exceed 2^256-1 wei") }
            try chain.setBalance(address, sum)
        }
    }

    /// anvil_getIntervalMining: the interval in seconds, nil unless mining on a timer.
    public var miningInterval: UInt64? {
        if case .interval(let seconds) = miningMode { return seconds }
        return nil
    }

    /// anvil_getGenesisTime: the genesis block's timestamp (the stored one when a data directory was reopened).
    public var genesisTime: UInt64 {
        withLedger { $0.block(number: 0)?.header.timestamp } ?? configuration.chain.genesisTimestamp
    }

    /// anvil_reorg: replaces the last `depth` blocks (at most ``NodeConfiguration/maxBlocksPerRequest``), putting
    /// their transactions back in the pool when `requeue` is set.
    public func reorg(depth: UInt64, requeue: Bool) throws {
        let limit = configuration.maxBlocksPerRequest
        guard depth <= limit else { throw NodeError.reorgTooDeep(limit: limit) }
        let now = clock()
        try miner.turn { turn in
            let (removed, mined) = try withLedger {
                try $0.reorgReplacing(depth: Int(depth), requeueTransactions: requeue, now: now)
            }
            turn.removed(removed)
            turn.sealed(mined)
        }
    }

    public func setNextBlockBaseFee(_ fee: UInt256) { withLedger { $0.setNextBaseFee(fee) } }

    /// Every account with its balance, nonce and code, sorted by address, and the head's number (anvil_dumpState).
    public func dumpState() -> (block: UInt64, accounts: [(Address, Account)]) {
        withLedger { chain in
            (chain.blockNumber, chain.world.addresses.sorted().map { ($0, chain.account($0)) })
        }
    }

    /// Merges accounts into the chain (anvil_loadState, `--load-state`): per address the last value of each field
    /// wins. Every account and the new total supply are checked before anything is written, so a refused load
    /// changes nothing.
    public func loadState(_ accounts: [AccountOverride]) throws {
        try withLedger { chain in try Self.merge(accounts, into: &chain) }
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

    /// anvil_nodeInfo's facts about the head.
    public var nodeInfo: NodeInfo {
        withLedger { chain in
            NodeInfo(
                blockNumber: chain.blockNumber, blockTimestamp: chain.head.header.timestamp, blockHash: chain.head.hash,
                chainID: chain.config.chainID, baseFee: chain.head.header.baseFeePerGas,
                gasLimit: chain.config.gasLimit)
        }
    }

    /// A block count from a client, at most ``NodeConfiguration/maxBlocksPerRequest``: mining is synchronous, so
    /// a larger count would hold the ledger (and every other client) for minutes.
    func blockCount(_ n: UInt64) throws(NodeError) -> Int {
        let limit = configuration.maxBlocksPerRequest
        guard n <= limit else { throw .tooManyBlocks(limit: limit) }
        return Int(clamping: n)
    }
}

/// Native tokens: storage writes and balances as developer methods set them.
extension SandnetNode {
    /// The chain's native contracts (tokens with their genesis holdings, Multicall3).
    public var nativeContracts: NativeContractRegistry { withLedger { $0.nativeContracts } }

    /// A token by symbol (case-insensitive) or address.
    public func token(_ text: String) throws(NodeError) -> TokenDefinition {
        guard let token = nativeContracts.token(named: text) else { throw .unknownToken(text) }
        return token
    }

    /// anvil_setStorageAt / hardhat_setStorageAt: a storage word now (sealed into the next block).
    public func setStorage(_ address: Address, key: [UInt8], value: [UInt8]) {
        let slot = UInt256(bigEndian: key) ?? .zero
        let word = UInt256(bigEndian: value) ?? .zero
        withLedger { $0.setStorage(address, slot: slot, value: word) }
    }

    /// anvil_dealERC20 (hardhat_dealERC20, anvil_setERC20Balance): sets `holder`'s balance of a native token, the
    /// total supply following. With `emitTransfer` the change is made by a real transaction instead: a `transfer`
    /// from the faucet's reserve (a raise) or to the faucet (a cut, signed with the dev key it holds), so indexers see
    /// a `Transfer` log in a real receipt; returns its hash.
    @discardableResult
    public func dealToken(_ tokenAddress: Address, holder: Address, amount: UInt256, emitTransfer: Bool = false) throws
        -> [UInt8]?
    {
        guard emitTransfer else {
            try withLedger { (chain) throws(LedgerError) in
                try chain.setTokenBalance(token: tokenAddress, holder: holder, amount: amount)
            }
            return nil
        }
        let current = withLedger { $0.tokenBalance(token: tokenAddress, holder: holder) }
        if amount == current { return nil }
        let raise = amount > current
        let delta = raise ? amount - current : current - amount
        let data = Self.transferCalldata(to: raise ? holder : faucetAddress, amount: delta)
        if raise {
            return try sendFromKey(
                faucetKey, from: faucetAddress,
                request: TransactionRequest(from: faucetAddress, to: tokenAddress, data: data))
        }
        guard let key = keys[holder] else { throw NodeError.unknownAccount }
        return try sendFromKey(
            key, from: holder, request: TransactionRequest(from: holder, to: tokenAddress, data: data))
    }

    /// anvil_setERC20Allowance: `owner`'s allowance to `spender` now.
    public func setTokenAllowance(_ tokenAddress: Address, owner: Address, spender: Address, amount: UInt256) throws {
        try withLedger { (chain) throws(LedgerError) in
            try chain.setTokenAllowance(token: tokenAddress, owner: owner, spender: spender, amount: amount)
        }
    }

    /// `transfer(to, amount)` calldata (EIP-20).
    static func transferCalldata(to: Address, amount: UInt256) -> [UInt8] {
        ERC20Call.transfer(to: to, amount: amount).encoded()
    }
}
