import EthereumTypes
import MerkleTrie

/// One change to the ledger's tables, with what undoing it needs (its inverse is also an entry).
///
/// The journal records these while a snapshot is live or an owner has a change open; the small, fixed-size rest of
/// the state (the schedule, the dirty set, the persistent state trie, totals) is captured whole in a ``Checkpoint``.
/// So a snapshot costs memory in proportion to what changed after it, and reverting undoes only that.
enum JournalEntry: Sendable {
    case account(Address, old: Account?, new: Account?)
    case historyAppended(Address, HistoryEntry)
    case historyRemoved(Address, HistoryEntry)
    case blockAppended(Block, Totals)
    case blockRemoved(Block, Totals)
    case poolSlot(TransactionPool.SlotChange)

    var inverse: JournalEntry {
        switch self {
        case .account(let address, let old, let new): return .account(address, old: new, new: old)
        case .historyAppended(let address, let entry): return .historyRemoved(address, entry)
        case .historyRemoved(let address, let entry): return .historyAppended(address, entry)
        case .blockAppended(let block, let totals): return .blockRemoved(block, totals)
        case .blockRemoved(let block, let totals): return .blockAppended(block, totals)
        case .poolSlot(let change):
            return .poolSlot(.init(sender: change.sender, nonce: change.nonce, old: change.new, new: change.old))
        }
    }
}

/// The part of the state a snapshot or an open change captures whole: O(1) to take (the trie is persistent and
/// shares nodes; the dirty set holds only addresses changed since the last block).
struct Checkpoint: Sendable {
    var stateTrie: PatriciaTrie
    var dirty: Set<Address>
    var burned: UInt256
    var supply: UInt256
    var schedule: BlockSchedule
    var parameters: ChainParameters
    var reorgCount: UInt64
    var poolArrivals: UInt64
    /// The head's number then (not restored: blocks are journaled); blocks from it on stay in memory.
    var height: UInt64
}

/// A snapshot (`evm_snapshot`): where the journal stood and the captured rest of the state.
struct Snapshot: Sendable {
    var id: UInt64
    var position: Int
    var checkpoint: Checkpoint
    /// The head's hash then (`anvil_metadata` lists it).
    var headHash: [UInt8]
}

/// A change an owner has opened with ``Ledger/beginChanges()``: roll back to it, or read and commit what happened
/// since.
public struct ChangeMark: Sendable {
    let position: Int
    let checkpoint: Checkpoint
    let snapshots: [Snapshot]
    let nextSnapshotID: UInt64
}

/// The ledger's journal: the table changes kept while a snapshot is live or an owner's change is open, the live
/// snapshots (`evm_snapshot`), and the bookkeeping that keeps only what they still need.
///
/// It only keeps positions and entries; the ledger applies them to its tables.
struct LedgerJournal: Sendable {
    private(set) var entries: [JournalEntry] = []
    private(set) var snapshots: [Snapshot] = []
    private(set) var nextSnapshotID: UInt64 = 1
    private(set) var changeOpen = false
    /// Journal entries a revert inside the open change cancelled (dropped when the change commits).
    private var collapsible: Range<Int>?

    /// A journal whose snapshot ids continue after `nextSnapshotID` (a reset chain: an id taken before it never names
    /// a snapshot taken after it).
    init(nextSnapshotID: UInt64 = 1) { self.nextSnapshotID = nextSnapshotID }

    /// Entries are kept while a snapshot is live or a change is open.
    var recording: Bool { changeOpen || !snapshots.isEmpty }

    var position: Int { entries.count }

    mutating func append(_ entry: JournalEntry) { if recording { entries.append(entry) } }

    /// The entries from `position` on.
    func entries(from position: Int) -> ArraySlice<JournalEntry> { entries[position...] }

    /// Undoing back to `position` (with an open change the inverses stay recorded, so the change can still be rolled
    /// back; otherwise the entries go): the entries to apply, in order.
    mutating func unwind(to position: Int) -> [JournalEntry] {
        let undo = entries[position...].reversed().map(\.inverse)
        if changeOpen { entries.append(contentsOf: undo) } else { entries.removeSubrange(position...) }
        return undo
    }

    /// The lowest block a journaled change may make the head again: the heads of live snapshots, and the parent of
    /// every block recorded.
    func lowestHead(below floor: UInt64) -> UInt64 {
        var floor = floor
        for snapshot in snapshots { floor = min(floor, snapshot.checkpoint.height) }
        for entry in entries {
            switch entry {
            case .blockAppended(let block, _), .blockRemoved(let block, _): floor = min(floor, block.number - 1)
            default: continue
            }
        }
        return floor
    }

    // MARK: Snapshots

    mutating func takeSnapshot(_ checkpoint: Checkpoint, headHash: [UInt8]) -> UInt64 {
        let id = nextSnapshotID
        nextSnapshotID += 1
        snapshots.append(Snapshot(id: id, position: entries.count, checkpoint: checkpoint, headHash: headHash))
        return id
    }

    func snapshot(_ id: UInt64) -> Snapshot? { snapshots.first { $0.id == id } }

    /// Reverts to snapshot `id`: the entries to apply (undoing everything since it) and the state to restore; it and
    /// every later snapshot are consumed. Nil for an unknown id.
    mutating func revert(to id: UInt64) -> (undo: [JournalEntry], checkpoint: Checkpoint)? {
        guard let index = snapshots.firstIndex(where: { $0.id == id }) else { return nil }
        let snapshot = snapshots[index]
        let undo = unwind(to: snapshot.position)
        if changeOpen && collapsible == nil { collapsible = snapshot.position..<entries.count }
        snapshots.removeSubrange(index...)
        return (undo, snapshot.checkpoint)
    }

    // MARK: An owner's change

    mutating func begin(_ checkpoint: Checkpoint) -> ChangeMark {
        precondition(!changeOpen, "one change at a time")
        changeOpen = true
        return ChangeMark(
            position: entries.count, checkpoint: checkpoint, snapshots: snapshots, nextSnapshotID: nextSnapshotID)
    }

    /// Rolls back to `mark`: the entries to apply, in order (the caller restores `mark.checkpoint`).
    mutating func rollBack(to mark: ChangeMark) -> [JournalEntry] {
        precondition(changeOpen, "no open change")
        let undo = entries[mark.position...].reversed().map(\.inverse)
        entries.removeSubrange(mark.position...)
        snapshots = mark.snapshots
        nextSnapshotID = mark.nextSnapshotID
        collapsible = nil
        changeOpen = false
        return undo
    }

    /// Closes the change (it was written): keeps only the entries live snapshots still need.
    mutating func commit() {
        precondition(changeOpen, "no open change")
        changeOpen = false
        if let range = collapsible {
            // A revert inside this change: the entries it undid and their inverses cancel out.
            entries.removeSubrange(range)
            for i in snapshots.indices where snapshots[i].position >= range.upperBound {
                snapshots[i].position -= range.count
            }
            collapsible = nil
        }
        let keepFrom = snapshots.first?.position ?? entries.count
        if keepFrom > 0 {
            entries.removeSubrange(..<keepFrom)
            for i in snapshots.indices { snapshots[i].position -= keepFrom }
        }
    }

    /// A copy that records nothing (a pending block's or a simulation's copy of the ledger).
    var detached: LedgerJournal { LedgerJournal(nextSnapshotID: nextSnapshotID) }
}
