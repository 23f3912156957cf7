import EthereumTypes
import KeccakHashing
import MerkleTrie
import NativeContracts
import RLPCoding

/// How blocks are produced.
public enum MiningMode: Sendable, Equatable {
    /// A block as soon as transactions become executable (Anvil's default).
    case automatic
    /// A block every `seconds`, empty or not; the caller's timer calls ``Ledger/mineDue(now:)``.
    case interval(seconds: UInt64)
    /// Only on request (``Ledger/mine(blocks:now:)``).
    case manual
}

/// Where an included transaction lives.
public struct TransactionLocation: Sendable, Equatable {
    public var blockNumber: UInt64
    public var index: Int

    public init(blockNumber: UInt64, index: Int) {
        self.blockNumber = blockNumber
        self.index = index
    }
}

/// Where a ledger finds what it no longer holds in memory: its owner's store, read through a bounded cache. The
/// ledger asks only about blocks below its in-memory window (``Ledger/indexedFrom``); what cannot be read
/// answers nil.
public protocol BlockArchive: Sendable {
    /// The sealed block `number`.
    func block(number: UInt64) -> Block?
    /// The number of the block with `hash`.
    func blockNumber(hash: [UInt8]) -> UInt64?
    /// Where the included transaction `hash` is.
    func transactionLocation(hash: [UInt8]) -> TransactionLocation?
    /// The last history entry of `address` at or before block `number` (nil: none, the account did not exist).
    func historyEntry(of address: Address, atOrBefore number: UInt64) -> HistoryEntry?
    /// The totals after block `number` and the addresses whose state that block changed (their history entries).
    func blockRecord(number: UInt64) -> (totals: Totals, changed: [Address])?
}

/// The chain's state. The tables (accounts, history, blocks, pool) change only through the journaled
/// primitives of `Ledger+Journal.swift`; the rest is captured whole by a ``Checkpoint``.
struct ChainState: Sendable {
    var accounts: [Address: Account] = [:]
    /// Per-address state after each block from ``historyFrom`` on that changed it, for queries at past blocks and
    /// reorgs (older entries are in the archive).
    var history: [Address: [HistoryEntry]] = [:]
    var dirty: Set<Address> = []
    var stateTrie = PatriciaTrie()
    /// Blocks held in memory: all of them without an archive; with one, the head, the recent ones and every
    /// block a live snapshot may need (the rest are read from the archive). Always exactly
    /// ``indexedFrom``…``height``.
    var blocks: [UInt64: Block] = [:]
    /// The in-memory window: blocks from this one on are held with their hash and transaction index entries, totals
    /// and history entries; older ones are read from the archive. 0 without an archive (memory then grows with
    /// the chain).
    var indexedFrom: UInt64 = 0
    /// History entries from this block on are held in memory (with an archive: the block after ``indexedFrom``,
    /// so even a chain at its genesis block does not hold a million genesis accounts twice).
    var historyFrom: UInt64 = 0
    var height: UInt64 = 0
    var genesisHash: [UInt8] = []
    var blockNumbers: [[UInt8]: UInt64] = [:]
    var transactionIndex: [[UInt8]: TransactionLocation] = [:]
    var pool = TransactionPool()
    var burned = UInt256.zero
    var timeOffset: Int64 = 0
    var nextTimestamp: UInt64?
    var nextBaseFee: UInt256?
    /// evm_increaseTime's promise: the next block is at least this late, even when blocks ran ahead of the clock.
    var timestampFloor: UInt64?
    /// anvil_setBlockTimestampInterval: each next block is its parent's timestamp plus this.
    var blockTimestampInterval: UInt64?
    /// The clock when the head was sealed in this process (0 before): timers count from it while a block timestamp
    /// interval decouples block timestamps from the clock.
    var lastSealClock: UInt64 = 0
    /// Σ genesis balances + dev-method adjustments: Σ balances + burned always equals it.
    var supply = UInt256.zero
    /// (burned, supply) after each block from ``indexedFrom`` on, for reorgs.
    var totals: [Totals] = []
    /// Distinguishes replacement blocks after a reorg.
    var reorgCount: UInt64 = 0
}

