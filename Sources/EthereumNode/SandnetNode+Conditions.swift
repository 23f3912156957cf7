import EthereumLedger
import EthereumTypes
import SeededRandom

/// Chain-level conditions a wallet meets on a public network (README, "Chain conditions"), applied to raw
/// transactions (`eth_sendRawTransaction`) and timer blocks; each decision is seeded, so a failing test replays.
public struct ChainConditions: Sendable, Equatable {
    public var seed: UInt64 = 0
    /// A raw transaction is checked and its hash returned at once, but it reaches the pool only after this many
    /// more blocks (a slow propagation: meanwhile nodes answer `null` for it). 0: none.
    public var delayBlocks: UInt64 = 0
    /// Share of raw transactions accepted (hash returned) and then dropped, never mined; decided per transaction
    /// hash, so the same transaction always gets the same fate for a seed. 0: none.
    public var dropProbability: Double = 0
    /// Every this many timer blocks, a reorg of ``reorgDepth`` blocks (0: none), with the removed transactions put
    /// back in the pool when ``reorgRequeue``.
    public var reorgEvery: UInt64 = 0
    public var reorgDepth: UInt64 = 1
    public var reorgRequeue = true

    public init() {}

    /// Held transactions at most (a delayed one over the limit is refused with a clear error).
    public static let heldLimit = 4_096

    /// Whether the transaction with `hash` is dropped under these conditions.
    public func drops(_ hash: [UInt8]) -> Bool {
        guard dropProbability > 0 else { return false }
        var key: UInt64 = 0
        for byte in hash.prefix(8) { key = key << 8 | UInt64(byte) }
        var random = SplitMix64(seed: seed, stream: key)
        return random.chance(dropProbability)
    }
}

/// Conditions and what they hold: delayed transactions by the block number that releases them.
struct ConditionState: Sendable {
    var conditions = ChainConditions()
    var held: [(release: UInt64, tx: LedgerTransaction)] = []
    var timerBlocks: UInt64 = 0
}

extension SandnetNode {
    public var chainConditions: ChainConditions { conditionState.withLock { $0.conditions } }

    /// `sandnet_setChainConditions`: from now on (held transactions stay held until their block).
    public func setChainConditions(_ conditions: ChainConditions) {
        conditionState.withLock { $0.conditions = conditions }
    }

    /// Transactions held back by ``ChainConditions/delayBlocks``, in arrival order.
    public var heldTransactions: [[UInt8]] { conditionState.withLock { $0.held.map(\.tx.hash) } }

    /// Applies the conditions to a raw transaction after it passed the pool's checks; returns true when the
    /// transaction was taken out of the normal path (dropped or held).
    func divert(_ tx: LedgerTransaction) throws -> Bool {
        let conditions = chainConditions
        guard conditions.dropProbability > 0 || conditions.delayBlocks > 0 else { return false }
        let drop = conditions.drops(tx.hash)
        let now = clock()
        // Checked exactly as an admission (geth's errors come back now), then taken out of the pool again.
        let head = try withLedger { chain -> UInt64 in
            _ = try chain.submit(tx, now: now, mineNow: false)
            _ = chain.dropTransaction(tx.hash)
            return chain.blockNumber
        }
        if drop { return true }
        try conditionState.withLock { state in
            // As a full pool would answer (geth's `txpool is full`).
            guard state.held.count < ChainConditions.heldLimit else { throw LedgerError.poolFull }
            state.held.append((head + conditions.delayBlocks, tx))
        }
        return true
    }

    /// Submits the held transactions whose block has come (refusals are left out: the chain moved on).
    func releaseHeld() {
        let head = blockNumber
        let due = conditionState.withLock { state -> [LedgerTransaction] in
            let due = state.held.filter { $0.release <= head }.map(\.tx)
            state.held.removeAll { $0.release <= head }
            return due
        }
        for tx in due { _ = failures.reporting(.heldTransaction) { try submit(tx) } }
    }

    /// After a timer block: a scheduled reorg when one is due.
    func afterTimerBlock() {
        let (conditions, count) = conditionState.withLock { state -> (ChainConditions, UInt64) in
            state.timerBlocks += 1
            return (state.conditions, state.timerBlocks)
        }
        if conditions.reorgEvery > 0, count % conditions.reorgEvery == 0, conditions.reorgDepth <= blockNumber {
            failures.reporting(.scheduledReorg) {
                try reorg(depth: conditions.reorgDepth, requeue: conditions.reorgRequeue)
            }
        }
        releaseHeld()
    }
}
