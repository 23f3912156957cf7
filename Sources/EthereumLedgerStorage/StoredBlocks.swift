import EthereumLedger
import EthereumTypes
import KeyValueStorage
import Synchronization

/// The history of a chain in its store, read through bounded caches: the ``BlockArchive`` a ``PersistentLedger``
/// gives its ledger, so memory holds only a recent window however long the chain grows. Blocks, hash and
/// transaction lookups and history lookups each have their own cache of at most `capacity` entries.
final class StoredBlocks: BlockArchive {
    let store: any KeyValueStore
    let cache: Mutex<Caches>

    struct Caches {
        var blocks: FIFOCache<UInt64, Block>
        var blockNumbers: FIFOCache<[UInt8], UInt64>
        var locations: FIFOCache<[UInt8], TransactionLocation>
        /// The entry at or before a block (nil inside: none).
        var history: FIFOCache<HistoryLookup, HistoryEntry?>
    }

    struct HistoryLookup: Hashable {
        var address: Address
        var block: UInt64
    }

    /// `capacity` blocks, and at most `transactionLimit` transactions in the cached blocks together.
    init(store: any KeyValueStore, capacity: Int, transactionLimit: Int = .max) {
        self.store = store
        self.cache = Mutex(
            Caches(
                blocks: FIFOCache(capacity: capacity, weightLimit: transactionLimit),
                blockNumbers: FIFOCache(capacity: capacity * 16),
                locations: FIFOCache(capacity: capacity * 16), history: FIFOCache(capacity: capacity * 16)))
    }

    /// The block, from the cache or the store; nil when the store cannot read or decode it (a reorg that needs it
    /// then fails with ``LedgerError/storageFailure(_:)``).
    func block(number: UInt64) -> Block? {
        if let cached = cache.withLock({ $0.blocks.get(number) }) { return cached }
        let bytes: [UInt8]?
        do { bytes = try store.get(LedgerRecords.blockKey(number)) } catch { return nil }
        guard let bytes, let block = try? LedgerRecords.decodeBlock(bytes), block.number == number else { return nil }
        cache.withLock { $0.blocks.put(number, block, weight: block.transactions.count) }
        return block
    }

    func blockNumber(hash: [UInt8]) -> UInt64? {
        if let cached = cache.withLock({ $0.blockNumbers.get(hash) }) { return cached }
        guard let bytes = try? store.get(LedgerRecords.blockHashKey(hash)), bytes.count == 8 else { return nil }
        let number = LedgerRecords.readBE64(bytes[...])
        cache.withLock { $0.blockNumbers.put(hash, number) }
        return number
    }

    func transactionLocation(hash: [UInt8]) -> TransactionLocation? {
        if let cached = cache.withLock({ $0.locations.get(hash) }) { return cached }
        guard let bytes = try? store.get(LedgerRecords.transactionKey(hash)), bytes.count == 16 else { return nil }
        let index = LedgerRecords.readBE64(bytes[8...])
        guard index <= UInt64(Int.max) else { return nil }
        let location = TransactionLocation(blockNumber: LedgerRecords.readBE64(bytes[..<8]), index: Int(index))
        cache.withLock { $0.locations.put(hash, location) }
        return location
    }

    func historyEntry(of address: Address, atOrBefore number: UInt64) -> HistoryEntry? {
        let lookup = HistoryLookup(address: address, block: number)
        if let cached = cache.withLock({ $0.history.get(lookup) }) { return cached }
        let prefix = [LedgerRecords.historyTag] + address.bytes
        let found: (key: [UInt8], value: [UInt8])?
        do { found = try store.last(prefix: prefix, atOrBefore: LedgerRecords.historyKey(address, number)) } catch {
            return nil
        }
        var entry: HistoryEntry?
        if let found {
            guard found.key.count == 29 else { return nil }
            var account: Account?
            if !found.value.isEmpty {
                guard let decoded = try? LedgerRecords.decodeAccount(found.value) else { return nil }
                account = decoded
            }
            entry = HistoryEntry(block: LedgerRecords.readBE64(found.key[21...]), account: account)
        }
        cache.withLock { $0.history.put(lookup, entry) }
        return entry
    }

    func blockRecord(number: UInt64) -> (totals: Totals, changed: [Address])? {
        guard let bytes = try? store.get(LedgerRecords.blockChangesKey(number)) else { return nil }
        return try? LedgerRecords.decodeBlockChanges(bytes)
    }

    /// Drops cached copies of blocks that were just rewritten; after a revert or reorg (`removed`), every cached
    /// lookup, since hashes, locations and history entries may have gone with the blocks.
    func forget(_ numbers: some Sequence<UInt64>, removed: Bool) {
        cache.withLock { cache in
            for number in numbers { cache.blocks.remove(number) }
            if removed {
                cache.blockNumbers.removeAll()
                cache.locations.removeAll()
                cache.history.removeAll()
            }
        }
    }

    /// Drops every cached block and lookup (the chain was replaced).
    func forgetAll() {
        cache.withLock { cache in
            cache.blocks.removeAll()
            cache.blockNumbers.removeAll()
            cache.locations.removeAll()
            cache.history.removeAll()
        }
    }

    var cachedCount: Int { cache.withLock { $0.blocks.count } }

    /// Transactions in the cached blocks.
    var cachedTransactions: Int { cache.withLock { $0.blocks.weight } }

    /// Entries in the hash, location and history caches.
    var cachedLookups: Int { cache.withLock { $0.blockNumbers.count + $0.locations.count + $0.history.count } }
}

/// At most `capacity` entries, and at most `weightLimit` of their weights together (a block weighs its
/// transactions); the oldest inserted goes first, but the newest entry always stays.
struct FIFOCache<Key: Hashable, Value> {
    let capacity: Int
    let weightLimit: Int
    var entries: [Key: (value: Value, weight: Int)] = [:]
    var order: [Key] = []
    var start = 0
    /// The weights of the entries held.
    private(set) var weight = 0

    init(capacity: Int, weightLimit: Int = .max) {
        self.capacity = max(1, capacity)
        self.weightLimit = max(1, weightLimit)
    }

    var count: Int { entries.count }

    func get(_ key: Key) -> Value? { entries[key]?.value }

    mutating func put(_ key: Key, _ value: Value, weight: Int = 1) {
        if let old = entries.updateValue((value, weight), forKey: key) {
            self.weight += weight - old.weight
            return
        }
        self.weight += weight
        order.append(key)
        while entries.count > capacity || (self.weight > weightLimit && entries.count > 1), start < order.count {
            if order[start] != key, let evicted = entries.removeValue(forKey: order[start]) {
                self.weight -= evicted.weight
            }
            start += 1
        }
        if start > capacity {
            order.removeFirst(start)
            start = 0
        }
    }

    mutating func remove(_ key: Key) {
        if let removed = entries.removeValue(forKey: key) { weight -= removed.weight }
    }

    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        start = 0
        weight = 0
    }
}