/// The EVM-less Ethereum ledger: accounts, the transaction pool, EIP-1559 fees, exact gas accounting and
/// burning, block production with real tries. Deterministic and synchronous: the clock is an argument,
/// and nothing here knows about networking or storage.
///
/// It does no I/O: an owner that keeps the chain in a store (`PersistentLedger`) opens a change
/// (``beginChanges()``), lets the ledger work, reads what changed (``changes(since:)``), writes it as one batch
/// and then commits the change, or rolls the ledger back to the mark when the write fails.
public struct Ledger: Sendable {
    /// The chain's configuration. Its per-block parameters (``ChainParameters``: chain id, gas limit, coinbase) change
    /// at run time through developer methods (`Ledger+Parameters.swift`): they are state, captured by snapshots and
    /// persisted with the chain.
    public internal(set) var config: ChainConfig
    /// The chain id the chain was created with, before any ``setChainID(_:)``: a data directory is tied to it.
    public let configuredChainID: UInt64
    var state: ChainState
    var snapshots: [Snapshot] = []
    var nextSnapshotID: UInt64 = 1
    /// Table changes kept while a snapshot is live or a change is open (see `Ledger+Journal.swift`).
    var journal: [JournalEntry] = []
    var changeOpen = false
    /// Journal entries a revert inside the open change cancelled (dropped when the change commits).
    var collapsible: Range<Int>?
    public var miningMode: MiningMode = .automatic
    /// Where blocks released from memory are read back (set by an owner that writes them).
    public var archive: (any BlockArchive)?
    /// Σ genesis balances + dev-method adjustments: Σ balances + burned always equals it, to the wei.
    public var totalSupply: UInt256 { state.supply }

    /// A fresh chain from `genesis`. `PersistentLedger.open` (EthereumLedgerStorage) keeps one in a store.
    public init(config: ChainConfig = ChainConfig(), genesis: [GenesisAccount]) {
        self.config = config
        self.configuredChainID = config.chainID
        var state = ChainState()
        var supply = UInt256.zero
        for g in genesis {
            var account = state.accounts[g.address] ?? Account()
            account.balance = account.balance + g.balance
            account.nonce = g.nonce
            account.code = g.code
            state.accounts[g.address] = account
            supply = supply + g.balance
        }
        supply = supply + Self.nativeGenesis(config.nativeContracts, into: &state.accounts)
        var leaves: [(key: TrieKey, source: Account)] = []
        leaves.reserveCapacity(state.accounts.count)
        for (address, account) in state.accounts {
            if account.isInStateTrie { leaves.append((TrieKey(hashing: address.bytes), account)) }
            state.history[address] = [HistoryEntry(block: 0, account: account)]
        }
        leaves.sort { $0.key < $1.key }
        state.stateTrie = PatriciaTrie(
            sortedCount: leaves.count, key: { leaves[$0].key }, value: { leaves[$0].source.stateEncoding })
        var header = BlockHeader(
            parentHash: [UInt8](repeating: 0, count: 32), coinbase: config.coinbase,
            stateRoot: state.stateTrie.rootHash, transactionsRoot: PatriciaTrie.emptyRoot,
            receiptsRoot: PatriciaTrie.emptyRoot, number: 0, gasLimit: config.gasLimit, gasUsed: 0,
            timestamp: config.genesisTimestamp, extraData: config.extraData,
            mixHash: [UInt8](repeating: 0, count: 32), baseFeePerGas: config.genesisBaseFee)
        header.parentBeaconBlockRoot = [UInt8](repeating: 0, count: 32)
        let hash = header.hash
        state.blocks = [0: Block(header: header, hash: hash, transactions: [], receipts: [])]
        state.genesisHash = hash
        state.blockNumbers[hash] = 0
        state.supply = supply
        state.totals = [Totals(burned: .zero, supply: supply)]
        self.state = state
    }

