import EthereumLedger
import EthereumTypes

/// Polling filters (eth_newFilter and friends), over ``FilterRegistry``.
///
/// Lock order: the ledger lock may be taken alone or before nothing else; the filter lock is never held while the
/// ledger lock is taken (reads of the head happen first, then the registry is updated).
extension SandnetNode {
    /// Installs a log filter; its history starts at the current head.
    public func newFilter(_ filter: LogFilter) throws(NodeError) -> UInt64 {
        guard !filter.exceedsQueryLimit else { throw .tooManyFilterCriteriaPerPosition }
        // geth's NewFilter refuses a reversed range as eth_getLogs does.
        if case .number(let from)? = filter.fromBlock, case .number(let to)? = filter.toBlock, from > to {
            throw .invalidBlockRange
        }
        let head = blockNumber
        let now = clock()
        return try filters.withLock { (registry) throws(NodeError) in
            try registry.install(.logs(filter), head: head, now: now)
        }
    }

    public func newBlockFilter() throws(NodeError) -> UInt64 {
        let now = clock()
        return try filters.withLock { (registry) throws(NodeError) in try registry.install(.blocks, head: 0, now: now) }
    }

    public func newPendingTransactionFilter() throws(NodeError) -> UInt64 {
        let now = clock()
        return try filters.withLock { (registry) throws(NodeError) in try registry.install(.pending, head: 0, now: now)
        }
    }

    /// Removes a filter; false when there was none.
    public func uninstallFilter(_ id: UInt64) -> Bool { filters.withLock { $0.uninstall(id) } }

    /// What a filter has seen since its last poll: for log filters the matching logs of the blocks mined since, at
    /// most ``maxLogRange`` blocks back.
    public func filterChanges(_ id: UInt64) throws(NodeError) -> FilterChanges {
        let now = clock()
        let head = blockNumber
        guard let changes = filters.withLock({ $0.poll(id, head: head, now: now) }) else { throw .filterNotFound }
        switch changes.kind {
        case .blocks, .pending: return .hashes(changes.hashes)
        case .logs(var f):
            let removed = changes.removed.flatMap { LogEntry.removed(from: $0) }.filter { f.matches($0.log) }
            let last = changes.cursor
            guard last < head else { return .logs(removed) }
            f.fromBlock = .number(max(last + 1, head - min(head, Self.maxLogRange)))
            f.toBlock = .number(head)
            return .logs(removed + (try withLedger { (chain) throws(NodeError) in try Self.logs(f, chain) }))
        }
    }

    /// Every log a log filter matches (eth_getFilterLogs).
    public func filterLogs(_ id: UInt64) throws(NodeError) -> [LogEntry] {
        let now = clock()
        guard let entry = filters.withLock({ $0.entry(id, now: now) }), case .logs(let f) = entry.kind else {
            throw .filterNotFound
        }
        return try withLedger { (chain) throws(NodeError) in try Self.logs(f, chain) }
    }

    /// Polling filters installed now (at most ``NodeConfiguration/filterLimit``).
    public var filterCount: Int { filters.withLock { $0.count } }
}

/// The transaction pool as txpool_* shows it.
extension SandnetNode {
    /// The pool split into executable (`pending`) and nonce-gapped (`queued`) transactions.
    public var poolContent: PoolContent {
        withLedger { chain in
            let split = chain.pool.split { chain.account($0).nonce }
            return PoolContent(pending: split.pending, queued: split.queued)
        }
    }
}
