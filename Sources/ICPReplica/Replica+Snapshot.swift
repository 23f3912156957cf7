import ICPLedger

extension Replica {
    /// Everything a caller can change in the replica, captured whole: the ledger (blocks, balances, approvals,
    /// deduplication), the request statuses and the ledger clock's offset. O(1) to take: the ledger is a value
    /// type whose storage is shared until either copy changes.
    public struct Snapshot: Sendable {
        let state: State
        let ledger: LedgerCanister
    }

    /// Captures the replica's state (what `evm_snapshot` on a development network keeps of the ICP side).
    public func snapshot() -> Snapshot {
        state.withLock { Snapshot(state: $0, ledger: ledger.ledger) }
    }

    /// Puts a captured state back. Only for a replica without a store (a programmer error otherwise: blocks already
    /// written to disk cannot be rolled back), so the development network composes this only in memory.
    public func restore(_ snapshot: Snapshot) {
        state.withLock {
            $0 = snapshot.state
            ledger.replace(with: snapshot.ledger)
        }
    }
}
