import EthereumLedger
import EthereumTypes

/// Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter). Like geth, a filter
/// not polled for 5 minutes is removed (by the node's injected clock).
///
/// Bounded, and O(1) per filter: block and pending-transaction hashes are kept once, in rings of the last
/// ``EventRing/capacity`` events, and a filter holds only a cursor into its ring, so installing a filter and
/// publishing a block cost the same with 1 or 10,000 filters installed. At most ``limit`` filters exist at a
/// time, and log filters hold at most ``criteriaLimit`` addresses and topics in all.
struct FilterRegistry: Sendable {
    enum Kind: Sendable {
        case blocks
        case pending
        case logs(LogFilter)
    }

    struct Entry: Sendable {
        var kind: Kind
        /// Blocks and pending filters: the sequence number of the next event to deliver. Logs: the last block
        /// number already scanned.
        var cursor: UInt64
        var lastPoll: UInt64
        /// Log filters: blocks a reorg removed after their logs were delivered; the next poll hands their
        /// matching logs back with `removed: true`.
        var removed: [Block] = []
    }

    /// What a poll hands back: the filter as it was, and for block and pending filters the hashes since then.
    struct Changes: Sendable {
        var kind: Kind
        var cursor: UInt64
        var hashes: [[UInt8]]
        var removed: [Block] = []
    }

    private(set) var filters: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 1
    private(set) var blocks = EventRing()
    private(set) var pending = EventRing()
    /// Addresses plus topics held by the installed log filters.
    private(set) var criteriaCount = 0
    /// Installed block and pending-transaction filters: a ring holds hashes only while a filter of its kind is
    /// installed (a filter sees only events after it was installed, so with none the hashes would serve nobody).
    private(set) var blockFilterCount = 0
    private(set) var pendingFilterCount = 0
    private var lastSweep: UInt64?
    /// Most filters installed at once.
    let limit: Int
    /// Most addresses and topics the installed log filters hold together.
    let criteriaLimit: Int
    /// geth's filter timeout (`rpc.filter-timeout`, 5 minutes).
    static let timeout: UInt64 = 300

    init(limit: Int = 10_000, criteriaLimit: Int = 1_000_000) {
        self.limit = limit
        self.criteriaLimit = criteriaLimit
    }

    var count: Int { filters.count }

    static func weight(_ kind: Kind) -> Int {
        guard case .logs(let filter) = kind else { return 0 }
        return filter.criteriaCount
    }

    static func expired(_ entry: Entry, now: UInt64) -> Bool {
        now > entry.lastPoll && now - entry.lastPoll > timeout
    }

    /// Installs a filter whose history starts now; `head` is the current block number (log filters).
    mutating func install(_ kind: Kind, head: UInt64, now: UInt64) throws(NodeError) -> UInt64 {
        sweep(now: now)
        guard filters.count < limit else {
            throw .tooManyFilters(limit: limit)
        }
        let weight = Self.weight(kind)
        guard weight <= criteriaLimit - criteriaCount else {
            throw .tooManyFilterCriteria(limit: criteriaLimit)
        }
        let cursor: UInt64
        switch kind {
        case .blocks: cursor = blocks.next
        case .pending: cursor = pending.next
        case .logs: cursor = head
        }
        let id = nextID
        nextID += 1
        filters[id] = Entry(kind: kind, cursor: cursor, lastPoll: now)
        criteriaCount += weight
        count(kind, by: 1)
        return id
    }

    @discardableResult
    mutating func uninstall(_ id: UInt64) -> Bool {
        guard let entry = filters.removeValue(forKey: id) else { return false }
        criteriaCount -= Self.weight(entry.kind)
        count(entry.kind, by: -1)
        return true
    }

    private mutating func count(_ kind: Kind, by change: Int) {
        switch kind {
        case .blocks: blockFilterCount += change
        case .pending: pendingFilterCount += change
        case .logs: break
        }
    }

    /// The filter `id` if it is installed and not expired (without touching it).
    func entry(_ id: UInt64, now: UInt64) -> Entry? {
        guard let entry = filters[id], !Self.expired(entry, now: now) else { return nil }
        return entry
    }

