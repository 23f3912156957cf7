import EthereumTypes
import KeccakHashing

/// Developer controls in the manner of Anvil's `anvil_*` / `evm_*` methods.
extension Ledger {
    /// Sets an account's balance now (Anvil `anvil_setBalance`); the supply follows so the conservation
    /// invariant still holds.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when the total supply (Σ balances + burned) would pass
    ///   2^256 − 1: a total real Ethereum can never overflow, so it is refused rather than wrapped.
    public mutating func setBalance(_ address: Address, _ balance: UInt256) throws(LedgerError) {
        var account = account(address)
        let others = state.supply - account.balance
        let (supply, overflow) = others.addingReportingOverflow(balance)
        guard !overflow else {
            throw .valueOutOfRange(
                "balance \(balance) wei is too large: the total supply would exceed 2^256-1 wei "
                    + "(this account can hold at most \(UInt256.max - others) wei)")
        }
        state.supply = supply
        account.balance = balance
        setAccount(address, account)
    }

    /// Sets an account's nonce (`anvil_setNonce`); pool transactions below it are dropped.
    public mutating func setNonce(_ address: Address, _ nonce: UInt64) throws(LedgerError) {
        var account = account(address)
        account.nonce = nonce
        setAccount(address, account)
        poolPrune(address, accountNonce: nonce)
    }

