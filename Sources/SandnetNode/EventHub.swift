import EthereumLedger
import Synchronization

/// Chain events for WebSocket subscriptions and polling filters.
public enum NodeEvent: Sendable {
    case newBlock(Block)
    case pendingTransaction([UInt8])
    /// Blocks removed by a reorg or revert (subscribers of logs would get `removed: true`).
    case removedBlocks([Block])
}

/// Fan-out of ``NodeEvent``s to any number of subscribers, each with its own bounded buffer.
public final class EventHub: Sendable {
    private let subscribers = Mutex<[UInt64: AsyncStream<NodeEvent>.Continuation]>([:])
    private let nextID = Atomic<UInt64>(1)

    public init() {}

    /// A stream of events from now on; it ends when the caller stops iterating or cancels.
    public func subscribe(bufferSize: Int = 10_000) -> AsyncStream<NodeEvent> {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let (stream, continuation) = AsyncStream<NodeEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    public func publish(_ event: NodeEvent) {
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
    }

    public var subscriberCount: Int { subscribers.withLock { $0.count } }
}