    /// eth_getFilterChanges: what the filter has not delivered yet; moves its cursor and its deadline.
    mutating func poll(_ id: UInt64, head: UInt64, now: UInt64) -> Changes? {
        guard var entry = filters[id] else { return nil }
        if Self.expired(entry, now: now) {
            uninstall(id)
            return nil
        }
        let out: Changes
        switch entry.kind {
        case .blocks:
            out = Changes(kind: entry.kind, cursor: entry.cursor, hashes: blocks.since(entry.cursor))
            entry.cursor = blocks.next
        case .pending:
            out = Changes(kind: entry.kind, cursor: entry.cursor, hashes: pending.since(entry.cursor))
            entry.cursor = pending.next
        case .logs:
            out = Changes(kind: entry.kind, cursor: entry.cursor, hashes: [], removed: entry.removed)
            entry.cursor = head
            entry.removed = []
        }
        entry.lastPoll = now
        filters[id] = entry
        return out
    }

    /// Removes filters not polled for ``timeout`` seconds; at most once per clock second, so installs stay
    /// O(1) amortised. A filter that expired since is refused when polled (``poll(_:head:now:)``).
    mutating func sweep(now: UInt64) {
        guard lastSweep != now else { return }
        lastSweep = now
        for (id, entry) in filters where Self.expired(entry, now: now) { uninstall(id) }
    }

    /// A new block: its hash is kept for block filters, or only counted when none is installed.
    mutating func record(block: Block) {
        if blockFilterCount > 0 { blocks.append(block.hash) } else { blocks.skip() }
    }

    /// A new pending transaction: its hash is kept for pending filters, or only counted when none is installed.
    mutating func record(pending hash: [UInt8]) {
        if pendingFilterCount > 0 { pending.append(hash) } else { pending.skip() }
    }

    /// The chain started over from genesis (`anvil_reset`): log filters scan the new chain's blocks from block 1 (the
    /// old chain's logs are not delivered as removed, as in Anvil).
    mutating func restartChain() {
        for (id, entry) in filters {
            guard case .logs = entry.kind else { continue }
            filters[id]?.cursor = 0
            filters[id]?.removed = []
        }
    }

    /// Blocks a reorg removed: every log filter that had scanned them gets their logs back as removed, and scans
    /// their replacements again.
    mutating func record(removed: [Block]) {
        guard let first = removed.first?.number else { return }
        let withLogs = removed.filter { $0.receipts.contains { !$0.logs.isEmpty } }
        for (id, entry) in filters {
            guard case .logs = entry.kind, entry.cursor >= first else { continue }
            filters[id]?.removed += withLogs.filter { $0.number <= entry.cursor }
            filters[id]?.cursor = first - 1
        }
    }

}

/// The last ``capacity`` hashes of one event stream, numbered from 0 in arrival order. A filter that falls more
/// than ``capacity`` events behind loses the oldest ones (geth drops a slow subscriber's events too). The registry
/// keeps hashes only while a filter of the ring's kind is installed (``skip()`` otherwise): full, a ring holds about
/// 0.9 MB (10,000 slots and 32-byte arrays), which the pending ring reached within the soak's first two minutes
/// (~100 transactions a second) with nobody polling, and the block ring would reach after 10,000 blocks.
struct EventRing: Sendable {
    static let defaultCapacity = 10_000
    let capacity: Int
    private var items: [[UInt8]] = []
    /// Index in ``items`` of the oldest event once the ring is full.
    private var start = 0
    /// The sequence number the next event gets (the number of events ever recorded).
    private(set) var next: UInt64 = 0

    init(capacity: Int = EventRing.defaultCapacity) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    mutating func append(_ hash: [UInt8]) {
        if items.count < capacity {
            items.append(hash)
        } else {
            items[start] = hash
            start = (start + 1) % capacity
        }
        next += 1
    }

    /// Counts an event without keeping it, and lets go of those held: nobody can ask for them any more (a cursor
    /// taken from ``next`` now starts after them).
    mutating func skip() {
        if !items.isEmpty {
            items = []
            start = 0
        }
        next += 1
    }

    /// Hashes held now (at most ``capacity``).
    var count: Int { items.count }

    /// The events numbered `sequence` and later that are still held, oldest first.
    func since(_ sequence: UInt64) -> [[UInt8]] {
        let oldest = next - UInt64(items.count)
        let first = max(sequence, oldest)
        guard first < next else { return [] }
        return (first..<next).map { items[(start + Int($0 - oldest)) % items.count] }
    }
}
