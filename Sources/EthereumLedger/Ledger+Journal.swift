import EthereumTypes
import MerkleTrie

/// An account's state after a block that changed it (nil: the account was removed).
public struct HistoryEntry: Sendable, Equatable {
    public var block: UInt64
    public var account: Account?

    public init(block: UInt64, account: Account?) {
        self.block = block
        self.account = account
    }
}

/// (burned, supply) after a block.
public struct Totals: Sendable, Equatable {
    public var burned: UInt256
    public var supply: UInt256

    public init(burned: UInt256, supply: UInt256) {
        self.burned = burned
        self.supply = supply
    }
}

/// One change to the chain's tables, with what undoing it needs (its inverse is also an entry).
///
/// The journal records these while a snapshot is live or an owner has a change open; the small, fixed-size rest
/// of the state (fees, clocks, the dirty set, the persistent state trie) is captured whole in a ``Checkpoint``.
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
    var timeOffset: Int64
    var nextTimestamp: UInt64?
    var nextBaseFee: UInt256?
    var timestampFloor: UInt64?
    var blockTimestampInterval: UInt64?
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

/// A change an owner has opened with ``Ledger/beginChanges()``: roll back to it, or read and commit what
/// happened since.
public struct ChangeMark: Sendable {
    let position: Int
    let checkpoint: Checkpoint
    let snapshots: [Snapshot]
    let nextSnapshotID: UInt64
}

extension Ledger {
    var recording: Bool { changeOpen || !snapshots.isEmpty }

    var checkpoint: Checkpoint {
        Checkpoint(
            stateTrie: state.stateTrie, dirty: state.dirty, burned: state.burned,
            supply: state.supply, timeOffset: state.timeOffset, nextTimestamp: state.nextTimestamp,
            nextBaseFee: state.nextBaseFee, timestampFloor: state.timestampFloor,
            blockTimestampInterval: state.blockTimestampInterval, parameters: parameters, reorgCount: state.reorgCount,
            poolArrivals: state.pool.arrivals, height: state.height)
    }

    mutating func restore(_ c: Checkpoint) {
        state.stateTrie = c.stateTrie
        state.dirty = c.dirty
        state.burned = c.burned
        state.supply = c.supply
        state.timeOffset = c.timeOffset
        state.nextTimestamp = c.nextTimestamp
        state.nextBaseFee = c.nextBaseFee
        state.timestampFloor = c.timestampFloor
        state.blockTimestampInterval = c.blockTimestampInterval
        config.parameters = c.parameters
        state.reorgCount = c.reorgCount
        state.pool.arrivals = c.poolArrivals
    }

    // MARK: Primitive changes: every change to the journaled tables goes through these

    /// Applies `entry` to the tables (forward).
    mutating func applyEntry(_ entry: JournalEntry) {
        switch entry {
        case .account(let address, _, let new):
            state.accounts[address] = new
        case .historyAppended(let address, let item):
            state.history[address, default: []].append(item)
        case .historyRemoved(let address, _):
            state.history[address]?.removeLast()
            if state.history[address]?.isEmpty == true { state.history[address] = nil }
        case .blockAppended(let block, let totals):
            state.blocks[block.number] = block
            state.height = block.number
            state.totals.append(totals)
            state.blockNumbers[block.hash] = block.number
            for (i, tx) in block.transactions.enumerated() {
                state.transactionIndex[tx.hash] = TransactionLocation(blockNumber: block.number, index: i)
            }
        case .blockRemoved(let block, _):
            state.blocks[block.number] = nil
            state.height = block.number - 1
            state.totals.removeLast()
            state.blockNumbers[block.hash] = nil
            for tx in block.transactions { state.transactionIndex[tx.hash] = nil }
        case .poolSlot(let change):
            state.pool.setSlot(change.sender, change.nonce, change.new)
            state.pool.log.removeAll(keepingCapacity: true)
        }
    }

    mutating func record(_ entry: JournalEntry) {
        applyEntry(entry)
        if recording { journal.append(entry) }
    }

