import EthereumTypes

/// The per-block parameters developer methods change at run time (`anvil_setChainId`, `anvil_setBlockGasLimit`,
/// `anvil_setCoinbase`). They start as the ``ChainConfig``'s and are the ledger's state from then on: blocks sealed
/// after a change carry it, a snapshot captures them (`evm_revert` restores them), and a data directory keeps them.
public struct ChainParameters: Sendable, Equatable {
    /// EIP-155 chain id: `eth_chainId`, `net_version`, and what signed transactions must carry.
    public var chainID: UInt64
    /// Block gas limit of the blocks sealed from now on.
    public var gasLimit: UInt64
    /// Receives the priority fees of the blocks sealed from now on.
    public var coinbase: Address

    public init(chainID: UInt64, gasLimit: UInt64, coinbase: Address) {
        self.chainID = chainID
        self.gasLimit = gasLimit
        self.coinbase = coinbase
    }
}

extension ChainConfig {
    /// The parameters a ledger may change at run time.
    public var parameters: ChainParameters {
        get { ChainParameters(chainID: chainID, gasLimit: gasLimit, coinbase: coinbase) }
        set {
            chainID = newValue.chainID
            gasLimit = newValue.gasLimit
            coinbase = newValue.coinbase
        }
    }
}

/// Developer methods that change the chain's parameters, its clock rules and its length.
extension Ledger {
    /// The chain's run-time parameters now.
    public var parameters: ChainParameters { config.parameters }

    /// The smallest block gas limit: one plain transfer (21,000 gas) must fit.
    public static let minimumGasLimit: UInt64 = 21_000
    /// The largest block gas limit: geth's `params.MaxGasLimit`, 2^63 − 1.
    public static let maximumGasLimit: UInt64 = 0x7fff_ffff_ffff_ffff
    /// The largest chain id: 4,503,599,627,370,476, MetaMask's `MAX_SAFE_CHAIN_ID` (a legacy transaction's
    /// v = 2 × id + 36 stays below 2^53, so JavaScript clients hold it exactly).
    public static let maximumChainID: UInt64 = 4_503_599_627_370_476

    /// Sets the coinbase of the blocks sealed from now on (`anvil_setCoinbase`): they name it and their priority
    /// fees go to it.
    public mutating func setCoinbase(_ coinbase: Address) {
        config.coinbase = coinbase
    }

    /// Sets the gas limit of the blocks sealed from now on (`anvil_setBlockGasLimit`). Pool transactions whose gas
    /// limit exceeds it are dropped, as geth's pool drops them on a new head (they could never be included).
    ///
    /// - Returns: the hashes of the dropped transactions.
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` outside ``minimumGasLimit``…``maximumGasLimit``.
    @discardableResult
    public mutating func setGasLimit(_ gasLimit: UInt64) throws(LedgerError) -> [[UInt8]] {
        guard gasLimit >= Self.minimumGasLimit, gasLimit <= Self.maximumGasLimit else {
            throw .valueOutOfRange(
                "block gas limit \(gasLimit) is out of range: at least \(Self.minimumGasLimit) (one transfer) and at "
                    + "most \(Self.maximumGasLimit) (2^63-1)")
        }
        config.gasLimit = gasLimit
        return dropPoolTransactions { $0.gasLimit > gasLimit }
    }

    /// Sets the chain id (`anvil_setChainId`): `eth_chainId` and `net_version` answer it and transactions must be
    /// signed for it. Pool transactions signed for another chain id are dropped (they could never be included);
    /// unprotected legacy ones (no chain id) stay.
    ///
    /// - Returns: the hashes of the dropped transactions.
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for 0 or above ``maximumChainID``.
    @discardableResult
    public mutating func setChainID(_ chainID: UInt64) throws(LedgerError) -> [[UInt8]] {
        guard chainID >= 1, chainID <= Self.maximumChainID else {
            throw .valueOutOfRange(
                "chain id \(chainID) is out of range: at least 1 and at most \(Self.maximumChainID) "
                    + "(MetaMask's largest safe chain id)")
        }
        config.chainID = chainID
        return dropPoolTransactions { tx in tx.chainID.map { $0 != chainID } ?? false }
    }

    mutating func dropPoolTransactions(where drop: (LedgerTransaction) -> Bool) -> [[UInt8]] {
        let victims = state.pool.all.filter(drop).map(\.hash)
        for hash in victims { poolRemove(hash) }
        return victims
    }

    /// Sets the clock so that now is `timestamp` (`anvil_setTime`, `evm_setTime`): later blocks follow the clock
    /// from there. A pending `evm_setNextBlockTimestamp` or `evm_increaseTime` promise is cleared, as Anvil clears
    /// it. Blocks never go back in time: a timestamp at or before the head's gives the next block the head's + 1.
    ///
    /// - Returns: Anvil's answer: seconds from the next block's timestamp before the call to `timestamp` (0 when
    ///   `timestamp` is earlier).
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` past ``maxTimestamp``.
    public mutating func setTime(_ timestamp: UInt64, now: UInt64) throws(LedgerError) -> UInt64 {
        guard timestamp <= Self.maxTimestamp else {
            throw .valueOutOfRange(
                "timestamp \(timestamp) is too large: the latest allowed is \(Self.maxTimestamp) (9999-12-31T23:59:59Z)"
            )
        }
        let before = nextBlockTimestamp(now: now)
        // Both sides are at most 2^63 − 1 here (maxTimestamp, and a clock clamped to it), so the difference fits.
        state.timeOffset = Int64(timestamp) - Int64(min(now, Self.maxTimestamp))
        state.nextTimestamp = nil
        state.timestampFloor = nil
        return timestamp > before ? timestamp - before : 0
    }