    // MARK: - Queries

    public var head: Block {
        guard let head = state.blocks[state.height] else { preconditionFailure("the head block is always held") }
        return head
    }
    public var blockNumber: UInt64 { head.number }
    public var burned: UInt256 { state.burned }
    public var pool: TransactionPool { state.pool }

    /// Base fee of the next block (the "pending" block).
    public var nextBaseFee: UInt256 {
        if let fee = state.nextBaseFee { return fee }
        if config.fixedBaseFee { return head.header.baseFeePerGas }
        return FeeMarket.nextBaseFee(
            parentBaseFee: head.header.baseFeePerGas, parentGasUsed: head.header.gasUsed,
            parentGasLimit: head.header.gasLimit)
    }

    /// The account now (including changes not yet sealed into a block), or at the end of block `number`.
    public func account(_ address: Address, atBlock number: UInt64? = nil) -> Account {
        guard let number, number < blockNumber else { return state.accounts[address] ?? Account() }
        return sealedAccount(address, atBlock: number) ?? Account()
    }

    /// The account as block `number` left it (nil: it did not exist): from the history held in memory, or from
    /// the archive when the entry is older than the window.
    func sealedAccount(_ address: Address, atBlock number: UInt64) -> Account? {
        if let entries = state.history[address] {
            var low = 0
            var high = entries.count
            while low < high {
                let mid = (low + high) / 2
                if entries[mid].block <= number { low = mid + 1 } else { high = mid }
            }
            if low > 0 { return entries[low - 1].account }
        }
        guard state.historyFrom > 0, let entry = archive?.historyEntry(of: address, atOrBefore: number),
            entry.block < state.historyFrom
        else { return nil }
        return entry.account
    }

    /// Every address with state (the dev and genesis accounts, and everything touched since).
    public var addresses: [Address] { Array(state.accounts.keys) }

    /// The next nonce to use: the account nonce advanced over the sender's consecutive pool transactions.
    public func pendingNonce(_ address: Address) -> UInt64 {
        state.pool.pendingNonce(address, accountNonce: account(address).nonce)
    }

    public func block(number: UInt64) -> Block? {
        guard number <= state.height else { return nil }
        return state.blocks[number] ?? archive?.block(number: number)
    }

    /// Blocks held in memory (the rest are in the archive).
    public var blocksInMemory: Int { state.blocks.count }

    /// What the ledger holds in memory per chain item (the rest is in the archive): blocks, hash and transaction
    /// index entries, per-block totals and history entries.
    public var heldInMemory: (blocks: Int, blockHashes: Int, transactions: Int, totals: Int, historyEntries: Int) {
        (
            state.blocks.count, state.blockNumbers.count, state.transactionIndex.count, state.totals.count,
            state.history.values.reduce(0) { $0 + $1.count }
        )
    }

    /// The first block of the in-memory window: older blocks, their indexes, totals and history are read from the
    /// archive (0: everything is in memory).
    public var indexedFrom: UInt64 { state.indexedFrom }

