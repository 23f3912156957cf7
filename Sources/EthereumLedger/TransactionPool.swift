import EthereumTypes

/// Pending (executable) and queued (nonce-gap) transactions per sender, with geth's admission rules for
/// replacement, limits and eviction (`core/txpool/legacypool`).
public struct TransactionPool: Sendable {
    struct Entry: Sendable {
        var transaction: LedgerTransaction
        var arrival: UInt64
    }

    /// One slot (sender, nonce) changed: the ledger journals these, so snapshots, reverts and its owner's
    /// writes see every pool change.
    struct SlotChange: Sendable {
        var sender: Address
        var nonce: UInt64
        var old: Entry?
        var new: Entry?
    }

    var bySender: [Address: [UInt64: Entry]] = [:]
    var locations: [TransactionHashKey: (sender: Address, nonce: UInt64)] = [:]
    var arrivals: UInt64 = 0
    /// Slot changes since the ledger last took them.
    var log: [SlotChange] = []
    /// Σ encoded sizes of the pooled transactions (bounded by ``ChainConfig/poolByteLimit``); kept by ``setSlot``,
    /// the one place a slot changes (rollbacks included).
    public private(set) var byteCount = 0

    public init() {}

    public var count: Int { locations.count }

    public func contains(_ hash: [UInt8]) -> Bool { locations[TransactionHashKey(hash)] != nil }

    public func transaction(_ hash: [UInt8]) -> LedgerTransaction? {
        guard let loc = locations[TransactionHashKey(hash)] else { return nil }
        return bySender[loc.sender]?[loc.nonce]?.transaction
    }

    func existing(sender: Address, nonce: UInt64) -> LedgerTransaction? { bySender[sender]?[nonce]?.transaction }

    /// The next nonce after the sender's consecutive pool transactions (Anvil's and geth's "pending" nonce).
    public func pendingNonce(_ sender: Address, accountNonce: UInt64) -> UInt64 {
        guard let txs = bySender[sender] else { return accountNonce }
        var n = accountNonce
        while txs[n] != nil { n += 1 }
        return n
    }

    /// geth's `ExistingExpenditure`: Σ gasLimit × maxFee + value over the sender's pending transactions (the
    /// consecutive run from the account nonce), exactly (it may pass 2^256).
    func pendingExpenditure(_ sender: Address, accountNonce: UInt64) -> WideAmount {
        guard let txs = bySender[sender] else { return .zero }
        var total = WideAmount.zero
        var n = accountNonce
        while let entry = txs[n] {
            total = total + entry.transaction.exactCost
            n += 1
        }
        return total
    }

    /// geth's `ExistingCost`: the cost of the sender's pending transaction at `nonce`, nil when none is pending there.
    func pendingCost(_ sender: Address, nonce: UInt64, accountNonce: UInt64) -> WideAmount? {
        guard nonce >= accountNonce, nonce < pendingNonce(sender, accountNonce: accountNonce) else { return nil }
        return bySender[sender]?[nonce]?.transaction.exactCost
    }

    /// The one place slots change; returns the entry the slot held. The sender's slots are found with one hash of
    /// the address and then changed through their index (a transfer's insert and removal used to hash it ~8 times).
    @discardableResult
    mutating func setSlot(_ sender: Address, _ nonce: UInt64, _ entry: Entry?) -> Entry? {
        let senderIndex = bySender.index(forKey: sender)
        let old = senderIndex.flatMap { bySender.values[$0][nonce] }
        if old == nil && entry == nil { return nil }
        if let old {
            locations[TransactionHashKey(old.transaction.hash)] = nil
            byteCount -= old.transaction.encoding.count
        }
        if let entry {
            byteCount += entry.transaction.encoding.count
            if let senderIndex {
                bySender.values[senderIndex][nonce] = entry
            } else {
                bySender[sender] = [nonce: entry]
            }
            locations[TransactionHashKey(entry.transaction.hash)] = (sender, nonce)
        } else if let senderIndex {
            if bySender.values[senderIndex].count == 1 {
                bySender.remove(at: senderIndex)
            } else {
                bySender.values[senderIndex][nonce] = nil
            }
        }
        log.append(SlotChange(sender: sender, nonce: nonce, old: old, new: entry))
        return old
    }

    /// Inserts (or replaces) a validated transaction; returns the replaced transaction's hash.
    @discardableResult
    mutating func insert(_ tx: LedgerTransaction) -> [UInt8]? {
        arrivals += 1
        return setSlot(tx.sender, tx.nonce, Entry(transaction: tx, arrival: arrivals))?.transaction.hash
    }

    @discardableResult
    mutating func remove(_ hash: [UInt8]) -> LedgerTransaction? {
        guard let loc = locations[TransactionHashKey(hash)] else { return nil }
        return setSlot(loc.sender, loc.nonce, nil)?.transaction
    }

