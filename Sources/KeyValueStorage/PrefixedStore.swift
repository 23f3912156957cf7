/// A view of another store under a key prefix, so two ledgers can share one data directory (the node keeps the
/// Ethereum chain and the ICP ledger in the same LevelDB) without seeing each other's keys.
///
/// Batches stay atomic: a batch on the view is one batch on the underlying store.
public final class PrefixedStore: KeyValueStore {
    public let base: any KeyValueStore
    public let prefix: [UInt8]

    public init(_ base: any KeyValueStore, prefix: [UInt8]) {
        precondition(!prefix.isEmpty, "a prefixed view needs a non-empty prefix")
        self.base = base
        self.prefix = prefix
    }

    public func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try base.get(prefix + key) }

    public func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        var prefixed = WriteBatch()
        for operation in batch.operations {
            switch operation {
            case .put(let key, let value): prefixed.put(prefix + key, value)
            case .delete(let key): prefixed.delete(prefix + key)
            }
        }
        try base.write(prefixed, sync: sync)
    }

    public func last(prefix keyPrefix: [UInt8], atOrBefore key: [UInt8]) throws(StorageError) -> (
        key: [UInt8], value: [UInt8]
    )? {
        guard let (found, value) = try base.last(prefix: prefix + keyPrefix, atOrBefore: prefix + key) else {
            return nil
        }
        return (Array(found[prefix.count...]), value)
    }

    public func scan(prefix keyPrefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        let count = prefix.count
        try base.scan(prefix: prefix + keyPrefix) { key, value in try body(Array(key[count...]), value) }
    }
}
