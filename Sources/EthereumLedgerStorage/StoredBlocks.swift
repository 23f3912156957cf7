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

    init(store: any KeyValueStore, capacity: Int) {
        self.store = store
        self.cache = Mutex(
            Caches(
                blocks: FIFOCache(capacity: capacity), blockNumbers: FIFOCache(capacity: capacity * 16),
                locations: FIFOCache(capacity: capacity * 16), history: FIFOCache(capacity: capacity * 16)))
    }

    /// The block, from the cache or the store; nil when the store cannot read or decode it (a reorg that needs it
    /// then fails with ``LedgerError/storageFailure(_:)``).
    func block(number: UInt64) -> Block? {
        if let cached = cache.withLock({ $0.blocks.get(number) }) { return cached }
        let bytes: [UInt8]?
        do { bytes = try store.get(LedgerRecords.blockKey(number)) } catch { return nil }
        guard let bytes, let block = try? LedgerRecords.decodeBlock(bytes), block.number == number else { return nil }
        cache.withLock { $0.blocks.put(number, block) }
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

    /// Entries in the hash, location and history caches.
    var cachedLookups: Int { cache.withLock { $0.blockNumbers.count + $0.locations.count + $0.history.count } }
}

/// At most `capacity` entries; the oldest inserted goes first.
struct FIFOCache<Key: Hashable, Value> {
    let capacity: Int
    var entries: [Key: Value] = [:]
    var order: [Key] = []
    var start = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }

    func get(_ key: Key) -> Value? { entries[key] }

    mutating func put(_ key: Key, _ value: Value) {
        if entries.updateValue(value, forKey: key) != nil { return }
        order.append(key)
        while entries.count > capacity, start < order.count {
            entries[order[start]] = nil
            start += 1
        }
        if start > capacity {
            order.removeFirst(start)
            start = 0
        }
    }

    mutating func remove(_ key: Key) { entries[key] = nil }

    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        start = 0
    }
}