    /// Drops the sender's transactions with nonces below `accountNonce` (included or made stale).
    mutating func prune(_ sender: Address, accountNonce: UInt64) {
        guard let txs = bySender[sender] else { return }
        for nonce in txs.keys.sorted() where nonce < accountNonce { setSlot(sender, nonce, nil) }
    }

    /// The eviction candidate: queued transactions before pending ones, then the lowest tip at `baseFee`; ties go
    /// to the higher nonce (as geth's price heap breaks them), then to the later arrival. A total order, so the
    /// victim never depends on dictionary order (which changes from process to process).
    func cheapest(baseFee: UInt256, accountNonce: (Address) -> UInt64) -> LedgerTransaction? {
        var best: (entry: Entry, queued: Bool, tip: UInt256)?
        for (sender, txs) in bySender {
            let next = pendingNonce(sender, accountNonce: accountNonce(sender))
            for (nonce, entry) in txs {
                let queued = nonce >= next
                let tip = entry.transaction.effectiveTip(baseFee: baseFee) ?? .zero
                guard let b = best else {
                    best = (entry, queued, tip)
                    continue
                }
                let cheaper: Bool
                if queued != b.queued {
                    cheaper = queued
                } else if tip != b.tip {
                    cheaper = tip < b.tip
                } else if nonce != b.entry.transaction.nonce {
                    cheaper = nonce > b.entry.transaction.nonce
                } else {
                    cheaper = entry.arrival > b.entry.arrival
                }
                if cheaper { best = (entry, queued, tip) }
            }
        }
        return best?.entry.transaction
    }

    /// Executable transactions (consecutive from each sender's account nonce, fee cap ≥ `baseFee`) in block
    /// order: highest effective tip first, ties by arrival, each sender's nonces in order.
    public func executable(baseFee: UInt256, accountNonce: (Address) -> UInt64) -> [LedgerTransaction] {
        // Each sender's run of consecutive nonces, and a heap of the runs' next transactions.
        var runs: [[Entry]] = []
        runs.reserveCapacity(bySender.count)
        var heads = PriorityQueue()
        for (sender, txs) in bySender {
            var n = accountNonce(sender)
            guard let first = txs[n], let tip = first.transaction.effectiveTip(baseFee: baseFee) else { continue }
            var run = [first]
            n += 1
            while let entry = txs[n] {
                run.append(entry)
                n += 1
            }
            heads.push(.init(tip: tip, arrival: first.arrival, run: runs.count))
            runs.append(run)
        }
        var next = [Int](repeating: 1, count: runs.count)
        var ordered: [LedgerTransaction] = []
        ordered.reserveCapacity(count)
        while let top = heads.pop() {
            ordered.append(runs[top.run][next[top.run] - 1].transaction)
            let position = next[top.run]
            guard position < runs[top.run].count else { continue }
            let entry = runs[top.run][position]
            next[top.run] = position + 1
            if let tip = entry.transaction.effectiveTip(baseFee: baseFee) {
                heads.push(.init(tip: tip, arrival: entry.arrival, run: top.run))
            }
        }
        return ordered
    }

    /// Pending (executable now, ignoring fees) and queued (behind a nonce gap) transactions per sender.
    public func split(accountNonce: (Address) -> UInt64) -> (pending: [LedgerTransaction], queued: [LedgerTransaction])
    {
        var pending: [LedgerTransaction] = []
        var queued: [LedgerTransaction] = []
        for (sender, txs) in bySender {
            let next = pendingNonce(sender, accountNonce: accountNonce(sender))
            for (nonce, entry) in txs.sorted(by: { $0.key < $1.key }) {
                if nonce < next { pending.append(entry.transaction) } else { queued.append(entry.transaction) }
            }
        }
        return (pending, queued)
    }

    public var all: [LedgerTransaction] {
        bySender.values.flatMap { $0.values }.sorted { $0.arrival < $1.arrival }.map(\.transaction)
    }

    // MARK: Admission (the ledger journals the slot changes these make)

