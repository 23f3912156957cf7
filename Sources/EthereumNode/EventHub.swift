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
    private let handlers = Mutex<[UInt64: @Sendable (NodeEvent) -> Void]>([:])
    private let nextID = Atomic<UInt64>(1)
    /// Subscribers and handlers registered: ``publish(_:)`` returns at once when there are none (a node under
    /// eth_sendRawTransaction load with no WebSocket subscriber takes no lock per transaction here).
    private let registered = Atomic<Int>(0)

    public init() {}

    /// A stream of events from now on; it ends when the caller stops iterating or cancels.
    public func subscribe(bufferSize: Int = 10_000) -> AsyncStream<NodeEvent> {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        let (stream, continuation) = AsyncStream<NodeEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        continuation.onTermination = { [weak self] _ in
            guard let self, self.subscribers.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
            self.registered.subtract(1, ordering: .releasing)
        }
        subscribers.withLock { $0[id] = continuation }
        registered.add(1, ordering: .releasing)
        return stream
    }

    /// Calls `handler` synchronously from ``publish(_:)`` for every event until the subscription is cancelled (or
    /// released): nothing is buffered here, so nothing can be dropped here; the handler bounds its own queue. It runs
    /// on the publisher's thread, possibly while the node holds its miner lock: it must be quick and must not call
    /// into the node.
    public func subscribe(handler: @escaping @Sendable (NodeEvent) -> Void) -> EventSubscription {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        handlers.withLock { $0[id] = handler }
        registered.add(1, ordering: .releasing)
        return EventSubscription { [weak self] in
            guard let self, self.handlers.withLock({ $0.removeValue(forKey: id) }) != nil else { return }
            self.registered.subtract(1, ordering: .releasing)
        }
    }

    public func publish(_ event: NodeEvent) {
        guard registered.load(ordering: .acquiring) > 0 else { return }
        let targets = subscribers.withLock { Array($0.values) }
        for continuation in targets { continuation.yield(event) }
        let callbacks = handlers.withLock { Array($0.values) }
        for handler in callbacks { handler(event) }
    }

    public var subscriberCount: Int { subscribers.withLock { $0.count } + handlers.withLock { $0.count } }
}

/// A handler registered with ``EventHub/subscribe(handler:)``; cancelled on ``cancel()`` or when released.
public final class EventSubscription: Sendable {
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = Mutex(onCancel) }

    public func cancel() { onCancel.withLock { $0.take() }?() }

    deinit { cancel() }
}
