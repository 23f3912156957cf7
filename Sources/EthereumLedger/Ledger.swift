import EthereumTransactions
import EthereumTypes
import KeccakHashing
import MerkleTrie
import NativeContracts
import RLPCoding

/// The EVM-less Ethereum ledger: accounts, the transaction pool, EIP-1559 fees, exact gas accounting and burning,
/// block production with real tries. Deterministic and synchronous: the clock is an argument, and nothing here knows
/// about networking or storage.
///
/// A composition of small values, each owning one concern:
/// - ``ChainHistory`` (`chain`): the blocks, the block-hash and transaction-hash indexes, totals and per-address
///   history, read through its own interface (``ChainHistory/location(ofTransaction:)``, blocks by number or hash);
/// - ``WorldState`` (`world`): the accounts now, the state trie, burned wei and the supply;
/// - ``TransactionPool`` (`pool`): pending and queued transactions and their admission rules;
/// - ``BlockSchedule`` (`schedule`): the next block's timestamp and base fee rules (dev controls of time);
/// - ``ChainParameters`` (in `config`): chain id, gas limit and coinbase, changed at run time;
/// - `BlockExecution`: executes a block's transactions as a pure value, returning what they changed;
/// - `LedgerJournal`: the table changes kept for snapshots and for an owner's open change.
///
/// The facade's mutating operations are the only place these parts change together: every change to the tables
/// (accounts, history, blocks, pool slots) goes through the journaled primitives below, so a snapshot, a revert and
/// an owner's batch see all of it. It does no I/O: an owner that keeps the chain in a store (`PersistentLedger`) opens
/// a change (``beginChanges()``), lets the ledger work, reads what changed (``LedgerChanges/init(_:since:)``), writes
/// it as one batch and then commits the change, or rolls the ledger back to the mark when the write fails. The owner's
/// one lock covers the whole ledger.
public struct Ledger: Sendable {
    /// The chain's configuration. Its per-block parameters (``ChainParameters``: chain id, gas limit, coinbase) change
    /// at run time through developer methods: they are state, captured by snapshots and persisted with the chain.
    public internal(set) var config: ChainConfig
    /// The chain id the chain was created with, before any ``setChainID(_:)``: a data directory is tied to it.
    public let configuredChainID: UInt64
    /// The blocks and their history.
    public internal(set) var chain: ChainHistory
    /// The accounts now, burned wei and the supply.
    public internal(set) var world: WorldState
    /// Pending and queued transactions.
    public internal(set) var pool: TransactionPool
    /// The next block's timestamp and base fee rules.
    public internal(set) var schedule: BlockSchedule
    var journal: LedgerJournal
    public var miningMode: MiningMode = .automatic

    /// A fresh chain from `genesis`. `PersistentLedger.open` (EthereumLedgerStorage) keeps one in a store.
    public init(config: ChainConfig = ChainConfig(), genesis: [GenesisAccount]) {
        self.config = config
        self.configuredChainID = config.chainID
        let world = WorldState(genesis: genesis, contracts: config.nativeContracts)
        var header = BlockHeader(
            parentHash: [UInt8](repeating: 0, count: 32), coinbase: config.coinbase,
            stateRoot: world.trie.rootHash, transactionsRoot: PatriciaTrie.emptyRoot,
            receiptsRoot: PatriciaTrie.emptyRoot, number: 0, gasLimit: config.gasLimit, gasUsed: 0,
            timestamp: config.genesisTimestamp, extraData: config.extraData,
            mixHash: [UInt8](repeating: 0, count: 32), baseFeePerGas: config.genesisBaseFee)
        header.parentBeaconBlockRoot = [UInt8](repeating: 0, count: 32)
        self.chain = ChainHistory(
            genesis: Block(header: header, hash: header.hash, transactions: [], receipts: []),
            accounts: world.accounts, totals: Totals(burned: .zero, supply: world.supply))
        self.world = world
        self.pool = TransactionPool()
        self.schedule = BlockSchedule()
        self.journal = LedgerJournal()
    }

    /// A chain read back from a store. Accounts that differ from the state the head sealed are changes made after the
    /// last block (dev methods): they are sealed into the next block. Pool transactions the chain has since included
    /// are left out.
    ///
    /// - Throws: ``LedgerError/corruptDataDirectory(_:)`` when the blocks do not chain or the rebuilt state root
    ///   differs from the head block's.
    public init(config: ChainConfig, restoring stored: StoredChain) throws(LedgerError) {
        self.config = config
        self.configuredChainID = config.chainID
        if let parameters = stored.parameters { self.config.parameters = parameters }
        let totals =
            stored.totals.count == stored.blocks.count
            ? stored.totals
            : Array(repeating: Totals(burned: stored.burned, supply: stored.supply), count: stored.blocks.count)
        self.chain = try ChainHistory(
            restoring: stored.blocks, totals: totals, genesisHash: stored.genesisHash, history: stored.history)
        self.world = try WorldState(
            restoring: stored.accounts, sealed: stored.sealed, burned: stored.burned, supply: stored.supply,
            stateRoot: chain.head.header.stateRoot)
        self.pool = TransactionPool()
        self.schedule = BlockSchedule()
        self.journal = LedgerJournal()
        for tx in stored.pool where tx.nonce >= world.account(tx.sender).nonce { pool.insert(tx) }
        pool.log.removeAll()
    }