    /// Admission checks in go-ethereum's order (`txpool.ValidateTransaction`, `ValidateTransactionWithState`,
    /// `legacypool.add`), against the sender's account now.
    func validate(_ tx: LedgerTransaction, sender: Account, config: ChainConfig) throws(LedgerError) {
        if contains(tx.hash) { throw .alreadyKnown }
        if tx.encoding.count > config.maxTransactionSize {
            throw .oversizedData(size: tx.encoding.count, limit: config.maxTransactionSize)
        }
        if tx.to == nil && tx.data.count > config.maxInitCodeSize {
            throw .maxInitCodeSizeExceeded(size: tx.data.count, limit: config.maxInitCodeSize)
        }
        if tx.gasLimit > config.gasLimit { throw .exceedsBlockGasLimit }
        if let cap = config.transactionGasCap, tx.gasLimit > cap { throw .gasLimitTooHigh(cap: cap, gas: tx.gasLimit) }
        if tx.maxPriorityFeePerGas > tx.maxFeePerGas { throw .tipAboveFeeCap }
        if let chainID = tx.chainID, chainID != config.chainID {
            throw .wrongChainID(have: chainID, want: config.chainID)
        }
        if tx.nonce == .max { throw .nonceMax }
        if tx.gasLimit < tx.intrinsicGas { throw .intrinsicGasTooLow(gas: tx.gasLimit, needed: tx.intrinsicGas) }
        if tx.gasLimit < tx.floorGas { throw .floorDataGasTooLow(gas: tx.gasLimit, needed: tx.floorGas) }
        if tx.maxPriorityFeePerGas < config.minimumTip {
            throw .underpriced(tip: tx.maxPriorityFeePerGas, minimum: config.minimumTip)
        }
        if tx.nonce < sender.nonce { throw .nonceTooLow(next: sender.nonce, got: tx.nonce) }
        // geth's ValidateTransactionWithState: the cost alone, then with the sender's pending transactions (exact
        // amounts, as its big.Int texts print them); the replacement's fee bump is checked after (legacypool.add).
        let balance = WideAmount(sender.balance)
        let cost = tx.exactCost
        if balance < cost { throw .insufficientFunds(balance: sender.balance, cost: cost) }
        let spent = pendingExpenditure(tx.sender, accountNonce: sender.nonce)
        if let previous = pendingCost(tx.sender, nonce: tx.nonce, accountNonce: sender.nonce) {
            let negative = cost < previous
            let bump = negative ? previous - cost : cost - previous
            let need = negative ? spent - bump : spent + bump
            if balance < need {
                throw .insufficientFundsBumped(
                    balance: sender.balance, queued: spent, bump: bump, bumpIsNegative: negative)
            }
        } else if balance < spent + cost {
            throw .insufficientFundsQueued(balance: sender.balance, queued: spent, cost: cost)
        }
        if let old = existing(sender: tx.sender, nonce: tx.nonce) {
            let feeThreshold = FeeMarket.scaled(old.maxFeePerGas, by: 100 + config.replacementBumpPercent, over: 100)
            let tipThreshold = FeeMarket.scaled(
                old.maxPriorityFeePerGas, by: 100 + config.replacementBumpPercent, over: 100)
            if tx.maxFeePerGas <= old.maxFeePerGas || tx.maxPriorityFeePerGas <= old.maxPriorityFeePerGas
                || tx.maxFeePerGas < feeThreshold || tx.maxPriorityFeePerGas < tipThreshold
            {
                throw .replacementUnderpriced
            }
        }
    }

    /// Per-sender and global limits after `tx` was inserted: the cheapest transaction at `baseFee` is evicted for a
    /// better one, otherwise the newcomer is refused (and removed again).
    mutating func enforceLimits(
        keeping tx: LedgerTransaction, config: ChainConfig, baseFee: UInt256, accountNonce: (Address) -> UInt64
    ) throws(LedgerError) {
        if (bySender[tx.sender]?.count ?? 0) > config.poolLimitPerSender {
            remove(tx.hash)
            throw .accountLimitExceeded
        }
        while count > config.poolLimitTotal || byteCount > config.poolByteLimit {
            guard let victim = cheapest(baseFee: baseFee, accountNonce: accountNonce) else { break }
            remove(victim.hash)
            if victim.hash == tx.hash { throw .poolFull }
        }
    }

    /// Evicts the cheapest transactions at `baseFee` until the pool is within its limits (requeued transactions
    /// after a reorg that did not fit).
    mutating func trim(config: ChainConfig, baseFee: UInt256, accountNonce: (Address) -> UInt64) {
        while count > config.poolLimitTotal || byteCount > config.poolByteLimit {
            guard let victim = cheapest(baseFee: baseFee, accountNonce: accountNonce) else { break }
            remove(victim.hash)
        }
    }

    /// Removes the transactions `drop` picks; returns their hashes.
    mutating func remove(where drop: (LedgerTransaction) -> Bool) -> [[UInt8]] {
        let victims = all.filter(drop).map(\.hash)
        for hash in victims { remove(hash) }
        return victims
    }
}

/// A transaction hash as a dictionary key: the 32 bytes in one `combine(bytes:)` (an `[UInt8]` key feeds the
/// hasher one byte at a time).
struct TransactionHashKey: Hashable, Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}

/// A binary max-heap of sender heads by (tip desc, arrival asc).
struct PriorityQueue {
    struct Item {
        var tip: UInt256
        var arrival: UInt64
        /// Which sender's run the transaction heads.
        var run: Int
        func outranks(_ other: Item) -> Bool { tip != other.tip ? tip > other.tip : arrival < other.arrival }
    }

    var items: [Item] = []

    mutating func push(_ item: Item) {
        items.append(item)
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].outranks(items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Item? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1
            let r = l + 1
            var best = i
            if l < items.count && items[l].outranks(items[best]) { best = l }
            if r < items.count && items[r].outranks(items[best]) { best = r }
            if best == i { break }
            items.swapAt(i, best)
            i = best
        }
        return top
    }
}
