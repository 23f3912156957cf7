import EthereumLedger
import Synchronization

/// A change of the chain the miner publishes: a sealed block, or blocks a reorg, revert or rollback removed.
enum ChainChange: Sendable {
    case sealed(Block)
    case removed([Block])
}

/// The miner's turn: every operation that seals or removes blocks (automine, `anvil_mine`, `evm_mine`, the timer's
/// block with other users' traffic, reorgs, reverts, rollbacks, `anvil_reset`) runs inside it, and the changes it
/// made are published to ``EventHub`` subscribers and ``NodeFilters`` before the turn ends. Blocks are published
/// only here, so `newHeads` subscribers see them in chain order.
///
/// Concurrent automine submissions take turns: those admitted while a block is being sealed share the next block
/// (group commit).
///
/// Lock order: the turn is the outermost lock. Inside it the chain's lock is taken (and released) by the operation,
/// then the filters' lock and the event hub's locks while publishing (never with the chain's lock held).
final class Miner: Sendable {
    /// What the miner knows across turns (the turn itself is the lock).
    struct State {
        /// Blocks published since the node started.
        var sealed: UInt64 = 0
    }

    /// What one turn changed, in order; the miner publishes it when the operation returns (or throws: blocks sealed
    /// before an error are published too).
    struct Turn {
        fileprivate(set) var changes: [ChainChange] = []

        mutating func sealed(_ blocks: [Block]) { changes += blocks.map(ChainChange.sealed) }

        mutating func removed(_ blocks: [Block]) {
            if !blocks.isEmpty { changes.append(.removed(blocks)) }
        }
    }

    private let state = Mutex(State())
    private let events: EventHub
    private let filters: NodeFilters

    init(events: EventHub, filters: NodeFilters) {
        self.events = events
        self.filters = filters
    }

    /// Runs `operation` in the miner's turn and publishes what it sealed and removed before the turn ends.
    func turn<T, E: Error>(_ operation: (inout Turn) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state) throws(E) -> T in
            var turn = Turn()
            defer { publish(turn.changes, &state) }
            return try operation(&turn)
        }
    }

    /// Blocks published since the node started.
    var sealedCount: UInt64 { state.withLock { $0.sealed } }

    private func publish(_ changes: [ChainChange], _ state: inout State) {
        for change in changes {
            switch change {
            case .sealed(let block):
                state.sealed += 1
                events.publish(.newBlock(block))
            case .removed(let blocks):
                events.publish(.removedBlocks(blocks))
            }
            filters.record(change)
        }
    }
}