    // MARK: - Reads

    public var head: Block { chain.head }
    public var blockNumber: UInt64 { chain.height }
    public var burned: UInt256 { world.burned }
    /// Σ genesis balances + dev-method adjustments: Σ balances + burned always equals it, to the wei.
    public var totalSupply: UInt256 { world.supply }
    /// The chain's run-time parameters now.
    public var parameters: ChainParameters { config.parameters }
    /// The native contracts of this chain (tokens, Multicall3).
    public var nativeContracts: NativeContractRegistry { config.nativeContracts }

    /// Where blocks released from memory are read back (set by an owner that writes them).
    public var archive: (any BlockArchive)? {
        get { chain.archive }
        set { chain.archive = newValue }
    }

    /// Base fee of the next block (the "pending" block).
    public var nextBaseFee: UInt256 {
        if let fee = schedule.nextBaseFee { return fee }
        if config.fixedBaseFee { return head.header.baseFeePerGas }
        return FeeMarket.nextBaseFee(
            parentBaseFee: head.header.baseFeePerGas, parentGasUsed: head.header.gasUsed,
            parentGasLimit: head.header.gasLimit)
    }

    /// The account now (including changes not yet sealed into a block), or at the end of block `number`.
    public func account(_ address: Address, atBlock number: UInt64? = nil) -> Account {
        StateView.account(address, atBlock: number, world: world, chain: chain)
    }

    /// The storage word at `slot` of `address` now, or at the end of block `number` (`eth_getStorageAt`).
    public func storage(_ address: Address, slot: UInt256, atBlock number: UInt64? = nil) -> UInt256 {
        account(address, atBlock: number).storage[slot]
    }

    /// The next nonce to use: the account nonce advanced over the sender's consecutive pool transactions.
    public func pendingNonce(_ address: Address) -> UInt64 {
        pool.pendingNonce(address, accountNonce: account(address).nonce)
    }

    public func block(number: UInt64) -> Block? { chain.block(number: number) }

    public func block(hash: [UInt8]) -> Block? { chain.block(hash: hash) }

    /// A transaction by hash: included (with its location) or pending in the pool.
    public func transaction(_ hash: [UInt8]) -> (LedgerTransaction, TransactionLocation?)? {
        if let pending = pool.transaction(hash) { return (pending, nil) }
        guard let (_, block, location) = chain.included(hash) else { return nil }
        return (block.transactions[location.index], location)
    }

    public func receipt(_ hash: [UInt8]) -> (Receipt, Block)? {
        guard let (receipt, block, _) = chain.included(hash) else { return nil }
        return (receipt, block)
    }

    /// `holder`'s balance of `token` now or at the end of block `number` (zero for an address that is no token).
    public func tokenBalance(token address: Address, holder: Address, atBlock number: UInt64? = nil) -> UInt256 {
        guard let token = config.nativeContracts.token(at: address) else { return .zero }
        return storage(address, slot: token.profile.layout.balanceSlot(holder), atBlock: number)
    }

    /// Runs `request` as `eth_call` does, over the state at the end of block `number` (nil: the head, including
    /// unsealed developer changes), in that block's context; nothing changes.
    ///
    /// A call to an address without native code answers success with no data (an account without code, or genesis
    /// code Sandnet does not run), using its intrinsic gas.
    public func call(_ request: CallRequest, atBlock number: UInt64? = nil) -> CallOutcome {
        CallExecutor(config: config, world: world, chain: chain).call(request, atBlock: number)
    }

    /// The least gas limit with which `request` succeeds as a transaction (`eth_estimateGas`): gas used before the
    /// refund, at least the EIP-7623 floor. `request.gas` (or the block gas limit, capped per transaction) bounds it.
    public func estimateGas(_ request: CallRequest, atBlock number: UInt64? = nil) throws(EstimateGasError) -> UInt64 {
        try CallExecutor(config: config, world: world, chain: chain).estimateGas(request, atBlock: number)
    }