    /// Gives each next block its parent's timestamp plus `seconds` (`anvil_setBlockTimestampInterval`), whatever the
    /// clock says. `evm_setNextBlockTimestamp` still fixes the next block, and `evm_increaseTime` still makes it at
    /// least that late; an interval of 0 still advances one second per block (timestamps must increase).
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` above ``maxMiningInterval`` (one year).
    public mutating func setBlockTimestampInterval(_ seconds: UInt64) throws(LedgerError) {
        guard seconds <= Self.maxMiningInterval else {
            throw .valueOutOfRange(
                "interval \(seconds) is too long: at most \(Self.maxMiningInterval) seconds (one year)")
        }
        state.blockTimestampInterval = seconds
    }

    /// Removes the block timestamp interval (`anvil_removeBlockTimestampInterval`); false when none was set.
    public mutating func removeBlockTimestampInterval() -> Bool {
        defer { state.blockTimestampInterval = nil }
        return state.blockTimestampInterval != nil
    }

    /// The block timestamp interval, if set.
    public var blockTimestampInterval: UInt64? { state.blockTimestampInterval }

    /// Whether a timer block (interval mining, automine's empty-block interval) `interval` seconds after the head is
    /// due at `now`: by the next block's timestamp, or, while a block timestamp interval decouples timestamps from the
    /// clock, by the clock since the head was sealed (as Anvil's timer runs on the wall clock).
    ///
    /// The clock also decides when it reads earlier than the head (`anvil_setTime` into the past, or a data directory
    /// reopened after `evm_increaseTime`): block time would not reach the head + `interval` until the clock caught up,
    /// so the timer would stall.
    public func timerBlockDue(interval: UInt64, now: UInt64) -> Bool {
        if timerFollowsClock(now: now) { return clockTimerDue(interval: interval, now: now) }
        let (due, late) = head.header.timestamp.addingReportingOverflow(interval)
        return !late && nextBlockTimestamp(now: now) >= due
    }

    /// True while block timestamps do not follow the clock: a block timestamp interval is set, or the clock (with its
    /// offset) reads no later than the head.
    func timerFollowsClock(now: UInt64) -> Bool {
        guard state.blockTimestampInterval == nil else { return true }
        let (clock, overflow) = Int64(clamping: now).addingReportingOverflow(state.timeOffset)
        return !overflow && clock <= Int64(clamping: head.header.timestamp)
    }

    /// `interval` clock seconds have passed since the head was sealed.
    func clockTimerDue(interval: UInt64, now: UInt64) -> Bool {
        let (due, late) = state.lastSealClock.addingReportingOverflow(interval)
        return !late && now >= due
    }

    /// Removes the last `depth` blocks (`anvil_rollback`), through the same rewind a reorg uses. Their transactions
    /// are not returned to the pool (Anvil leaves its pool alone); pool transactions whose sender's nonce went back
    /// stay, waiting for the gap. Pending timestamp promises are cleared; the clock offset is kept. Blocks mined
    /// afterwards at the same heights get new hashes.
    ///
    /// - Returns: the removed blocks (their logs go to subscribers and filters again with `removed: true`).
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when `depth` exceeds the chain height (Anvil's text).
    public mutating func rollback(depth: UInt64) throws(LedgerError) -> [Block] {
        guard depth <= blockNumber else {
            throw .valueOutOfRange(
                "Rollback depth must not exceed current chain height: current height \(blockNumber), depth \(depth)")
        }
        guard depth > 0 else { return [] }
        let target = blockNumber - depth
        try hold(target...blockNumber)
        let removed = (target + 1...blockNumber).compactMap { state.blocks[$0] }
        rewindState(to: target)
        state.reorgCount += 1
        state.nextTimestamp = nil
        state.timestampFloor = nil
        return removed
    }

    /// Live snapshots by id: the head's number and hash when each was taken (`anvil_metadata`).
    public var snapshotHeads: [(id: UInt64, number: UInt64, hash: [UInt8])] {
        snapshots.map { ($0.id, $0.checkpoint.height, $0.headHash) }
    }

    /// A fresh chain from `genesis` and `config` (`anvil_reset`), keeping this ledger's mining mode and its snapshot
    /// numbering (so an id taken before the reset never names a snapshot taken after it).
    public func reset(config: ChainConfig, genesis: [GenesisAccount]) -> Ledger {
        var fresh = Ledger(config: config, genesis: genesis)
        fresh.miningMode = miningMode
        fresh.nextSnapshotID = nextSnapshotID
        return fresh
    }
}
