import EthereumLedger
import Synchronization

/// The conditions gate: chain conditions (``ChainConditions``) and the transactions they hold back. A small state
/// machine: it decides (drop, hold, release, reorg) and returns what should happen; the node does it (submits the
/// released transactions, runs the reorg).
///
/// Lock: its one lock is taken alone (the node reads the head before asking, and acts after the lock is released).
public final class ConditionsGate: Sendable {
    struct State: Sendable {
        var conditions = ChainConditions()
        /// Delayed transactions by the block number that releases them, in arrival order.
        var held: [(release: UInt64, tx: LedgerTransaction)] = []
        var timerBlocks: UInt64 = 0
    }

    /// What the gate decides for a raw transaction that passed the pool's checks.
    enum Decision: Equatable {
        /// The normal path.
        case admit
        /// Accepted (hash returned) and never mined.
        case drop
        /// Accepted and held until this many blocks after the head.
        case hold(blocks: UInt64)
    }

    /// A reorg a timer block made due.
    struct Reorg: Equatable {
        var depth: UInt64
        var requeue: Bool
    }

    private let state = Mutex(State())

    init() {}

    public var conditions: ChainConditions { state.withLock { $0.conditions } }

    /// `sandnet_setChainConditions`: from now on (held transactions stay held until their block).
    public func set(_ conditions: ChainConditions) { state.withLock { $0.conditions = conditions } }

    /// Transactions held back by ``ChainConditions/delayBlocks``, in arrival order.
    public var heldTransactions: [[UInt8]] { state.withLock { $0.held.map(\.tx.hash) } }

    /// What to do with the transaction `hash` under the conditions now.
    func decide(_ hash: [UInt8]) -> Decision {
        let conditions = self.conditions
        guard conditions.dropProbability > 0 || conditions.delayBlocks > 0 else { return .admit }
        if conditions.drops(hash) { return .drop }
        return .hold(blocks: conditions.delayBlocks)
    }

    /// Holds `tx` until block `release`.
    ///
    /// - Throws: ``LedgerError/poolFull`` over ``ChainConditions/heldLimit`` held transactions (geth's
    ///   `txpool is full`).
    func hold(_ tx: LedgerTransaction, until release: UInt64) throws(LedgerError) {
        try state.withLock { (state) throws(LedgerError) in
            guard state.held.count < ChainConditions.heldLimit else { throw .poolFull }
            state.held.append((release, tx))
        }
    }

    /// Takes out the held transactions whose block (`head` or earlier) has come.
    func takeDue(head: UInt64) -> [LedgerTransaction] {
        state.withLock { state in
            let due = state.held.filter { $0.release <= head }.map(\.tx)
            state.held.removeAll { $0.release <= head }
            return due
        }
    }

    /// Counts a timer block; returns the reorg it makes due, if any, for a chain at `head`.
    func timerBlockSealed(head: UInt64) -> Reorg? {
        state.withLock { state in
            state.timerBlocks += 1
            let c = state.conditions
            guard c.reorgEvery > 0, state.timerBlocks % c.reorgEvery == 0, c.reorgDepth <= head else { return nil }
            return Reorg(depth: c.reorgDepth, requeue: c.reorgRequeue)
        }
    }

    /// anvil_reset: held transactions are dropped.
    func dropHeld() { state.withLock { $0.held.removeAll() } }
}