    /// Releases what the archive holds, keeping the last `keep` blocks and every block the journal may make the
    /// head again (from the oldest live snapshot's head on, and the parent of every block it records): older
    /// blocks, their hash and transaction index entries, their totals, and the history entries up to the first
    /// block kept (a reorg or revert only undoes entries after its target). Without an archive nothing is
    /// released. Blocks go in steps of a quarter of the window, so the memory held swings by a quarter window.
    public mutating func releaseBlocks(keepingRecent keep: UInt64) {
        guard archive != nil, !changeOpen else { return }
        let blocksDue = state.blocks.count > Int(keep + max(1, keep / 4)) + 1
        guard blocksDue || state.historyFrom <= state.indexedFrom else { return }
        var floor = state.height > keep ? state.height - keep : 0
        for snapshot in snapshots { floor = min(floor, snapshot.checkpoint.height) }
        for entry in journal {
            switch entry {
            case .blockAppended(let block, _), .blockRemoved(let block, _): floor = min(floor, block.number - 1)
            default: continue
            }
        }
        floor = max(floor, state.indexedFrom)
        for number in state.indexedFrom..<floor {
            guard let block = state.blocks.removeValue(forKey: number) else { continue }
            state.blockNumbers[block.hash] = nil
            for tx in block.transactions { state.transactionIndex[tx.hash] = nil }
        }
        state.totals.removeFirst(Int(floor - state.indexedFrom))
        state.indexedFrom = floor
        guard floor + 1 > state.historyFrom else { return }
        // Addresses with entries after the floor keep those; the rest are dropped (the archive answers for them).
        state.history = state.history.compactMapValues { entries in
            guard let first = entries.first, first.block <= floor else { return entries }
            let kept = entries.drop { $0.block <= floor }
            return kept.isEmpty ? nil : Array(kept)
        }
        state.historyFrom = floor + 1
    }

    /// Brings blocks `range` back into the in-memory window (a reorg below it): the blocks, their indexes and
    /// totals, and the history entries after its first block; throws when one cannot be read.
    mutating func hold(_ range: ClosedRange<UInt64>) throws(LedgerError) {
        let from = range.lowerBound
        if from < state.indexedFrom {
            var totals: [Totals] = []
            for number in from..<state.indexedFrom {
                guard let block = archive?.block(number: number), let record = archive?.blockRecord(number: number)
                else { throw .storageFailure("cannot read block \(number)") }
                state.blocks[number] = block
                state.blockNumbers[block.hash] = number
                for (i, tx) in block.transactions.enumerated() {
                    state.transactionIndex[tx.hash] = TransactionLocation(blockNumber: number, index: i)
                }
                totals.append(record.totals)
            }
            state.totals.insert(contentsOf: totals, at: 0)
            state.indexedFrom = from
        }
        guard from + 1 < state.historyFrom else { return }
        var restored: [Address: [HistoryEntry]] = [:]
        for number in (from + 1)..<state.historyFrom {
            guard let record = archive?.blockRecord(number: number) else {
                throw .storageFailure("cannot read block \(number)")
            }
            for address in record.changed {
                guard let entry = archive?.historyEntry(of: address, atOrBefore: number), entry.block == number else {
                    throw .storageFailure("cannot read the history of \(address) at block \(number)")
                }
                restored[address, default: []].append(entry)
            }
        }
        for (address, entries) in restored { state.history[address] = entries + (state.history[address] ?? []) }
        state.historyFrom = from + 1
    }

    /// Every address a block after `number` changed: from the window's history and, below it, the archive's
    /// per-block records (nil when one cannot be read). Unsealed changes (the dirty set) are not included.
    func addressesChanged(after number: UInt64) -> Set<Address>? {
        var changed = Set<Address>()
        for (address, entries) in state.history where (entries.last?.block ?? 0) > number { changed.insert(address) }
        guard number + 1 < state.historyFrom else { return changed }
        for block in (number + 1)..<state.historyFrom {
            guard let record = archive?.blockRecord(number: block) else { return nil }
            changed.formUnion(record.changed)
        }
        return changed
    }

    /// Where the included transaction `hash` is: in the window, or in the archive below it.
    func location(_ hash: [UInt8]) -> TransactionLocation? {
        if let location = state.transactionIndex[hash] { return location }
        guard state.indexedFrom > 0, let location = archive?.transactionLocation(hash: hash),
            location.blockNumber < state.indexedFrom
        else { return nil }
        return location
    }

