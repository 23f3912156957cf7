import EthereumTypes

/// Where an included transaction lives.
public struct TransactionLocation: Sendable, Equatable {
    public var blockNumber: UInt64
    public var index: Int

    public init(blockNumber: UInt64, index: Int) {
        self.blockNumber = blockNumber
        self.index = index
    }
}

/// Where a ledger finds what it no longer holds in memory: its owner's store, read through a bounded cache. The
/// chain asks only about blocks below its in-memory window (``ChainHistory/indexedFrom``); what cannot be read
/// answers nil.
public protocol BlockArchive: Sendable {
    /// The sealed block `number`.
    func block(number: UInt64) -> Block?
    /// The number of the block with `hash`.
    func blockNumber(hash: [UInt8]) -> UInt64?
    /// Where the included transaction `hash` is.
    func transactionLocation(hash: [UInt8]) -> TransactionLocation?
    /// The last history entry of `address` at or before block `number` (nil: none, the account did not exist).
    func historyEntry(of address: Address, atOrBefore number: UInt64) -> HistoryEntry?
    /// The totals after block `number` and the addresses whose state that block changed (their history entries).
    func blockRecord(number: UInt64) -> (totals: Totals, changed: [Address])?
}

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

/// The chain and its history: the sealed blocks, the block-hash and transaction-hash indexes, the totals after each
/// block, and every account's state after each block that changed it. The recent part (the in-memory window,
/// ``indexedFrom`` to the head) is held here; older parts are read from the owner's ``BlockArchive``.
///
/// A value with a read interface (blocks by number or hash, transaction locations, receipts, accounts at a past
/// block). It changes only through the ledger's journal (``Ledger``'s journaled primitives call the `append`/`remove`
/// methods here), so snapshots, reverts and an owner's batch see every change.
public struct ChainHistory: Sendable {
    /// Blocks held in memory: all of them without an archive; with one, the head, the recent ones and every block a
    /// live snapshot may need. Always exactly ``indexedFrom``…``height``.
    private(set) var blocks: [UInt64: Block] = [:]
    /// The first block of the in-memory window: blocks from this one on are held with their hash and transaction index
    /// entries and totals; older ones are read from the archive. 0 without an archive (memory then grows with the
    /// chain).
    public private(set) var indexedFrom: UInt64 = 0
    /// History entries from this block on are held in memory (with an archive: the block after ``indexedFrom``, so
    /// even a chain at its genesis block does not hold a million genesis accounts twice).
    private(set) var historyFrom: UInt64 = 0
    /// The head's number.
    public private(set) var height: UInt64 = 0
    public private(set) var genesisHash: [UInt8] = []
    private(set) var blockNumbers: [[UInt8]: UInt64] = [:]
    private(set) var transactionIndex: [[UInt8]: TransactionLocation] = [:]
    /// (burned, supply) after each block from ``indexedFrom`` on, for reorgs.
    private(set) var totals: [Totals] = []
    /// Per-address state after each block from ``historyFrom`` on that changed it, for queries at past blocks and
    /// reorgs (older entries are in the archive).
    private(set) var history: [Address: [HistoryEntry]] = [:]
    /// Distinguishes replacement blocks after a reorg (captured by snapshots).
    var reorgCount: UInt64 = 0
    /// Where blocks released from memory are read back (set by an owner that writes them).
    public var archive: (any BlockArchive)?

    /// A chain of the genesis block alone, with the genesis accounts' first history entries.
    init(genesis: Block, accounts: [Address: Account], totals: Totals) {
        blocks = [0: genesis]
        genesisHash = genesis.hash
        blockNumbers[genesis.hash] = 0
        self.totals = [totals]
        for (address, account) in accounts { history[address] = [HistoryEntry(block: 0, account: account)] }
    }

