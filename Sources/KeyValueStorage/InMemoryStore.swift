import Synchronization

/// A ``KeyValueStore`` in memory, for chains without a data directory and for tests.
public final class InMemoryStore: KeyValueStore {
    private let storage = Mutex<[[UInt8]: [UInt8]]>([:])

    public init() {}

    public func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? {
        storage.withLock { $0[key] }
    }

    public func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        storage.withLock { map in
            for op in batch.operations {
                switch op {
                case .put(let k, let v): map[k] = v
                case .delete(let k): map[k] = nil
                }
            }
        }
    }

    public func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        let matches = storage.withLock { map in
            map.filter { $0.key.starts(with: prefix) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        }
        for (k, v) in matches where try !body(k, v) { break }
    }
}
