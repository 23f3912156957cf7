import EthereumLedger
import EthereumTypes
import Synchronization

/// Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter and their polls): the owner of
/// the ``FilterRegistry``. Blocks reach it from the miner's turn (``record(_:)``), pending hashes from admission.
///
/// Lock: its one lock is never held while the chain's lock is taken (the head is read first, then the registry
/// is updated); the miner takes it inside its turn (``Miner``).
public final class NodeFilters: Sendable {
    private let state: Mutex<FilterRegistry>
    private let chain: NodeChain
    private let clock: @Sendable () -> UInt64

    init(limit: Int, criteriaLimit: Int, chain: NodeChain, clock: @escaping @Sendable () -> UInt64) {
        state = Mutex(FilterRegistry(limit: limit, criteriaLimit: criteriaLimit))
        self.chain = chain
        self.clock = clock
    }

    /// Installs a log filter; its history starts at the current head.
    public func newFilter(_ filter: LogFilter) throws(NodeError) -> UInt64 {
        guard !filter.exceedsQueryLimit else { throw .tooManyFilterCriteriaPerPosition }
        // geth's NewFilter refuses a reversed range as eth_getLogs does.
        if case .number(let from)? = filter.fromBlock, case .number(let to)? = filter.toBlock, from > to {
            throw .invalidBlockRange
        }
        let head = chain.withLedger { $0.blockNumber }
        let now = clock()
        return try state.withLock { (registry) throws(NodeError) in
            try registry.install(.logs(filter), head: head, now: now)
        }
    }

    public func newBlockFilter() throws(NodeError) -> UInt64 {
        let now = clock()
        return try state.withLock { (registry) throws(NodeError) in try registry.install(.blocks, head: 0, now: now) }
    }

    public func newPendingTransactionFilter() throws(NodeError) -> UInt64 {
        let now = clock()
        return try state.withLock { (registry) throws(NodeError) in
            try registry.install(.pending, head: 0, now: now)
        }
    }

    /// Removes a filter; false when there was none.
    public func uninstall(_ id: UInt64) -> Bool { state.withLock { $0.uninstall(id) } }

    /// What a filter has seen since its last poll: for log filters the matching logs of the blocks mined since, at
    /// most ``NodeChain/maxLogRange`` blocks back.
    public func changes(_ id: UInt64) throws(NodeError) -> FilterChanges {
        let now = clock()
        let head = chain.withLedger { $0.blockNumber }
        guard let changes = state.withLock({ $0.poll(id, head: head, now: now) }) else { throw .filterNotFound }
        switch changes.kind {
        case .blocks, .pending: return .hashes(changes.hashes)
        case .logs(var f):
            let removed = changes.removed.flatMap { LogEntry.removed(from: $0) }.filter { f.matches($0.log) }
            let last = changes.cursor
            guard last < head else { return .logs(removed) }
            f.fromBlock = .number(max(last + 1, head - min(head, NodeChain.maxLogRange)))
            f.toBlock = .number(head)
            return .logs(removed + (try chain.withLedger { (chain) throws(NodeError) in try NodeChain.logs(f, chain) }))
        }
    }

    /// Every log a log filter matches (eth_getFilterLogs).
    public func logs(_ id: UInt64) throws(NodeError) -> [LogEntry] {
        let now = clock()
        guard let entry = state.withLock({ $0.entry(id, now: now) }), case .logs(let f) = entry.kind else {
            throw .filterNotFound
        }
        return try chain.withLedger { (chain) throws(NodeError) in try NodeChain.logs(f, chain) }
    }

    /// Polling filters installed now (at most ``NodeConfiguration/filterLimit``).
    public var count: Int { state.withLock { $0.count } }

    // MARK: Events

    /// A change of the chain, as the miner publishes it.
    func record(_ change: ChainChange) {
        state.withLock { registry in
            switch change {
            case .sealed(let block): registry.record(block: block)
            case .removed(let blocks): registry.record(removed: blocks)
            }
        }
    }

    func record(pending hash: [UInt8]) { state.withLock { $0.record(pending: hash) } }

    /// The registry as it is now (a copy, for tests and diagnostics).
    var registry: FilterRegistry { state.withLock { $0 } }

    /// anvil_reset: filters stay installed and follow the new chain.
    func restartChain() { state.withLock { $0.restartChain() } }
}