    /// The access list `request` needs over the state at the end of block `number` (nil: the head), as geth's
    /// `AccessList` builds it: run with the list so far until the touched set stops growing. The sender, the target
    /// (or the created address) and the precompiles are left out as accounts; storage words of any account are
    /// listed. A call to an address without native code touches nothing: the list is `given` without those
    /// addresses, and the gas is the intrinsic gas.
    public func createAccessList(
        _ request: CallRequest, given: [AccessListEntry] = [], nonce: UInt64, atBlock number: UInt64? = nil
    ) -> AccessListResult {
        CallExecutor(config: config, world: world, chain: chain).createAccessList(
            request, given: given, nonce: nonce, atBlock: number)
    }

    /// Proves `address` and its storage `slots` against the state at the end of block `number` (nil: the head); nil
    /// for a block more than ``StateProof/provableStateDepth`` below the head (see
    /// ``StateProof/init(proving:slots:world:chain:atBlock:)``).
    public func stateProof(_ address: Address, slots: [UInt256], atBlock number: UInt64? = nil) -> StateProof? {
        StateProof(proving: address, slots: slots, world: world, chain: chain, atBlock: number)
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

    // MARK: - Admission

    /// The outcome of a submission.
    public struct Submission: Sendable {
        public var hash: [UInt8]
        /// The transaction it replaced in the pool, if any.
        public var replaced: [UInt8]?
        /// Blocks mined because of it (automatic mining).
        public var minedBlocks: [Block]
    }

    /// Validates `tx` with go-ethereum's pool rules and adds it to the pool; with automatic mining (and `mineNow`),
    /// mines the transactions that became executable. With `mineNow` false, automatic mining is left to the caller's
    /// next ``mineExecutable(now:)`` (so transactions arriving together can share a block, as in Anvil).
    public mutating func submit(_ tx: LedgerTransaction, now: UInt64, mineNow: Bool = true) throws(LedgerError)
        -> Submission
    {
        try pool.validate(tx, sender: account(tx.sender), config: config)
        let replaced = poolInsert(tx)
        let world = world
        do {
            try pool.enforceLimits(keeping: tx, config: config, baseFee: nextBaseFee) { world.account($0).nonce }
        } catch {
            recordPoolChanges()
            throw error
        }
        recordPoolChanges()
        var mined: [Block] = []
        if miningMode == .automatic && mineNow { mined = try mineExecutable(now: now) }
        return Submission(hash: tx.hash, replaced: replaced, minedBlocks: mined)
    }

    // MARK: - Mining

    /// Mines one block with every executable transaction (if any), as automatic mining does.
    public mutating func mineExecutable(now: UInt64) throws(LedgerError) -> [Block] {
        guard !pool.executable(baseFee: nextBaseFee, accountNonce: { account($0).nonce }).isEmpty else { return [] }
        var mined: [Block] = []
        // Keep mining while executable transactions remain (a full block leaves the rest for the next).
        var guardCount = 0
        while guardCount < 1_000 {
            let block = try seal(now: now)
            mined.append(block)
            guardCount += 1
            if block.transactions.isEmpty { break }
            if pool.executable(baseFee: nextBaseFee, accountNonce: { account($0).nonce }).isEmpty { break }
        }
        return mined
    }

    /// Mines `blocks` blocks (empty ones too), each with the executable transactions that fit.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for a negative count, or when `interval` spacing would take
    ///   the last timestamp past ``BlockSchedule/maxTimestamp``.
    public mutating func mine(blocks count: Int = 1, now: UInt64, interval: UInt64? = nil) throws(LedgerError)
        -> [Block]
    {
        guard count >= 0 else { throw .valueOutOfRange("block count \(count) must not be negative") }
        let maxTimestamp = BlockSchedule.maxTimestamp
        if let interval, count > 1 {
            let (span, o1) = interval.multipliedReportingOverflow(by: UInt64(count - 1))
            let (last, o2) = nextBlockTimestamp(now: now).addingReportingOverflow(span)
            guard !o1, !o2, last <= maxTimestamp else {
                throw .valueOutOfRange(
                    "cannot mine \(count) blocks \(interval) seconds apart: timestamps may not pass "
                        + "\(maxTimestamp) (9999-12-31T23:59:59Z)")
            }
        }
        var mined: [Block] = []
        mined.reserveCapacity(Swift.min(count, 1_024))
        for i in 0..<count {
            if let interval, i > 0 { schedule.nextTimestamp = head.header.timestamp + interval }
            mined.append(try seal(now: now))
        }
        return mined
    }

    /// Interval mining: mines a block if one is due at `now` (the server's timer calls this).
    public mutating func mineDue(now: UInt64) throws(LedgerError) -> [Block] {
        guard case .interval(let seconds) = miningMode,
            schedule.intervalBlockDue(seconds: seconds, now: now, head: head.header)
        else { return [] }
        return [try seal(now: now)]
    }

    /// The pending state, as geth's miner builds its pending block: the pool's executable transactions applied to a
    /// copy of this ledger and sealed as the next block (real roots, receipts and size). The copy does no I/O and
    /// keeps no snapshots or journal; the caller reads it and lets it go.
    public func pendingState(now: UInt64) -> (ledger: Ledger, block: Block) {
        var copy = self
        copy.journal = journal.detached
        let block: Block
        do { block = try copy.seal(now: now) } catch {
            preconditionFailure("sealing a copy does no I/O and cannot fail: \(error)")
        }
        return (copy, block)
    }

    /// The timestamp the next block will get.
    public func nextBlockTimestamp(now: UInt64) -> UInt64 { schedule.nextBlockTimestamp(now: now, head: head.header) }

    /// Whether a timer block (interval mining, automine's empty-block interval) `interval` seconds after the head is
    /// due at `now`: by the next block's timestamp, or, while a block timestamp interval decouples timestamps from the
    /// clock, by the clock since the head was sealed (as Anvil's timer runs on the wall clock).
    ///
    /// The clock also decides when it reads earlier than the head (`anvil_setTime` into the past, or a data directory
    /// reopened after `evm_increaseTime`): block time would not reach the head + `interval` until the clock caught up,
    /// so the timer would stall.
    public func timerBlockDue(interval: UInt64, now: UInt64) -> Bool {
        schedule.timerBlockDue(interval: interval, now: now, head: head.header)
    }

    /// Builds, executes and seals the next block: `BlockExecution` computes what the pool's executable transactions
    /// change, and the result is applied through the journal.
    mutating func seal(now: UInt64) throws(LedgerError) -> Block {
        let parent = head
        let baseFee = nextBaseFee
        let number = parent.number + 1
        let timestamp = schedule.takeForSeal(now: now, head: parent.header)
        let candidates = pool.executable(baseFee: baseFee) { account($0).nonce }
        let executed = BlockExecution.run(
            candidates, over: world, chain: chain, contracts: config.nativeContracts,
            environment: BlockEnvironment(
                number: number, timestamp: timestamp, baseFee: baseFee, chainID: config.chainID,
                coinbase: config.coinbase, gasLimit: config.gasLimit))
        for hash in executed.dropped { poolRemove(hash) }
        apply(executed.accounts, burned: executed.burned)
        for tx in executed.included { poolRemove(tx.hash) }
        for tx in executed.included { poolPrune(tx.sender, accountNonce: account(tx.sender).nonce) }
        let stateRoot = commitDirtyAccounts(block: number)
        let block = executed.sealed(
            parent: parent, coinbase: config.coinbase, stateRoot: stateRoot, number: number,
            gasLimit: config.gasLimit, timestamp: timestamp, extraData: config.extraData,
            mixHash: mixHash(parent: parent),
            baseFee: baseFee, beaconRoot: Keccak256.hash(parent.header.mixHash))
        appendBlock(block)
        return block
    }

    /// prevRandao stand-in: deterministic, and different for replacement blocks after a reorg.
    func mixHash(parent: Block) -> [UInt8] {
        var seed = parent.hash
        if chain.reorgCount > 0 {
            var e = RLPEncoder()
            e.appendUInt64(chain.reorgCount)
            seed += e.bytes
        }
        return Keccak256.hash(seed)
    }

    // MARK: - Chain length: reorgs and rollbacks

    /// Removes the last `depth` blocks, returning their transactions to the pool (or dropping them), then mines
    /// `depth` replacement blocks so the height is unchanged (as `anvil_reorg` does). Replacement blocks have new
    /// hashes; requeued transactions are included again as the mining rules allow.
    public mutating func reorg(depth: Int, requeueTransactions: Bool, now: UInt64) throws(LedgerError) -> [Block] {
        try reorgReplacing(depth: depth, requeueTransactions: requeueTransactions, now: now).mined
    }

    /// As ``reorg(depth:requeueTransactions:now:)``, also returning the blocks it removed (whose logs subscribers and
    /// filters get again with `removed: true`).
    public mutating func reorgReplacing(
        depth: Int, requeueTransactions: Bool, now: UInt64
    ) throws(LedgerError) -> (removed: [Block], mined: [Block]) {
        guard depth > 0, UInt64(depth) <= blockNumber else { throw .invalidReorgDepth(height: blockNumber) }
        let removed = try rewind(to: blockNumber - UInt64(depth))
        if requeueTransactions {
            for block in removed { for tx in block.transactions { poolInsert(tx) } }
        }
        var mined: [Block] = []
        for timestamp in removed.map(\.header.timestamp) {
            schedule.nextTimestamp = max(timestamp, head.header.timestamp + 1)
            mined.append(try seal(now: now))
        }
        // Requeued transactions that did not fit must not leave the pool over its limits.
        let world = world
        pool.trim(config: config, baseFee: nextBaseFee) { world.account($0).nonce }
        recordPoolChanges()
        return (removed, mined)
    }

    /// Removes the last `depth` blocks (`anvil_rollback`), through the same rewind a reorg uses. Their transactions are
    /// not returned to the pool (Anvil leaves its pool alone); pool transactions whose sender's nonce went back stay,
    /// waiting for the gap. Pending timestamp promises are cleared; the clock offset is kept. Blocks mined afterwards
    /// at the same heights get new hashes.
    ///
    /// - Returns: the removed blocks (their logs go to subscribers and filters again with `removed: true`).
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when `depth` exceeds the chain height (Anvil's text).
    public mutating func rollback(depth: UInt64) throws(LedgerError) -> [Block] {
        guard depth <= blockNumber else {
            throw .valueOutOfRange(
                "Rollback depth must not exceed current chain height: current height \(blockNumber), depth \(depth)")
        }
        guard depth > 0 else { return [] }
        let removed = try rewind(to: blockNumber - depth)
        schedule.clearPromises()
        return removed
    }

    /// Takes the blocks after `target` off the chain (read back into memory first when released) and rolls the state
    /// back to the end of `target`; returns the removed blocks. Replacement blocks get new mix hashes.
    private mutating func rewind(to target: UInt64) throws(LedgerError) -> [Block] {
        try chain.hold(target...blockNumber)
        let removed = (target + 1...blockNumber).compactMap { chain.block(number: $0) }
        rewindState(to: target)
        chain.reorgCount += 1
        return removed
    }

    /// Rolls accounts, blocks and indexes back to the end of block `target`.
    mutating func rewindState(to target: UInt64) {
        while chain.height > target { removeLastBlock() }
        let totals = chain.totals(at: target)
        (world.burned, world.supply) = (totals.burned, totals.supply)
        // Unsealed dev changes are discarded too: restore every address changed after `target`.
        var changed = world.dirty
        changed.formUnion(chain.addressesWithHistory(after: target))
        for address in changed.sorted() {
            while let last = chain.lastHistoryEntry(address), last.block > target { removeLastHistory(address) }
            let restored = chain.account(address, atBlock: target)
            writeAccount(address, restored)
            WorldState.write(address, restored, into: &world.trie)
        }
        world.dirty.removeAll()
        for tx in pool.all { poolPrune(tx.sender, accountNonce: account(tx.sender).nonce) }
    }

    /// A copy at the end of block `number` (nil: the head) to simulate on (``SimulatedChain``): no snapshots, no
    /// journal; unsealed developer changes become part of the base state, as eth_call sees them. Nil when the block is
    /// more than ``StateProof/provableStateDepth`` below the head or cannot be read back.
    func simulationBase(atBlock number: UInt64?) -> Ledger? {
        var copy = self
        copy.journal = journal.detached
        if let number, number < blockNumber {
            guard blockNumber - number <= StateProof.provableStateDepth else { return nil }
            do { try copy.chain.hold(number...blockNumber) } catch { return nil }
            copy.rewindState(to: number)
        }
        _ = copy.commitDirtyAccounts(block: copy.blockNumber)
        return copy
    }

    /// A fresh chain from `genesis` and `config` (`anvil_reset`), keeping this ledger's mining mode and its snapshot
    /// numbering (so an id taken before the reset never names a snapshot taken after it).
    public func reset(config: ChainConfig, genesis: [GenesisAccount]) -> Ledger {
        var fresh = Ledger(config: config, genesis: genesis)
        fresh.miningMode = miningMode
        fresh.journal = journal.detached
        return fresh
    }

    // MARK: - Developer controls (Anvil's `anvil_*` / `evm_*`), each a journaled change

    /// Sets an account's balance now (`anvil_setBalance`); the supply follows so the conservation invariant holds.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when the total supply (Σ balances + burned) would pass
    ///   2^256 − 1: a total real Ethereum can never overflow, so it is refused rather than wrapped.
    public mutating func setBalance(_ address: Address, _ balance: UInt256) throws(LedgerError) {
        var account = account(address)
        let others = world.supply - account.balance
        let (supply, overflow) = others.addingReportingOverflow(balance)
        guard !overflow else {
            throw .valueOutOfRange(
                "balance \(balance) wei is too large: the total supply would exceed 2^256-1 wei "
                    + "(this account can hold at most \(UInt256.max - others) wei)")
        }
        world.supply = supply
        account.balance = balance
        setAccount(address, account)
    }

    /// Sets an account's nonce (`anvil_setNonce`); pool transactions below it are dropped.
    public mutating func setNonce(_ address: Address, _ nonce: UInt64) throws(LedgerError) {
        var account = account(address)
        account.nonce = nonce
        setAccount(address, account)
        poolPrune(address, accountNonce: nonce)
    }

    /// Gives an address code (genesis-style contract marker; never executed).
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for code longer than ``ChainConfig/maxTransactionSize`` (128 KiB,
    ///   the pool's limit on a transaction): more than EIP-170's 24,576 bytes, as Anvil allows test contracts, but
    ///   bounded.
    public mutating func setCode(_ address: Address, _ code: [UInt8]) throws(LedgerError) {
        guard code.count <= config.maxTransactionSize else {
            throw .valueOutOfRange(
                "code is \(code.count) bytes long: at most \(config.maxTransactionSize) bytes (the pool's transaction "
                    + "size limit) may be set")
        }
        var account = account(address)
        account.code = code
        setAccount(address, account)
    }

    /// Sets a storage word now (`anvil_setStorageAt`, `hardhat_setStorageAt`); sealed into the next block.
    public mutating func setStorage(_ address: Address, slot: UInt256, value: UInt256) {
        var account = account(address)
        account.storage[slot] = value
        setAccount(address, account)
    }

    /// Sets `holder`'s balance of `token` now (`anvil_dealERC20`, `anvil_setERC20Balance`), keeping the total
    /// supply consistent: the total-supply word moves by the difference, and for WETH9 (whose supply is its ETH)
    /// the contract's ETH balance and the chain's supply move with it. Sealed into the next block; no log.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for an address that is no token, or when the total supply
    ///   would pass 2^256 − 1 (or, for WETH9, the chain's ETH supply would).
    public mutating func setTokenBalance(token address: Address, holder: Address, amount: UInt256) throws(LedgerError) {
        guard let token = config.nativeContracts.token(at: address) else {
            throw .valueOutOfRange("\(address.checksummed) is not a native token")
        }
        let layout = token.profile.layout
        let slot = layout.balanceSlot(holder)
        let old = storage(address, slot: slot)
        if let supplySlot = layout.totalSupply {
            let others = storage(address, slot: supplySlot).subtractingReportingOverflow(old)
            let (supply, overflow) = others.partialValue.addingReportingOverflow(amount)
            guard !others.overflow, !overflow else {
                throw .valueOutOfRange(
                    "balance \(amount) is too large: \(token.symbol)'s total supply would exceed 2^256-1")
            }
            setStorage(address, slot: supplySlot, value: supply)
        } else {
            let contract = account(address)
            let backing = contract.balance.subtractingReportingOverflow(old)
            let (ether, overflow) = backing.partialValue.addingReportingOverflow(amount)
            guard !backing.overflow, !overflow else {
                throw .valueOutOfRange("balance \(amount) is too large for \(token.symbol)'s ETH backing")
            }
            try setBalance(address, ether)
        }
        setStorage(address, slot: slot, value: amount)
    }

    /// Sets `owner`'s allowance to `spender` on `token` now (`anvil_setERC20Allowance`); no log.
    public mutating func setTokenAllowance(
        token address: Address, owner: Address, spender: Address, amount: UInt256
    ) throws(LedgerError) {
        guard let token = config.nativeContracts.token(at: address) else {
            throw .valueOutOfRange("\(address.checksummed) is not a native token")
        }
        setStorage(address, slot: token.profile.layout.allowanceSlot(owner: owner, spender: spender), value: amount)
    }

    /// Fixes the next block's timestamp (`evm_setNextBlockTimestamp`); it must exceed the head's.
    public mutating func setNextTimestamp(_ timestamp: UInt64) throws(LedgerError) {
        try schedule.setNextTimestamp(timestamp, head: head.header)
    }

    /// Moves the clock forward (`evm_increaseTime`); returns the total offset in seconds.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` when the total offset or the next block's timestamp would
    ///   pass ``BlockSchedule/maxTimestamp``.
    @discardableResult
    public mutating func increaseTime(_ seconds: UInt64) throws(LedgerError) -> Int64 {
        try schedule.increaseTime(seconds, head: head.header)
    }

    /// Sets the clock so that now is `timestamp` (`anvil_setTime`, `evm_setTime`): later blocks follow the clock from
    /// there. A pending `evm_setNextBlockTimestamp` or `evm_increaseTime` promise is cleared, as Anvil clears it.
    /// Blocks never go back in time: a timestamp at or before the head's gives the next block the head's + 1.
    ///
    /// - Returns: Anvil's answer: seconds from the next block's timestamp before the call to `timestamp` (0 when
    ///   `timestamp` is earlier).
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` past ``BlockSchedule/maxTimestamp``.
    public mutating func setTime(_ timestamp: UInt64, now: UInt64) throws(LedgerError) -> UInt64 {
        try schedule.setTime(timestamp, now: now, head: head.header)
    }

    /// Gives each next block its parent's timestamp plus `seconds` (`anvil_setBlockTimestampInterval`), whatever the
    /// clock says. `evm_setNextBlockTimestamp` still fixes the next block, and `evm_increaseTime` still makes it at
    /// least that late; an interval of 0 still advances one second per block (timestamps must increase).
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` above ``BlockSchedule/maxMiningInterval`` (one year).
    public mutating func setBlockTimestampInterval(_ seconds: UInt64) throws(LedgerError) {
        try schedule.setBlockTimestampInterval(seconds)
    }

    /// Removes the block timestamp interval (`anvil_removeBlockTimestampInterval`); false when none was set.
    public mutating func removeBlockTimestampInterval() -> Bool { schedule.removeBlockTimestampInterval() }

    /// Fixes the next block's base fee (`anvil_setNextBlockBaseFeePerGas`).
    public mutating func setNextBaseFee(_ fee: UInt256) { schedule.nextBaseFee = fee }

    /// Switches to interval mining every `seconds` (`evm_setIntervalMining`), or to manual mining for 0.
    public mutating func setIntervalMining(_ seconds: UInt64) throws(LedgerError) {
        try BlockSchedule.checkInterval(seconds)
        miningMode = seconds == 0 ? .manual : .interval(seconds: seconds)
    }

    /// Sets the coinbase of the blocks sealed from now on (`anvil_setCoinbase`): they name it and their priority fees
    /// go to it.
    public mutating func setCoinbase(_ coinbase: Address) { config.coinbase = coinbase }

    /// Sets the gas limit of the blocks sealed from now on (`anvil_setBlockGasLimit`). Pool transactions whose gas
    /// limit exceeds it are dropped, as geth's pool drops them on a new head (they could never be included).
    ///
    /// - Returns: the hashes of the dropped transactions.
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` outside ``ChainParameters/minimumGasLimit``…
    ///   ``ChainParameters/maximumGasLimit``.
    @discardableResult
    public mutating func setGasLimit(_ gasLimit: UInt64) throws(LedgerError) -> [[UInt8]] {
        try ChainParameters.checkGasLimit(gasLimit)
        config.gasLimit = gasLimit
        defer { recordPoolChanges() }
        return pool.remove { $0.gasLimit > gasLimit }
    }

    /// Sets the chain id (`anvil_setChainId`): `eth_chainId` and `net_version` answer it and transactions must be
    /// signed for it. Pool transactions signed for another chain id are dropped (they could never be included);
    /// unprotected legacy ones (no chain id) stay.
    ///
    /// - Returns: the hashes of the dropped transactions.
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for 0 or above ``ChainParameters/maximumChainID``.
    @discardableResult
    public mutating func setChainID(_ chainID: UInt64) throws(LedgerError) -> [[UInt8]] {
        try ChainParameters.checkChainID(chainID)
        config.chainID = chainID
        defer { recordPoolChanges() }
        return pool.remove { tx in tx.chainID.map { $0 != chainID } ?? false }
    }

    /// Removes a transaction from the pool (`anvil_dropTransaction`); false if it is not pending.
    @discardableResult
    public mutating func dropTransaction(_ hash: [UInt8]) -> Bool { poolRemove(hash) != nil }

    // MARK: - Snapshots (`evm_snapshot`, `evm_revert`)

    /// Takes a snapshot (`evm_snapshot`): O(1); returns its id. From then on the ledger journals its table changes, so
    /// the snapshot holds memory in proportion to what changes after it.
    public mutating func snapshot() -> UInt64 { journal.takeSnapshot(checkpoint, headHash: head.hash) }

    /// Restores snapshot `id` (`evm_revert`); it and every later snapshot are consumed, and the journal they held is
    /// released. O(changes since the snapshot). False if unknown.
    public mutating func revert(to id: UInt64) throws(LedgerError) -> Bool {
        guard let (undo, checkpoint) = journal.revert(to: id) else { return false }
        for entry in undo { applyEntry(entry) }
        restore(checkpoint)
        return true
    }

    /// Live snapshots by id: the head's number and hash when each was taken (`anvil_metadata`).
    public var snapshotHeads: [(id: UInt64, number: UInt64, hash: [UInt8])] {
        journal.snapshots.map { ($0.id, $0.checkpoint.height, $0.headHash) }
    }

    // MARK: - Owners: open a change, read it, commit it or roll it back

    /// Opens a change: everything the ledger does until ``commitChanges(_:)`` or ``rollBack(to:)`` is journaled, so an
    /// owner can write it as one batch (``LedgerChanges/init(_:since:)``), or undo it when the write fails.
    public mutating func beginChanges() -> ChangeMark { journal.begin(checkpoint) }

    /// Undoes everything since `mark`: the ledger is as it was when the change was opened.
    public mutating func rollBack(to mark: ChangeMark) {
        for entry in journal.rollBack(to: mark) { applyEntry(entry) }
        restore(mark.checkpoint)
    }

    /// Closes the change (it was written): keeps only the journal live snapshots still need.
    public mutating func commitChanges(_ mark: ChangeMark) { journal.commit() }

    /// Live snapshots and the journal entries kept for them (memory held for `evm_revert`).
    public var retainedChanges: (snapshots: Int, journalEntries: Int) {
        (journal.snapshots.count, journal.entries.count)
    }

    /// Releases what the archive holds, keeping the last `keep` blocks and every block the journal may make the head
    /// again (from the oldest live snapshot's head on, and the parent of every block it records). Without an archive
    /// nothing is released. Blocks go in steps of a quarter of the window, so the memory held swings by a quarter
    /// window.
    public mutating func releaseBlocks(keepingRecent keep: UInt64) {
        guard chain.archive != nil, !journal.changeOpen, chain.releaseDue(keepingRecent: keep) else { return }
        chain.release(below: journal.lowestHead(below: chain.height > keep ? chain.height - keep : 0))
    }

    // MARK: - Journaled primitives: every change to the tables goes through these

    /// The part of the state a snapshot or an open change captures whole.
    private var checkpoint: Checkpoint {
        Checkpoint(
            stateTrie: world.trie, dirty: world.dirty, burned: world.burned, supply: world.supply, schedule: schedule,
            parameters: parameters, reorgCount: chain.reorgCount, poolArrivals: pool.arrivals, height: chain.height)
    }

    private mutating func restore(_ c: Checkpoint) {
        world.trie = c.stateTrie
        world.dirty = c.dirty
        world.burned = c.burned
        world.supply = c.supply
        let sealClock = schedule.lastSealClock
        schedule = c.schedule
        schedule.lastSealClock = sealClock
        config.parameters = c.parameters
        chain.reorgCount = c.reorgCount
        pool.arrivals = c.poolArrivals
    }

    /// Applies `entry` to the tables (forward).
    private mutating func applyEntry(_ entry: JournalEntry) {
        switch entry {
        case .account(let address, _, let new): world.set(address, new)
        case .historyAppended(let address, let item): chain.appendHistory(address, item)
        case .historyRemoved(let address, _): chain.removeLastHistory(address)
        case .blockAppended(let block, let totals): chain.append(block, totals: totals)
        case .blockRemoved(let block, _): chain.removeLast(block)
        case .poolSlot(let change):
            pool.setSlot(change.sender, change.nonce, change.new)
            pool.log.removeAll(keepingCapacity: true)
        }
    }

    private mutating func record(_ entry: JournalEntry) {
        applyEntry(entry)
        journal.append(entry)
    }

    /// Moves the pool's slot changes into the journal.
    private mutating func recordPoolChanges() {
        if journal.recording { for change in pool.log { journal.append(.poolSlot(change)) } }
        pool.log.removeAll(keepingCapacity: true)
    }

    private mutating func writeAccount(_ address: Address, _ account: Account?) {
        record(.account(address, old: world.existing(address), new: account))
    }

    mutating func setAccount(_ address: Address, _ account: Account) {
        writeAccount(address, account)
        world.dirty.insert(address)
    }

    /// Applies what a block's execution wrote: each account, and the wei it burned.
    mutating func apply(_ accounts: [Address: Account?], burned: UInt256) {
        for (address, account) in accounts {
            writeAccount(address, account)
            world.dirty.insert(address)
        }
        world.burned = world.burned + burned
    }

    /// Writes changed accounts into the state trie and their history; returns the new state root.
    mutating func commitDirtyAccounts(block: UInt64) -> [UInt8] {
        let (root, changed) = world.commitDirty()
        for (address, account) in changed {
            record(.historyAppended(address, HistoryEntry(block: block, account: account)))
        }
        return root
    }

    private mutating func removeLastHistory(_ address: Address) {
        guard let last = chain.lastHistoryEntry(address) else { return }
        record(.historyRemoved(address, last))
    }

    mutating func appendBlock(_ block: Block) {
        record(.blockAppended(block, Totals(burned: world.burned, supply: world.supply)))
    }

    private mutating func removeLastBlock() { record(.blockRemoved(head, chain.totals(at: chain.height))) }

    @discardableResult
    private mutating func poolInsert(_ tx: LedgerTransaction) -> [UInt8]? {
        defer { recordPoolChanges() }
        return pool.insert(tx)
    }

    @discardableResult
    private mutating func poolRemove(_ hash: [UInt8]) -> LedgerTransaction? {
        defer { recordPoolChanges() }
        return pool.remove(hash)
    }

    private mutating func poolPrune(_ sender: Address, accountNonce: UInt64) {
        pool.prune(sender, accountNonce: accountNonce)
        recordPoolChanges()
    }
}