    public func block(hash: [UInt8]) -> Block? {
        if let number = state.blockNumbers[hash] { return block(number: number) }
        guard state.indexedFrom > 0, let number = archive?.blockNumber(hash: hash), number < state.indexedFrom,
            let block = block(number: number), block.hash == hash
        else { return nil }
        return block
    }

    /// A transaction by hash: included (with its location) or pending in the pool.
    public func transaction(_ hash: [UInt8]) -> (LedgerTransaction, TransactionLocation?)? {
        if let pending = state.pool.transaction(hash) { return (pending, nil) }
        guard let (_, block, loc) = included(hash) else { return nil }
        return (block.transactions[loc.index], loc)
    }

    public func receipt(_ hash: [UInt8]) -> (Receipt, Block)? {
        guard let (receipt, block, _) = included(hash) else { return nil }
        return (receipt, block)
    }

    /// An included transaction's receipt, block and location (checked against the block it names).
    func included(_ hash: [UInt8]) -> (Receipt, Block, TransactionLocation)? {
        guard let loc = location(hash), let block = block(number: loc.blockNumber), loc.index < block.receipts.count,
            block.transactions[loc.index].hash == hash
        else { return nil }
        return (block.receipts[loc.index], block, loc)
    }

    // MARK: - Admission

    /// The outcome of a submission.
    public struct Submission: Sendable {
        public var hash: [UInt8]
        /// The transaction it replaced in the pool, if any.
        public var replaced: [UInt8]?
        /// Blocks mined because of it (automatic mining).
        public var minedBlocks: [Block]
    }

    /// Validates `tx` with go-ethereum's pool rules and adds it to the pool; with automatic mining,
    /// mines the transactions that became executable.
    public mutating func submit(_ tx: LedgerTransaction, now: UInt64) throws(LedgerError) -> Submission {
        try submit(tx, now: now, mineNow: true)
    }

    /// As ``submit(_:now:)``; with `mineNow` false, automatic mining is left to the caller's next
    /// ``mineExecutable(now:)`` (so transactions arriving together can share a block, as in Anvil).
    public mutating func submit(_ tx: LedgerTransaction, now: UInt64, mineNow: Bool) throws(LedgerError) -> Submission {
        try validate(tx)
        let replaced = poolInsert(tx)
        try enforceLimits(keeping: tx)
        var mined: [Block] = []
        if miningMode == .automatic && mineNow {
            mined = try mineExecutable(now: now)
        }
        return Submission(hash: tx.hash, replaced: replaced, minedBlocks: mined)
    }

