/// What `evm_snapshot` and `evm_revert` (and their `anvil_` names) act on: the node's chain alone (``DevControls``),
/// or a development network's chains together (`DevNetwork`'s network snapshots), composed by Swift calls.
public protocol SnapshotControls: Sendable {
    /// evm_snapshot: a new snapshot's id.
    func snapshot() throws -> UInt64
    /// evm_revert: back to snapshot `id`, which is consumed with every later one; false when there is no such
    /// snapshot.
    func revert(to id: UInt64) throws -> Bool
}

extension DevControls: SnapshotControls {}