    /// A chain read back from a store: `blocks` (the window, ending with the head) must chain; `history` is adopted
    /// (entries outside the window dropped).
    init(restoring blocks: [Block], totals: [Totals], genesisHash: [UInt8], history: [Address: [HistoryEntry]])
        throws(LedgerError)
    {
        guard let first = blocks.first, let head = blocks.last else {
            throw .corruptDataDirectory("data directory is inconsistent: it holds no blocks")
        }
        for (i, block) in blocks.enumerated() where i > 0 {
            let parent = blocks[i - 1]
            guard block.number == parent.number + 1, block.header.parentHash == parent.hash else {
                throw .corruptDataDirectory(
                    "data directory is inconsistent: block \(block.number) does not chain to its parent")
            }
        }
        guard first.number > 0 || first.hash == genesisHash else {
            throw .corruptDataDirectory("data directory is inconsistent: expected blocks 0…\(head.number)")
        }
        indexedFrom = first.number
        historyFrom = first.number + 1
        for block in blocks {
            self.blocks[block.number] = block
            blockNumbers[block.hash] = block.number
            for (i, tx) in block.transactions.enumerated() {
                transactionIndex[tx.hash] = TransactionLocation(blockNumber: block.number, index: i)
            }
        }
        height = head.number
        self.genesisHash = genesisHash
        self.history = history
        for (address, entries) in history
        where (entries.last?.block ?? 0) > head.number || (entries.first?.block ?? 0) <= first.number {
            let kept = entries.filter { $0.block <= head.number && $0.block > first.number }
            self.history[address] = kept.isEmpty ? nil : kept
        }
        self.totals = totals
    }

    // MARK: Reads

    public var head: Block {
        guard let head = blocks[height] else { preconditionFailure("the head block is always held") }
        return head
    }

    public func block(number: UInt64) -> Block? {
        guard number <= height else { return nil }
        return blocks[number] ?? archive?.block(number: number)
    }

    public func block(hash: [UInt8]) -> Block? {
        if let number = blockNumbers[hash] { return block(number: number) }
        guard indexedFrom > 0, let number = archive?.blockNumber(hash: hash), number < indexedFrom,
            let block = block(number: number), block.hash == hash
        else { return nil }
        return block
    }

    /// Where the included transaction `hash` is: in the window, or in the archive below it.
    public func location(ofTransaction hash: [UInt8]) -> TransactionLocation? {
        if let location = transactionIndex[hash] { return location }
        guard indexedFrom > 0, let location = archive?.transactionLocation(hash: hash),
            location.blockNumber < indexedFrom
        else { return nil }
        return location
    }

    /// An included transaction's receipt, block and location (checked against the block it names).
    public func included(_ hash: [UInt8]) -> (receipt: Receipt, block: Block, location: TransactionLocation)? {
        guard let loc = location(ofTransaction: hash), let block = block(number: loc.blockNumber),
            loc.index < block.receipts.count, block.transactions[loc.index].hash == hash
        else { return nil }
        return (block.receipts[loc.index], block, loc)
    }