    /// Moves the pool's slot changes into the journal.
    mutating func recordPoolChanges() {
        if recording { for change in state.pool.log { journal.append(.poolSlot(change)) } }
        state.pool.log.removeAll(keepingCapacity: true)
    }

    mutating func writeAccount(_ address: Address, _ account: Account?) {
        record(.account(address, old: state.accounts[address], new: account))
    }

    mutating func appendHistory(_ address: Address, _ entry: HistoryEntry) { record(.historyAppended(address, entry)) }

    mutating func removeLastHistory(_ address: Address) {
        guard let last = state.history[address]?.last else { return }
        record(.historyRemoved(address, last))
    }

    mutating func appendBlock(_ block: Block) {
        record(.blockAppended(block, Totals(burned: state.burned, supply: state.supply)))
    }

    mutating func removeLastBlock() {
        record(.blockRemoved(head, state.totals[state.totals.count - 1]))
    }

    /// The totals after block `number` (in the window).
    func totals(at number: UInt64) -> Totals { state.totals[Int(number - state.indexedFrom)] }

    @discardableResult
    mutating func poolInsert(_ tx: LedgerTransaction) -> [UInt8]? {
        defer { recordPoolChanges() }
        return state.pool.insert(tx)
    }

    @discardableResult
    mutating func poolRemove(_ hash: [UInt8]) -> LedgerTransaction? {
        defer { recordPoolChanges() }
        return state.pool.remove(hash)
    }

    mutating func poolPrune(_ sender: Address, accountNonce: UInt64) {
        state.pool.prune(sender, accountNonce: accountNonce)
        recordPoolChanges()
    }

    /// Undoes the journal back to `position`: with an open change the inverses are recorded (so the change can
    /// still be rolled back), otherwise the entries are dropped.
    mutating func unwind(to position: Int) {
        if changeOpen {
            for entry in journal[position...].reversed() {
                let inverse = entry.inverse
                applyEntry(inverse)
                journal.append(inverse)
            }
        } else {
            for entry in journal[position...].reversed() { applyEntry(entry.inverse) }
            journal.removeSubrange(position...)
        }
    }

    // MARK: Owners: open a change, read it, commit it or roll it back

    /// Opens a change: everything the ledger does until ``commitChanges(_:)`` or ``rollBack(to:)`` is journaled,
    /// so an owner can write it as one batch, or undo it when the write fails.
    public mutating func beginChanges() -> ChangeMark {
        precondition(!changeOpen, "one change at a time")
        changeOpen = true
        return ChangeMark(
            position: journal.count, checkpoint: checkpoint, snapshots: snapshots, nextSnapshotID: nextSnapshotID)
    }

    /// Undoes everything since `mark`: the ledger is as it was when the change was opened.
    public mutating func rollBack(to mark: ChangeMark) {
        precondition(changeOpen, "no open change")
        for entry in journal[mark.position...].reversed() { applyEntry(entry.inverse) }
        journal.removeSubrange(mark.position...)
        restore(mark.checkpoint)
        snapshots = mark.snapshots
        nextSnapshotID = mark.nextSnapshotID
        collapsible = nil
        changeOpen = false
    }

    /// Closes the change (it was written): keeps only the journal live snapshots still need.
    public mutating func commitChanges(_ mark: ChangeMark) {
        precondition(changeOpen, "no open change")
        changeOpen = false
        if let range = collapsible {
            // A revert inside this change: the entries it undid and their inverses cancel out.
            journal.removeSubrange(range)
            for i in snapshots.indices where snapshots[i].position >= range.upperBound {
                snapshots[i].position -= range.count
            }
            collapsible = nil
        }
        let keepFrom = snapshots.first?.position ?? journal.count
        if keepFrom > 0 {
            journal.removeSubrange(..<keepFrom)
            for i in snapshots.indices { snapshots[i].position -= keepFrom }
        }
    }

    /// Live snapshots and the journal entries kept for them (memory held for `evm_revert`).
    public var retainedChanges: (snapshots: Int, journalEntries: Int) { (snapshots.count, journal.count) }
}
