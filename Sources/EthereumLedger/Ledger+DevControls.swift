import EthereumTypes
import KeccakHashing

/// Developer controls in the manner of Anvil's `anvil_*` / `evm_*` methods.
extension Ledger {
    /// Sets an account's balance now (Anvil `anvil_setBalance`); the supply follows so the conservation
    /// invariant still holds.
    public mutating func setBalance(_ address: Address, _ balance: UInt256) throws(LedgerError) {
        var account = account(address)
        state.supply = state.supply - account.balance + balance
        account.balance = balance
        setAccount(address, account)
        try persistence?.commitState(ledger: &self)
    }

    /// Sets an account's nonce (`anvil_setNonce`); pool transactions below it are dropped.
    public mutating func setNonce(_ address: Address, _ nonce: UInt64) throws(LedgerError) {
        var account = account(address)
        account.nonce = nonce
        setAccount(address, account)
        state.pool.prune(address, accountNonce: nonce)
        try persistence?.commitState(ledger: &self)
    }

    /// Gives an address code (genesis-style contract marker; never executed).
    public mutating func setCode(_ address: Address, _ code: [UInt8]) throws(LedgerError) {
        var account = account(address)
        account.code = code
        setAccount(address, account)
        try persistence?.commitState(ledger: &self)
    }

    /// Fixes the next block's timestamp (`evm_setNextBlockTimestamp`); it must exceed the head's.
    public mutating func setNextTimestamp(_ timestamp: UInt64) throws(LedgerError) {
        guard timestamp > head.header.timestamp else {
            throw .invalidRequest(
                "timestamp \(timestamp) must be greater than the latest block's timestamp \(head.header.timestamp)")
        }
        state.nextTimestamp = timestamp
    }

    /// Moves the clock forward (`evm_increaseTime`); returns the total offset in seconds.
    @discardableResult
    public mutating func increaseTime(_ seconds: UInt64) -> Int64 {
        state.timeOffset = state.timeOffset &+ Int64(clamping: seconds)
        let (floor, overflow) = head.header.timestamp.addingReportingOverflow(seconds)
        state.timestampFloor = max(state.timestampFloor ?? 0, overflow ? .max : floor)
        return state.timeOffset
    }

    public var timeOffset: Int64 { state.timeOffset }

    /// Fixes the next block's base fee (`anvil_setNextBlockBaseFeePerGas`).
    public mutating func setNextBaseFee(_ fee: UInt256) { state.nextBaseFee = fee }

    /// Takes a snapshot (`evm_snapshot`): O(1); returns its id.
    public mutating func snapshot() -> UInt64 {
        let id = nextSnapshotID
        nextSnapshotID += 1
        snapshots.append((id, state))
        return id
    }

    /// Restores snapshot `id` (`evm_revert`); it and every later snapshot are consumed. False if unknown.
    public mutating func revert(to id: UInt64) throws(LedgerError) -> Bool {
        guard let index = snapshots.firstIndex(where: { $0.id == id }) else { return false }
        state = snapshots[index].state
        snapshots.removeSubrange(index...)
        try persistence?.rewriteAll(ledger: &self)
        return true
    }

    /// Removes a transaction from the pool (`anvil_dropTransaction`); false if it is not pending.
    @discardableResult
    public mutating func dropTransaction(_ hash: [UInt8]) -> Bool {
        let dropped = state.pool.remove(hash) != nil
        // Best effort: a failed write leaves the drop to the next block's batch.
        if dropped { try? persistence?.commitPool(ledger: &self) }
        return dropped
    }

    /// Removes the last `depth` blocks, returning their transactions to the pool (or dropping them), then
    /// mines `depth` replacement blocks so the height is unchanged (as `anvil_reorg` does). Replacement
    /// blocks have new hashes; requeued transactions are included again as the mining rules allow.
    public mutating func reorg(depth: Int, requeueTransactions: Bool, now: UInt64) throws(LedgerError) -> [Block] {
        guard depth > 0, depth <= Int(blockNumber) else {
            throw .invalidRequest("reorg depth must be between 1 and the chain height (\(blockNumber))")
        }
        let target = blockNumber - UInt64(depth)
        let removed = Array(state.blocks[(Int(target) + 1)...])
        let timestamps = removed.map(\.header.timestamp)
        rewindState(to: target)
        if requeueTransactions {
            for block in removed { for tx in block.transactions { state.pool.insert(tx) } }
        }
        state.reorgCount += 1
        var mined: [Block] = []
        for timestamp in timestamps {
            state.nextTimestamp = max(timestamp, head.header.timestamp + 1)
            mined.append(try seal(now: now))
        }
        try persistence?.rewriteAll(ledger: &self)
        return mined
    }

    /// Rolls accounts, blocks and indexes back to the end of block `target`.
    mutating func rewindState(to target: UInt64) {
        for block in state.blocks[(Int(target) + 1)...] {
            state.blockNumbers[block.hash] = nil
            for tx in block.transactions { state.transactionIndex[tx.hash] = nil }
        }
        state.blocks.removeSubrange((Int(target) + 1)...)
        state.totals.removeSubrange((Int(target) + 1)...)
        (state.burned, state.supply) = state.totals[Int(target)]
        // Unsealed dev changes are discarded too: restore every address changed after `target`.
        var changed = state.dirty
        for (address, entries) in state.history where (entries.last?.block ?? 0) > target { changed.insert(address) }
        for address in changed {
            var entries = state.history[address] ?? []
            while let last = entries.last, last.block > target { entries.removeLast() }
            state.history[address] = entries.isEmpty ? nil : entries
            let restored = entries.last?.account ?? nil
            state.accounts[address] = restored
            let key = Keccak256.hash(address.bytes)
            if let restored, !restored.isEmpty || !restored.code.isEmpty {
                state.stateTrie.set(key, restored.stateEncoding)
            } else {
                state.stateTrie.remove(key)
            }
        }
        state.dirty.removeAll()
        for tx in state.pool.all { state.pool.prune(tx.sender, accountNonce: account(tx.sender).nonce) }
    }

    /// Sum of every balance (for the conservation invariant: Σ balances + burned = supply).
    public var sumOfBalances: UInt256 {
        state.accounts.values.reduce(UInt256.zero) { $0 + $1.balance }
    }
}
