import EthereumTypes
import KeccakHashing
import MerkleTrie

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

extension Ledger {
    /// The head record now.
    public var headRecord: LedgerChanges.Head {
        LedgerChanges.Head(
            number: blockNumber, burned: state.burned, supply: state.supply, chainID: configuredChainID,
            genesisHash: state.genesisHash)
    }

    /// Everything the ledger holds, as changes (a new chain's first write).
    public var allChanges: LedgerChanges {
        var changes = LedgerChanges(head: headRecord)
        changes.blocks = state.blocks.keys.sorted().map { ($0, state.blocks[$0]) }
        for (number, _) in changes.blocks { changes.totals[number] = totals(at: number) }
        changes.accounts = state.accounts.keys.sorted().map { ($0, state.accounts[$0]) }
        for address in state.history.keys.sorted() {
            for entry in state.history[address] ?? [] {
                changes.history.append(.init(address: address, block: entry.block, entry: .some(entry.account)))
            }
        }
        changes.pool = state.pool.all.map { ($0.hash, $0) }
        return changes
    }

    /// What changed since `mark`, with the values now (in key order, so the batch is the same every run).
    public func changes(since mark: ChangeMark) -> LedgerChanges {
        var blocks = Set<UInt64>()
        var accounts = Set<Address>()
        var history = Set<HistoryKey>()
        var pool = Set<[UInt8]>()
        var removed: [Block] = []
        for entry in journal[mark.position...] {
            switch entry {
            case .account(let address, _, _): accounts.insert(address)
            case .historyAppended(let address, let item), .historyRemoved(let address, let item):
                history.insert(HistoryKey(address: address, block: item.block))
            case .blockAppended(let block, _): blocks.insert(block.number)
            case .blockRemoved(let block, _):
                blocks.insert(block.number)
                removed.append(block)
            case .poolSlot(let change):
                if let old = change.old { pool.insert(old.transaction.hash) }
                if let new = change.new { pool.insert(new.transaction.hash) }
            }
        }
        var changes = LedgerChanges(head: headRecord)
        changes.blocks = blocks.sorted().map { ($0, block(number: $0)) }
        changes.removedBlocks = removed
        for (number, block) in changes.blocks where block != nil { changes.totals[number] = totals(at: number) }
        changes.accounts = accounts.sorted().map { ($0, state.accounts[$0]) }
        changes.history = history.sorted().map { key in
            let entry = state.history[key.address]?.last(where: { $0.block == key.block })
            return .init(address: key.address, block: key.block, entry: entry.map { $0.account })
        }
        changes.pool = pool.sorted { $0.lexicographicallyPrecedes($1) }.map { ($0, state.pool.transaction($0)) }
        if mark.checkpoint.parameters != parameters { changes.parameters = parameters }
        return changes
    }

    /// A chain read back from a store. Accounts that differ from the state the head sealed are changes made
    /// after the last block (dev methods): they are sealed into the next block. Pool transactions the chain
    /// has since included are left out.
    ///
    /// - Throws: ``LedgerError/corruptDataDirectory(_:)`` when the blocks do not chain or the rebuilt state root
    ///   differs from the head block's.
    public init(config: ChainConfig, restoring stored: StoredChain) throws(LedgerError) {
        self.config = config
        self.configuredChainID = config.chainID
        if let parameters = stored.parameters { self.config.parameters = parameters }
        var state = ChainState()
        guard let first = stored.blocks.first, let head = stored.blocks.last else {
            throw .corruptDataDirectory("data directory is inconsistent: it holds no blocks")
        }
        for (i, block) in stored.blocks.enumerated() where i > 0 {
            let parent = stored.blocks[i - 1]
            guard block.number == parent.number + 1, block.header.parentHash == parent.hash else {
                throw .corruptDataDirectory(
                    "data directory is inconsistent: block \(block.number) does not chain to its parent")
            }
        }
        guard first.number > 0 || first.hash == stored.genesisHash else {
            throw .corruptDataDirectory("data directory is inconsistent: expected blocks 0…\(head.number)")
        }
        state.indexedFrom = first.number
        state.historyFrom = first.number + 1
        for block in stored.blocks {
            state.blocks[block.number] = block
            state.blockNumbers[block.hash] = block.number
            for (i, tx) in block.transactions.enumerated() {
                state.transactionIndex[tx.hash] = TransactionLocation(blockNumber: block.number, index: i)
            }
        }
        state.height = head.number
        state.genesisHash = stored.genesisHash
        state.accounts = stored.accounts
        state.history = stored.history
        for (address, entries) in stored.history
        where (entries.last?.block ?? 0) > head.number || (entries.first?.block ?? 0) <= first.number {
            let kept = entries.filter { $0.block <= head.number && $0.block > first.number }
            state.history[address] = kept.isEmpty ? nil : kept
        }
        state.dirty = Set(stored.sealed.keys)
        // The committed state root is the head's: the trie holds the sealed state (accounts, except dev changes
        // made after the head, which hold their sealed value in `sealed`).
        // Keys inline and each leaf's value encoded as its leaf is made, from the account looked up again then: no
        // key or value array per account is held while the trie is built.
        var leaves: [(key: TrieKey, source: Address)] = []
        leaves.reserveCapacity(stored.accounts.count + stored.sealed.count)
        let noneSealed = stored.sealed.isEmpty
        for (address, account) in stored.accounts
        where (noneSealed || stored.sealed.index(forKey: address) == nil) && account.isInStateTrie {
            leaves.append((TrieKey(hashing: address.bytes), address))
        }
        for (address, sealed) in stored.sealed {
            if let sealed, sealed.isInStateTrie { leaves.append((TrieKey(hashing: address.bytes), address)) }
        }
        leaves.sort { $0.key < $1.key }
        state.stateTrie = PatriciaTrie(
            sortedCount: leaves.count, key: { leaves[$0].key },
            value: { i in
                let address = leaves[i].source
                let account = noneSealed ? stored.accounts[address] : stored.sealed[address] ?? stored.accounts[address]
                guard let account else { preconditionFailure("a leaf's account is in the state read back") }
                return account.stateEncoding
            })
        leaves = []
        guard state.stateTrie.rootHash == head.header.stateRoot else {
            throw .corruptDataDirectory("data directory is inconsistent: state root does not match the head block")
        }
        state.burned = stored.burned
        state.supply = stored.supply
        state.totals =
            stored.totals.count == stored.blocks.count
            ? stored.totals
            : Array(repeating: Totals(burned: stored.burned, supply: stored.supply), count: stored.blocks.count)
        self.state = state
        for tx in stored.pool where tx.nonce >= account(tx.sender).nonce { self.state.pool.insert(tx) }
        self.state.pool.log.removeAll()
    }
}

struct HistoryKey: Hashable, Comparable {
    var address: Address
    var block: UInt64

    static func < (a: HistoryKey, b: HistoryKey) -> Bool {
        a.address != b.address ? a.address < b.address : a.block < b.block
    }
}