    /// Admission checks in go-ethereum's order (`txpool.ValidateTransaction`, `ValidateTransactionWithState`,
    /// `legacypool.add`).
    func validate(_ tx: LedgerTransaction) throws(LedgerError) {
        if state.pool.contains(tx.hash) { throw .alreadyKnown }
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
        let sender = account(tx.sender)
        if tx.nonce < sender.nonce { throw .nonceTooLow(next: sender.nonce, got: tx.nonce) }
        // geth's ValidateTransactionWithState: the cost alone, then with the sender's pending transactions (exact
        // amounts, as its big.Int texts print them); the replacement's fee bump is checked after (legacypool.add).
        let balance = WideAmount(sender.balance)
        let cost = tx.exactCost
        if balance < cost { throw .insufficientFunds(balance: sender.balance, cost: cost) }
        let spent = state.pool.pendingExpenditure(tx.sender, accountNonce: sender.nonce)
        if let previous = state.pool.pendingCost(tx.sender, nonce: tx.nonce, accountNonce: sender.nonce) {
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
        if let old = state.pool.existing(sender: tx.sender, nonce: tx.nonce) {
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

    /// Per-sender and global pool limits: the cheapest transaction is evicted for a better one, otherwise the
    /// newcomer is refused.
    mutating func enforceLimits(keeping tx: LedgerTransaction) throws(LedgerError) {
        if (state.pool.bySender[tx.sender]?.count ?? 0) > config.poolLimitPerSender {
            poolRemove(tx.hash)
            throw .accountLimitExceeded
        }
        while state.pool.count > config.poolLimitTotal || state.pool.byteCount > config.poolByteLimit {
            let fee = nextBaseFee
            guard let victim = state.pool.cheapest(baseFee: fee, accountNonce: { account($0).nonce }) else { break }
            poolRemove(victim.hash)
            if victim.hash == tx.hash { throw .poolFull }
        }
    }

    // MARK: - Mining

    /// Mines one block with every executable transaction (if any), as automatic mining does.
    public mutating func mineExecutable(now: UInt64) throws(LedgerError) -> [Block] {
        let executable = state.pool.executable(baseFee: nextBaseFee) { account($0).nonce }
        guard !executable.isEmpty else { return [] }
        var mined: [Block] = []
        // Keep mining while executable transactions remain (a full block leaves the rest for the next).
        var guardCount = 0
        while guardCount < 1_000 {
            let block = try seal(now: now)
            mined.append(block)
            guardCount += 1
            if block.transactions.isEmpty { break }
            if state.pool.executable(baseFee: nextBaseFee, accountNonce: { account($0).nonce }).isEmpty { break }
        }
        return mined
    }

    /// Mines `blocks` blocks (empty ones too), each with the executable transactions that fit.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for a negative count, or when `interval` spacing would take
    ///   the last timestamp past ``maxTimestamp``.
    public mutating func mine(blocks count: Int = 1, now: UInt64, interval: UInt64? = nil) throws(LedgerError)
        -> [Block]
    {
        guard count >= 0 else { throw .valueOutOfRange("block count \(count) must not be negative") }
        if let interval, count > 1 {
            let (span, o1) = interval.multipliedReportingOverflow(by: UInt64(count - 1))
            let (last, o2) = nextBlockTimestamp(now: now).addingReportingOverflow(span)
            guard !o1, !o2, last <= Self.maxTimestamp else {
                throw .valueOutOfRange(
                    "cannot mine \(count) blocks \(interval) seconds apart: timestamps may not pass "
                        + "\(Self.maxTimestamp) (9999-12-31T23:59:59Z)")
            }
        }
        var mined: [Block] = []
        mined.reserveCapacity(Swift.min(count, 1_024))
        for i in 0..<count {
            if let interval, i > 0 { state.nextTimestamp = head.header.timestamp + interval }
            mined.append(try seal(now: now))
        }
        return mined
    }

    /// The pending state, as geth's miner builds its pending block: the pool's executable transactions applied to
    /// a copy of this ledger and sealed as the next block (real roots, receipts and size). The copy does no I/O
    /// and keeps no snapshots or journal; the caller reads it and lets it go.
    public func pendingState(now: UInt64) -> (ledger: Ledger, block: Block) {
        var copy = self
        copy.snapshots = []
        copy.journal = []
        copy.changeOpen = false
        copy.collapsible = nil
        let block: Block
        do { block = try copy.seal(now: now) } catch {
            preconditionFailure("sealing a copy does no I/O and cannot fail: \(error)")
        }
        return (copy, block)
    }

    /// The timestamp the next block will get.
    public func nextBlockTimestamp(now: UInt64) -> UInt64 {
        if let t = state.nextTimestamp { return t }
        if let interval = state.blockTimestampInterval {
            return max(head.header.timestamp + interval, head.header.timestamp + 1, state.timestampFloor ?? 0)
        }
        let (sum, overflow) = Int64(clamping: now).addingReportingOverflow(state.timeOffset)
        let adjusted = overflow ? (state.timeOffset < 0 ? 0 : .max) : sum
        let wanted = adjusted < 0 ? 0 : UInt64(adjusted)
        return max(wanted, head.header.timestamp + 1, state.timestampFloor ?? 0)
    }

    /// Builds, executes and seals the next block.
    mutating func seal(now: UInt64) throws(LedgerError) -> Block {
        let parent = head
        let baseFee = nextBaseFee
        let number = parent.number + 1
        let timestamp = nextBlockTimestamp(now: now)
        state.nextTimestamp = nil
        state.timestampFloor = nil
        state.nextBaseFee = nil
        state.lastSealClock = now
        let candidates = state.pool.executable(baseFee: baseFee) { account($0).nonce }
        var included: [LedgerTransaction] = []
        var receipts: [Receipt] = []
        // Reserved: growing these arrays of ~300-byte values by doubling copied them about twice per block.
        included.reserveCapacity(candidates.count)
        receipts.reserveCapacity(candidates.count)
        var gasUsed: UInt64 = 0
        var skippedSenders: Set<Address> = []
        for tx in candidates {
            if skippedSenders.contains(tx.sender) { continue }
            guard gasUsed + tx.gasLimit <= config.gasLimit else {
                skippedSenders.insert(tx.sender)
                continue
            }
            let sender = account(tx.sender)
            guard sender.nonce == tx.nonce, let cost = tx.maximumCost, sender.balance >= cost else {
                // Funds spent since admission: geth drops such a transaction from the pending set.
                poolRemove(tx.hash)
                skippedSenders.insert(tx.sender)
                continue
            }
            let receipt: Receipt
            if let to = tx.to, config.nativeContracts.contract(at: to) != nil {
                let environment = BlockEnvironment(
                    number: number, timestamp: timestamp, baseFee: baseFee, chainID: config.chainID,
                    coinbase: config.coinbase, gasLimit: config.gasLimit)
                receipt = applyNative(tx, to: to, environment: environment, index: included.count, cumulative: gasUsed)
            } else {
                receipt = apply(tx, baseFee: baseFee, index: included.count, cumulative: gasUsed, blockNumber: number)
            }
            gasUsed += receipt.gasUsed
            included.append(tx)
            receipts.append(receipt)
            poolRemove(tx.hash)
        }
        for tx in included { poolPrune(tx.sender, accountNonce: account(tx.sender).nonce) }
        let stateRoot = commitDirtyAccounts(block: number)
        var bloom = LogsBloom.empty
        // A receipt without logs has an empty bloom: 256 byte ORs per transfer were a tenth of sealing a block.
        for r in receipts where !r.logs.isEmpty { for i in 0..<256 { bloom[i] |= r.logsBloom[i] } }
        var header = BlockHeader(
            parentHash: parent.hash, coinbase: config.coinbase, stateRoot: stateRoot,
            transactionsRoot: PatriciaTrie.orderedRoot(included.map(\.encoding)),
            receiptsRoot: PatriciaTrie.orderedRoot(receipts.map(\.encoding)),
            number: number, gasLimit: config.gasLimit, gasUsed: gasUsed, timestamp: timestamp,
            extraData: config.extraData, mixHash: mixHash(parent: parent), baseFeePerGas: baseFee)
        header.logsBloom = bloom
        header.parentBeaconBlockRoot = Keccak256.hash(parent.header.mixHash)
        let hash = header.hash
        for i in receipts.indices { receipts[i].blockNumber = number }
        let block = Block(header: header, hash: hash, transactions: included, receipts: receipts)
        appendBlock(block)
        return block
    }

    /// Executes a value transfer exactly as the execution specs charge it and returns its receipt.
    mutating func apply(
        _ tx: LedgerTransaction, baseFee: UInt256, index: Int, cumulative: UInt64, blockNumber: UInt64
    ) -> Receipt {
        let tip = tx.effectiveTip(baseFee: baseFee) ?? .zero
        let price = tx.effectiveGasPrice(baseFee: baseFee)
        let coinbaseTip = tx.usesGasPrice ? tx.maxFeePerGas - baseFee : tip
        let gasUsed = tx.gasUsed
        var sender = account(tx.sender)
        sender.balance = sender.balance - (UInt256(gasUsed) * price + tx.value)
        sender.nonce += 1
        setAccount(tx.sender, sender)
        var contractAddress: Address?
        if let to = tx.to {
            var recipient = account(to)
            recipient.balance = recipient.balance + tx.value
            setAccount(to, recipient)
        } else {
            let created = Self.contractAddress(sender: tx.sender, nonce: tx.nonce)
            var account = account(created)
            account.balance = account.balance + tx.value
            account.nonce = max(account.nonce, 1)
            setAccount(created, account)
            contractAddress = created
        }
        var coinbase = account(config.coinbase)
        coinbase.balance = coinbase.balance + UInt256(gasUsed) * coinbaseTip
        setAccount(config.coinbase, coinbase)
        state.burned = state.burned + UInt256(gasUsed) * baseFee
        // EIP-161: touched accounts left empty are removed.
        for touched in [tx.to, config.coinbase].compactMap({ $0 }) where account(touched).isEmpty {
            if state.accounts[touched] != nil {
                writeAccount(touched, nil)
                state.dirty.insert(touched)
            }
        }
        return Receipt(
            type: tx.type, status: true, cumulativeGasUsed: cumulative + gasUsed, gasUsed: gasUsed,
            effectiveGasPrice: price, logs: [], logsBloom: LogsBloom.empty, transactionHash: tx.hash,
            transactionIndex: index, blockNumber: blockNumber, from: tx.sender, to: tx.to,
            contractAddress: contractAddress)
    }

    /// prevRandao stand-in: deterministic, and different for replacement blocks after a reorg.
    func mixHash(parent: Block) -> [UInt8] {
        var seed = parent.hash
        if state.reorgCount > 0 {
            var e = RLPEncoder()
            e.appendUInt64(state.reorgCount)
            seed += e.bytes
        }
        return Keccak256.hash(seed)
    }

    /// keccak256(rlp([sender, nonce]))[12...] (Yellow Paper §7).
    public static func contractAddress(sender: Address, nonce: UInt64) -> Address {
        var e = RLPEncoder()
        e.appendList { l in
            l.appendBytes(sender.bytes)
            l.appendUInt64(nonce)
        }
        return Address(Keccak256.hash(e.bytes)[12...])!
    }

    mutating func setAccount(_ address: Address, _ account: Account) {
        writeAccount(address, account)
        state.dirty.insert(address)
    }

    /// Writes changed accounts into the state trie and their history; returns the new state root.
    mutating func commitDirtyAccounts(block: UInt64) -> [UInt8] {
        for address in state.dirty.sorted() {
            let key = Keccak256.hash(address.bytes)
            let account = state.accounts[address]
            if let account, account.isInStateTrie {
                state.stateTrie.set(key, account.stateEncoding)
            } else {
                state.stateTrie.remove(key)
            }
            appendHistory(address, HistoryEntry(block: block, account: account))
        }
        state.dirty.removeAll(keepingCapacity: true)
        return state.stateTrie.rootHash
    }

    /// Interval mining: mines a block if one is due at `now` (the server's timer calls this).
    public mutating func mineDue(now: UInt64) throws(LedgerError) -> [Block] {
        guard case .interval(let seconds) = miningMode else { return [] }
        if timerFollowsClock(now: now) { return clockTimerDue(interval: seconds, now: now) ? [try seal(now: now)] : [] }
        let (due, late) = head.header.timestamp.addingReportingOverflow(seconds)
        let (clock, overflow) = Int64(clamping: now).addingReportingOverflow(state.timeOffset)
        let adjusted = overflow ? (state.timeOffset < 0 ? Int64.min : .max) : clock
        guard !late, adjusted >= Int64(clamping: due) else { return [] }
        state.nextTimestamp = state.nextTimestamp ?? max(due, nextBlockTimestamp(now: now))
        return [try seal(now: now)]
    }
}