    /// Gives an address code (genesis-style contract marker; never executed).
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for code longer than ``ChainConfig/maxTransactionSize`` (128 KiB,
    ///   the pool's limit on a transaction): more than EIP-170's 24,576 bytes, as Anvil allows test contracts, but
    ///   bounded.
    public mutating func setCode(_ address: Address, _ code: [UInt8]) throws(LedgerError) {
        guard code.count <= config.maxTransactionSize else {
            throw .valueOutOfRange(
                "code is \(code.count) bytes long: at most \(config.maxTransactionSize) bytes (the pool's transaction "
                    + "size limit) may be set")
        }
        var account = account(address)
        account.code = code
        setAccount(address, account)
    }

    /// The latest timestamp developer methods may ask for: 9999-12-31T23:59:59Z. Block timestamps must keep
    /// increasing and stay below 2^64, and clients format them as dates; this leaves ~1.8 × 10^19 blocks of room.
    public static let maxTimestamp: UInt64 = 253_402_300_799

    /// The longest interval-mining period (`evm_setIntervalMining`): one year.
    public static let maxMiningInterval: UInt64 = 31_536_000

    /// Fixes the next block's timestamp (`evm_setNextBlockTimestamp`); it must exceed the head's.
    public mutating func setNextTimestamp(_ timestamp: UInt64) throws(LedgerError) {
        guard timestamp <= Self.maxTimestamp else {
            throw .valueOutOfRange(
                "timestamp \(timestamp) is too large: the latest allowed is \(Self.maxTimestamp) (9999-12-31T23:59:59Z)"
            )
        }
        guard timestamp > head.header.timestamp else {
            throw .timestampNotAfterHead(timestamp: timestamp, head: head.header.timestamp)
        }
        state.nextTimestamp = timestamp
    }

    /// Moves the clock forward (`evm_increaseTime`); returns the total offset in seconds.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when the total offset or the next block's timestamp would
    ///   pass ``maxTimestamp``.
    @discardableResult
    public mutating func increaseTime(_ seconds: UInt64) throws(LedgerError) -> Int64 {
        let limit = Self.maxTimestamp
        guard seconds <= limit, state.timeOffset <= Int64(limit - seconds), head.header.timestamp <= limit - seconds
        else {
            throw .valueOutOfRange(
                "cannot increase time by \(seconds) seconds: the clock may not pass \(limit) (9999-12-31T23:59:59Z)")
        }
        state.timeOffset += Int64(seconds)
        state.timestampFloor = max(state.timestampFloor ?? 0, head.header.timestamp + seconds)
        return state.timeOffset
    }

    /// Switches to interval mining every `seconds` (`evm_setIntervalMining`), or to manual mining for 0.
    public mutating func setIntervalMining(_ seconds: UInt64) throws(LedgerError) {
        guard seconds <= Self.maxMiningInterval else {
            throw .valueOutOfRange(
                "interval \(seconds) is too long: at most \(Self.maxMiningInterval) seconds (one year)")
        }
        miningMode = seconds == 0 ? .manual : .interval(seconds: seconds)
    }

    /// The head's number when snapshot `id` was taken, or nil for an unknown id: the blocks after it leave the
    /// chain when it is reverted to.
    public func headHeight(atSnapshot id: UInt64) -> UInt64? {
        snapshots.first { $0.id == id }?.checkpoint.height
    }

    /// Outstanding snapshots (``snapshot()``); each keeps the state it was taken at alive.
    public var snapshotCount: Int { snapshots.count }

    public var timeOffset: Int64 { state.timeOffset }

    /// Fixes the next block's base fee (`anvil_setNextBlockBaseFeePerGas`).
    public mutating func setNextBaseFee(_ fee: UInt256) { state.nextBaseFee = fee }

    /// Takes a snapshot (`evm_snapshot`): O(1); returns its id. From then on the ledger journals its table
    /// changes, so the snapshot holds memory in proportion to what changes after it.
    public mutating func snapshot() -> UInt64 {
        let id = nextSnapshotID
        nextSnapshotID += 1
        snapshots.append(Snapshot(id: id, position: journal.count, checkpoint: checkpoint, headHash: head.hash))
        return id
    }

    /// Restores snapshot `id` (`evm_revert`); it and every later snapshot are consumed, and the journal they
    /// held is released. O(changes since the snapshot). False if unknown.
    public mutating func revert(to id: UInt64) throws(LedgerError) -> Bool {
        guard let index = snapshots.firstIndex(where: { $0.id == id }) else { return false }
        let snapshot = snapshots[index]
        unwind(to: snapshot.position)
        if changeOpen && collapsible == nil { collapsible = snapshot.position..<journal.count }
        restore(snapshot.checkpoint)
        snapshots.removeSubrange(index...)
        return true
    }

    /// Removes a transaction from the pool (`anvil_dropTransaction`); false if it is not pending.
    @discardableResult
    public mutating func dropTransaction(_ hash: [UInt8]) -> Bool {
        poolRemove(hash) != nil
    }

    /// Removes the last `depth` blocks, returning their transactions to the pool (or dropping them), then
    /// mines `depth` replacement blocks so the height is unchanged (as `anvil_reorg` does). Replacement
    /// blocks have new hashes; requeued transactions are included again as the mining rules allow.
    public mutating func reorg(depth: Int, requeueTransactions: Bool, now: UInt64) throws(LedgerError) -> [Block] {
        try reorgReplacing(depth: depth, requeueTransactions: requeueTransactions, now: now).mined
    }

    /// As ``reorg(depth:requeueTransactions:now:)``, also returning the blocks it removed (whose logs subscribers
    /// and filters get again with `removed: true`).
    public mutating func reorgReplacing(
        depth: Int, requeueTransactions: Bool, now: UInt64
    ) throws(LedgerError) -> (removed: [Block], mined: [Block]) {
        guard depth > 0, UInt64(depth) <= blockNumber else {
            throw .invalidReorgDepth(height: blockNumber)
        }
        let target = blockNumber - UInt64(depth)
        try hold(target...blockNumber)
        let removed = (target + 1...blockNumber).compactMap { state.blocks[$0] }
        let timestamps = removed.map(\.header.timestamp)
        rewindState(to: target)
        if requeueTransactions {
            for block in removed { for tx in block.transactions { poolInsert(tx) } }
        }
        state.reorgCount += 1
        var mined: [Block] = []
        for timestamp in timestamps {
            state.nextTimestamp = max(timestamp, head.header.timestamp + 1)
            mined.append(try seal(now: now))
        }
        // Requeued transactions that did not fit must not leave the pool over its limits.
        while state.pool.count > config.poolLimitTotal || state.pool.byteCount > config.poolByteLimit {
            guard let victim = state.pool.cheapest(baseFee: nextBaseFee, accountNonce: { account($0).nonce }) else {
                break
            }
            state.pool.remove(victim.hash)
        }
        return (removed, mined)
    }

    /// Rolls accounts, blocks and indexes back to the end of block `target`.
    mutating func rewindState(to target: UInt64) {
        while state.height > target { removeLastBlock() }
        let totals = totals(at: target)
        (state.burned, state.supply) = (totals.burned, totals.supply)
        // Unsealed dev changes are discarded too: restore every address changed after `target`.
        var changed = state.dirty
        for (address, entries) in state.history where (entries.last?.block ?? 0) > target { changed.insert(address) }
        for address in changed.sorted() {
            while let last = state.history[address]?.last, last.block > target { removeLastHistory(address) }
            let restored = sealedAccount(address, atBlock: target)
            writeAccount(address, restored)
            let key = Keccak256.hash(address.bytes)
            if let restored, restored.isInStateTrie {
                state.stateTrie.set(key, restored.stateEncoding)
            } else {
                state.stateTrie.remove(key)
            }
        }
        state.dirty.removeAll()
        for tx in state.pool.all { poolPrune(tx.sender, accountNonce: account(tx.sender).nonce) }
    }

    /// Sum of every balance (for the conservation invariant: Σ balances + burned = supply).
    public var sumOfBalances: UInt256 {
        state.accounts.values.reduce(UInt256.zero) { $0 + $1.balance }
    }
}
