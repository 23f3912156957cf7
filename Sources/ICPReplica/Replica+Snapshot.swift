extension Replica {
    /// Everything a caller can change in the replica, captured whole: the ledger (blocks, balances, approvals,
    /// deduplication), the request statuses and the ledger clock's offset. O(1) to take: the ledger is a value
    /// type whose storage is shared until either copy changes.
    public struct Snapshot: Sendable {
        let state: State
    }

    /// Captures the replica's state (what `evm_snapshot` on a development network keeps of the ICP side).
    public func snapshot() -> Snapshot {
        Snapshot(state: state.withLock { $0 })
    }

    /// Puts a captured state back. Only for a replica without a store: blocks already written to disk are not
    /// rolled back, so the development network composes this only in memory.
    public func restore(_ snapshot: Snapshot) {
        state.withLock { $0 = snapshot.state }
    }
}