    /// The account as block `number` left it (nil: it did not exist): from the history held in memory, or from the
    /// archive when the entry is older than the window.
    public func account(_ address: Address, atBlock number: UInt64) -> Account? {
        if let entries = history[address] {
            var low = 0
            var high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if entries[mid].block <= number { low = mid + 1 } else { high = mid }
            }
            if low > 0 { return entries[low - 1].account }
        }
        guard historyFrom > 0, let entry = archive?.historyEntry(of: address, atOrBefore: number),
            entry.block < historyFrom
        else { return nil }
        return entry.account
    }

    /// Every address a block after `number` changed: from the window's history and, below it, the archive's per-block
    /// records (nil when one cannot be read).
    func addressesChanged(after number: UInt64) -> Set<Address>? {
        var changed = Set<Address>()
        for (address, entries) in history where (entries.last?.block ?? 0) > number { changed.insert(address) }
        guard number + 1 < historyFrom else { return changed }
        for block in (number + 1)..<historyFrom {
            guard let record = archive?.blockRecord(number: block) else { return nil }
            changed.formUnion(record.changed)
        }
        return changed
    }

    /// The totals after block `number` (in the window).
    func totals(at number: UInt64) -> Totals { totals[Int(number - indexedFrom)] }

    /// The history entry `address` got from block `number`, if held.
    func historyEntry(_ address: Address, block number: UInt64) -> HistoryEntry? {
        history[address]?.last { $0.block == number }
    }

    /// The last history entry of `address` held in memory.
    func lastHistoryEntry(_ address: Address) -> HistoryEntry? { history[address]?.last }

    /// Blocks held in memory (the rest are in the archive).
    public var blocksInMemory: Int { blocks.count }

    /// What the chain holds in memory per item (the rest is in the archive): blocks, hash and transaction index
    /// entries, per-block totals and history entries.
    public var heldInMemory: (blocks: Int, blockHashes: Int, transactions: Int, totals: Int, historyEntries: Int) {
        (
            blocks.count, blockNumbers.count, transactionIndex.count, totals.count,
            history.values.reduce(0) { $0 + $1.count }
        )
    }

    /// The held blocks in number order, with their totals (a new chain's first write).
    var heldBlocks: [(number: UInt64, block: Block, totals: Totals)] {
        blocks.keys.sorted().map { ($0, blocks[$0]!, totals(at: $0)) }
    }

    /// The held history, address by address in order.
    var heldHistory: [(address: Address, entries: [HistoryEntry])] {
        history.keys.sorted().map { ($0, history[$0] ?? []) }
    }

    // MARK: Changes (only through the ledger's journal)

    mutating func append(_ block: Block, totals: Totals) {
        blocks[block.number] = block
        height = block.number
        self.totals.append(totals)
        blockNumbers[block.hash] = block.number
        for (i, tx) in block.transactions.enumerated() {
            transactionIndex[tx.hash] = TransactionLocation(blockNumber: block.number, index: i)
        }
    }

    mutating func removeLast(_ block: Block) {
        blocks[block.number] = nil
        height = block.number - 1
        totals.removeLast()
        blockNumbers[block.hash] = nil
        for tx in block.transactions { transactionIndex[tx.hash] = nil }
    }

    mutating func appendHistory(_ address: Address, _ entry: HistoryEntry) {
        history[address, default: []].append(entry)
    }

    mutating func removeLastHistory(_ address: Address) {
        history[address]?.removeLast()
        if history[address]?.isEmpty == true { history[address] = nil }
    }

    // MARK: The in-memory window

    /// Releases what the archive holds below `floor`: the blocks, their hash and transaction index entries, their
    /// totals, and the history entries up to `floor` (a reorg or revert only undoes entries after its target).
    mutating func release(below floor: UInt64) {
        let floor = max(floor, indexedFrom)
        for number in indexedFrom..<floor {
            guard let block = blocks.removeValue(forKey: number) else { continue }
            blockNumbers[block.hash] = nil
            for tx in block.transactions { transactionIndex[tx.hash] = nil }
        }
        totals.removeFirst(Int(floor - indexedFrom))
        indexedFrom = floor
        guard floor + 1 > historyFrom else { return }
        // Addresses with entries after the floor keep those; the rest are dropped (the archive answers for them).
        history = history.compactMapValues { entries in
            guard let first = entries.first, first.block <= floor else { return entries }
            let kept = entries.drop { $0.block <= floor }
            return kept.isEmpty ? nil : Array(kept)
        }
        historyFrom = floor + 1
    }

    /// True when blocks beyond `keep` recent ones (and a quarter-window step) are held, or history is due to go.
    func releaseDue(keepingRecent keep: UInt64) -> Bool {
        blocks.count > Int(keep + max(1, keep / 4)) + 1 || historyFrom <= indexedFrom
    }

    /// Brings blocks `range` back into the in-memory window (a reorg below it): the blocks, their indexes and totals,
    /// and the history entries after its first block; throws when one cannot be read.
    mutating func hold(_ range: ClosedRange<UInt64>) throws(LedgerError) {
        let from = range.lowerBound
        if from < indexedFrom {
            var restoredTotals: [Totals] = []
            for number in from..<indexedFrom {
                guard let block = archive?.block(number: number), let record = archive?.blockRecord(number: number)
                else { throw .storageFailure("cannot read block \(number)") }
                blocks[number] = block
                blockNumbers[block.hash] = number
                for (i, tx) in block.transactions.enumerated() {
                    transactionIndex[tx.hash] = TransactionLocation(blockNumber: number, index: i)
                }
                restoredTotals.append(record.totals)
            }
            totals.insert(contentsOf: restoredTotals, at: 0)
            indexedFrom = from
        }
        guard from + 1 < historyFrom else { return }
        var restored: [Address: [HistoryEntry]] = [:]
        for number in (from + 1)..<historyFrom {
            guard let record = archive?.blockRecord(number: number) else {
                throw .storageFailure("cannot read block \(number)")
            }
            for address in record.changed {
                guard let entry = archive?.historyEntry(of: address, atOrBefore: number), entry.block == number else {
                    throw .storageFailure("cannot read the history of \(address) at block \(number)")
                }
                restored[address, default: []].append(entry)
            }
        }
        for (address, entries) in restored { history[address] = entries + (history[address] ?? []) }
        historyFrom = from + 1
    }

    /// The addresses with a history entry after block `target` (what a rewind to it must restore).
    func addressesWithHistory(after target: UInt64) -> [Address] {
        history.compactMap { (address, entries) in (entries.last?.block ?? 0) > target ? address : nil }
    }
}
