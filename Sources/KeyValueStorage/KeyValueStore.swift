/// An ordered byte-key/byte-value store with atomic batches: the persistence seam of the ledgers.
///
/// Implementations: ``InMemoryStore`` (tests, no data directory) and ``LevelDBStore``.
public protocol KeyValueStore: AnyObject, Sendable {
    /// The value for `key`, or nil.
    func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]?
    /// Applies every put and delete of `batch` atomically: after a crash the store holds all of it or none.
    func write(_ batch: WriteBatch, sync: Bool) throws(StorageError)
    /// Every key/value pair whose key starts with `prefix`, in key order.
    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws
    /// The pair with the greatest key that starts with `prefix` and is at most `key` (nil: none).
    func last(prefix: [UInt8], atOrBefore key: [UInt8]) throws(StorageError) -> (key: [UInt8], value: [UInt8])?
}

extension KeyValueStore {
    /// A linear scan of `prefix`: stores with ordered iterators answer with one seek.
    public func last(prefix: [UInt8], atOrBefore key: [UInt8]) throws(StorageError) -> (key: [UInt8], value: [UInt8])? {
        var found: (key: [UInt8], value: [UInt8])?
        do {
            try scan(prefix: prefix) { k, v in
                guard !key.lexicographicallyPrecedes(k) else { return false }
                found = (k, v)
                return true
            }
        } catch let error as StorageError {
            throw error
        } catch {
            throw StorageError("\(error)")
        }
        return found
    }

    public func put(_ key: [UInt8], _ value: [UInt8]) throws(StorageError) {
        var batch = WriteBatch()
        batch.put(key, value)
        try write(batch, sync: false)
    }
}

/// Puts and deletes applied together.
public struct WriteBatch: Sendable {
    public enum Operation: Sendable, Equatable {
        case put([UInt8], [UInt8])
        case delete([UInt8])
    }

    public private(set) var operations: [Operation] = []

    public init() {}

    public mutating func put(_ key: [UInt8], _ value: [UInt8]) { operations.append(.put(key, value)) }
    public mutating func delete(_ key: [UInt8]) { operations.append(.delete(key)) }
    public var isEmpty: Bool { operations.isEmpty }
}

/// A storage failure, with the backend's own message.
public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "storage: \(message)" }
}
