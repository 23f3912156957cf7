import EthereumTypes

/// What an operation changed, as values to write (nil: delete): computed by the ledger without I/O, written
/// by its owner as one atomic batch.
public struct LedgerChanges: Sendable {
    /// An account's state recorded after a block (nil inside: the account was removed by that block).
    public struct HistoryRecord: Sendable, Equatable {
        public var address: Address
        public var block: UInt64
        /// `.some(account)` to write (the inner nil: removed by that block), nil to delete the record.
        public var entry: Account??
    }

    /// The head record: what the chain's totals are after the change.
    public struct Head: Sendable, Equatable {
        public var number: UInt64
        public var burned: UInt256
        public var supply: UInt256
        public var chainID: UInt64
        public var genesisHash: [UInt8]

        public init(number: UInt64, burned: UInt256, supply: UInt256, chainID: UInt64, genesisHash: [UInt8]) {
            self.number = number
            self.burned = burned
            self.supply = supply
            self.chainID = chainID
            self.genesisHash = genesisHash
        }
    }

    public var blocks: [(number: UInt64, block: Block?)] = []
    /// Blocks taken off the chain (a revert or reorg): their hash and transaction index records go.
    public var removedBlocks: [Block] = []
    /// The totals after each block written.
    public var totals: [UInt64: Totals] = [:]
    public var accounts: [(address: Address, account: Account?)] = []
    public var history: [HistoryRecord] = []
    public var pool: [(hash: [UInt8], transaction: LedgerTransaction?)] = []
    /// The run-time chain parameters, when they changed (developer methods, a revert).
    public var parameters: ChainParameters?
    public var head: Head

    /// True when nothing but the head record would be written.
    public var isEmpty: Bool {
        blocks.isEmpty && accounts.isEmpty && history.isEmpty && pool.isEmpty && parameters == nil
    }
}

/// A chain as its owner read it back from a store, for ``Ledger/init(config:restoring:)``.
public struct StoredChain: Sendable {
    /// The most recent blocks in order, ending with the head: all of them, or the last few when the owner
    /// archives the rest (``Ledger/archive``); the ledger's in-memory window starts at the first.
    public var blocks: [Block]
    /// The totals after each of `blocks` (empty: the head's totals for all, as stores of version 2 kept them).
    public var totals: [Totals]
    public var genesisHash: [UInt8]
    public var accounts: [Address: Account]
    /// Per address, the account after each block after `blocks.first` that changed it, in block order (nil:
    /// removed by that block); the ledger's owner archives the older entries. The ledger adopts these arrays.
    public var history: [Address: [HistoryEntry]]
    /// The state the head block sealed, for the addresses whose account (`accounts`) differs from it: changes made
    /// after the last block by dev methods (nil: the account did not exist at the head).
    public var sealed: [Address: Account?]
    public var pool: [LedgerTransaction]
    public var burned: UInt256
    public var supply: UInt256
    /// The run-time chain parameters as last written (nil: never changed, the configuration's apply).
    public var parameters: ChainParameters?

    public init(
        blocks: [Block], totals: [Totals], genesisHash: [UInt8], accounts: [Address: Account],
        history: [Address: [HistoryEntry]], sealed: [Address: Account?], pool: [LedgerTransaction], burned: UInt256,
        supply: UInt256
    ) {
        self.blocks = blocks
        self.totals = totals
        self.genesisHash = genesisHash
        self.accounts = accounts
        self.history = history
        self.sealed = sealed
        self.pool = pool
        self.burned = burned
        self.supply = supply
    }
}

extension LedgerChanges.Head {
    /// The head record of `ledger` now.
    public init(of ledger: Ledger) {
        self.init(
            number: ledger.blockNumber, burned: ledger.world.burned, supply: ledger.world.supply,
            chainID: ledger.configuredChainID, genesisHash: ledger.chain.genesisHash)
    }
}

extension LedgerChanges {
    /// Everything `ledger` holds, as changes (a new chain's first write).
    public init(everythingIn ledger: Ledger) {
        self.init(head: Head(of: ledger))
        for (number, block, totals) in ledger.chain.heldBlocks {
            blocks.append((number, block))
            self.totals[number] = totals
        }
        accounts = ledger.world.addresses.sorted().map { ($0, ledger.world.existing($0)) }
        for (address, entries) in ledger.chain.heldHistory {
            for entry in entries {
                history.append(.init(address: address, block: entry.block, entry: .some(entry.account)))
            }
        }
        pool = ledger.pool.all.map { ($0.hash, $0) }
    }

    /// What `ledger` changed since `mark` (``Ledger/beginChanges()``), with the values now (in key order, so the batch
    /// is the same every run).
    public init(_ ledger: Ledger, since mark: ChangeMark) {
        var blockNumbers = Set<UInt64>()
        var addresses = Set<Address>()
        var historyKeys = Set<HistoryKey>()
        var hashes = Set<[UInt8]>()
        var removed: [Block] = []
        for entry in ledger.journal.entries(from: mark.position) {
            switch entry {
            case .account(let address, _, _): addresses.insert(address)
            case .historyAppended(let address, let item), .historyRemoved(let address, let item):
                historyKeys.insert(HistoryKey(address: address, block: item.block))
            case .blockAppended(let block, _): blockNumbers.insert(block.number)
            case .blockRemoved(let block, _):
                blockNumbers.insert(block.number)
                removed.append(block)
            case .poolSlot(let change):
                if let old = change.old { hashes.insert(old.transaction.hash) }
                if let new = change.new { hashes.insert(new.transaction.hash) }
            }
        }
        self.init(head: Head(of: ledger))
        blocks = blockNumbers.sorted().map { ($0, ledger.block(number: $0)) }
        removedBlocks = removed
        for (number, block) in blocks where block != nil { totals[number] = ledger.chain.totals(at: number) }
        accounts = addresses.sorted().map { ($0, ledger.world.existing($0)) }
        history = historyKeys.sorted().map { key in
            let entry = ledger.chain.historyEntry(key.address, block: key.block)
            return .init(address: key.address, block: key.block, entry: entry.map { $0.account })
        }
        pool = hashes.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, ledger.pool.transaction($0)) }
        if mark.checkpoint.parameters != ledger.parameters { parameters = ledger.parameters }
    }
}

struct HistoryKey: Hashable, Comparable {
    var address: Address
    var block: UInt64

    static func < (a: HistoryKey, b: HistoryKey) -> Bool {
        a.address != b.address ? a.address < b.address : a.block < b.block
    }
}
