import EthereumLedger
import KeyValueStorage
import Synchronization

/// The blocks of a chain in its store, read through a bounded cache: the ``BlockArchive`` a ``PersistentLedger``
/// gives its ledger, so memory holds only recent blocks however long the chain grows.
final class StoredBlocks: BlockArchive {
    let store: any KeyValueStore
    let cache: Mutex<BlockCache>

    init(store: any KeyValueStore, capacity: Int) {
        self.store = store
        self.cache = Mutex(BlockCache(capacity: capacity))
    }

    /// The block, from the cache or the store; nil when the store cannot read or decode it (a reorg that needs it
    /// then fails with ``LedgerError/storageFailure(_:)``).
    func block(number: UInt64) -> Block? {
        if let cached = cache.withLock({ $0.get(number) }) { return cached }
        let bytes: [UInt8]?
        do { bytes = try store.get(LedgerRecords.blockKey(number)) } catch { return nil }
        guard let bytes, let block = try? LedgerRecords.decodeBlock(bytes), block.number == number else { return nil }
        cache.withLock { $0.put(number, block) }
        return block
    }

    /// Drops cached copies of blocks that were just rewritten or deleted (a revert or reorg).
    func forget(_ numbers: some Sequence<UInt64>) {
        cache.withLock { cache in for number in numbers { cache.remove(number) } }
    }

    /// Drops every cached block (the chain was replaced).
    func forgetAll() {
        cache.withLock { $0 = BlockCache(capacity: $0.capacity) }
    }

    var cachedCount: Int { cache.withLock { $0.blocks.count } }
}

/// At most `capacity` blocks; the oldest inserted goes first.
struct BlockCache {
    let capacity: Int
    var blocks: [UInt64: Block] = [:]
    var order: [UInt64] = []
    var start = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    func get(_ number: UInt64) -> Block? { blocks[number] }

    mutating func put(_ number: UInt64, _ block: Block) {
        if blocks.updateValue(block, forKey: number) != nil { return }
        order.append(number)
        while blocks.count > capacity, start < order.count {
            blocks[order[start]] = nil
            start += 1
        }
        if start > capacity {
            order.removeFirst(start)
            start = 0
        }
    }

    mutating func remove(_ number: UInt64) { blocks[number] = nil }
}
