import ICPIdentity
import KeyValueStorage

/// The ICP ledger canister's state machine (dfinity/ic `rs/ledger_suite/icp`): balances in e8s keyed by account
/// identifier, ICRC-2 allowances, a hash-chained block log and the deduplication index, with the legacy, ICRC-1
/// and ICRC-2 endpoints as methods that take the caller and the ledger time (nanoseconds) as arguments.
///
/// Deterministic and synchronous: no clock, no randomness, no networking. Every state change is one block, and
/// with a ``KeyValueStore`` attached (``open(configuration:store:initialBalances:now:)``) one atomic batch.
/// Calls the real ledger answers by trapping throw ``LedgerTrap``; ledger-level errors are `Err` values.
public struct LedgerCanister: Sendable {
    public var configuration: LedgerConfiguration
    var balances: [AccountIdentifier: UInt64] = [:]
    var approvals: [ApprovalKey: StoredApproval] = [:]
    public internal(set) var blocks: [Block] = []
    /// The hash of the last block (the certified tip), nil before the first block.
    public internal(set) var tipHash: [UInt8]?
    /// ICRC-1 total supply: everything minted minus everything burned (fees are burned on the ICP ledger).
    public internal(set) var totalSupply: UInt64 = 0
    /// Transaction hash → block index and `created_at_time`, for transactions still inside the window.
    var recentTransactions: [[UInt8]: RecentTransaction] = [:]
    /// The smallest `created_at_time` in ``recentTransactions``.
    var oldestRecent: TimestampNanos?
    let store: LedgerStore?

    struct ApprovalKey: Hashable, Sendable {
        var from: AccountIdentifier
        var spender: AccountIdentifier
    }

    struct StoredApproval: Hashable, Sendable {
        var amount: UInt64
        var expiresAt: TimestampNanos?
    }

    struct RecentTransaction: Hashable, Sendable {
        var index: UInt64
        var createdAtTime: TimestampNanos
    }

    /// A ledger in memory only. Each initial balance becomes a `Mint` block at `now`, as the ledger's init does.
    public init(
        configuration: LedgerConfiguration, initialBalances: [(AccountIdentifier, Tokens)] = [], now: TimestampNanos
    ) {
        self.configuration = configuration
        self.store = nil
        for (account, amount) in initialBalances {
            // Without a store nothing can fail but an overflow of the supply, which is a programmer error here.
            do { _ = try mint(to: account, amount: amount, now: now) } catch {
                preconditionFailure("initial balances overflow the supply: \(error)")
            }
        }
    }

    init(configuration: LedgerConfiguration, store: LedgerStore) {
        self.configuration = configuration
        self.store = store
    }

    // MARK: Reading

    /// The balance of an account identifier.
    public func balance(of account: AccountIdentifier) -> Tokens { Tokens(e8s: balances[account] ?? 0) }

    /// The allowance `spender` has on `from` at `now` (zero once expired), as `icrc2_allowance` reports it.
    public func allowance(from: AccountIdentifier, spender: AccountIdentifier, now: TimestampNanos) -> Allowance {
        guard let stored = approvals[ApprovalKey(from: from, spender: spender)] else {
            return Allowance(allowance: 0, expiresAt: nil)
        }
        if let expiresAt = stored.expiresAt, expiresAt <= now { return Allowance(allowance: 0, expiresAt: nil) }
        return Allowance(allowance: stored.amount, expiresAt: stored.expiresAt)
    }

    /// The number of blocks (`chain_length`).
    public var chainLength: UInt64 { UInt64(blocks.count) }

    func mayCall(_ caller: Principal) throws(LedgerTrap) {
        if caller.isAnonymous && !configuration.anonymousMaySend {
            throw LedgerTrap("Sending from \(caller) is not allowed")
        }
    }

    static func checkMemo(_ memo: [UInt8]?) throws(LedgerTrap) {
        if let memo, memo.count > LedgerConfiguration.maxMemoBytes {
            throw LedgerTrap(
                "the memo field size of \(memo.count) bytes is above the allowed limit of "
                    + "\(LedgerConfiguration.maxMemoBytes) bytes")
        }
    }

    // MARK: Applying a transaction (ledger_canister_core `apply_transaction` + ICP `apply_operation`)

    /// The changes one transaction makes, computed before anything is written.
    struct Delta {
        var balances: [AccountIdentifier: UInt64] = [:]
        var approvals: [ApprovalKey: StoredApproval?] = [:]
        var supply: UInt64
    }

    /// Checks the window, drift and duplicates (only when `created_at_time` is set), applies the operation,
    /// appends the block and persists it; returns the block index.
    mutating func apply(_ transaction: Transaction, now: TimestampNanos) throws(LedgerTrap) -> Result<
        UInt64, CommonFailure
    > {
        purgeRecentTransactions(now: now)
        let hash = transaction.hash
        if let createdAt = transaction.createdAtTime {
            let (end, overflow) = createdAt.addingReportingOverflow(configuration.transactionWindowNanos)
            if !overflow && end < now { return .failure(.tooOld) }
            let (latest, driftOverflow) = now.addingReportingOverflow(configuration.permittedDriftNanos)
            if !driftOverflow && createdAt > latest { return .failure(.createdInFuture(now: now)) }
            if let previous = recentTransactions[hash] { return .failure(.duplicate(of: previous.index)) }
        }
        var delta = Delta(supply: totalSupply)
        if let failure = try operate(transaction.operation, now: now, delta: &delta) { return .failure(failure) }

        let block = Block(parentHash: tipHash, transaction: transaction, timestamp: now)
        let index = UInt64(blocks.count)
        let blockHash = block.hash
        if let store { try store.commit(block: block, index: index, delta: delta) }
        for (account, balance) in delta.balances {
            balances[account] = balance == 0 ? nil : balance
        }
        for (key, approval) in delta.approvals { approvals[key] = approval }
        totalSupply = delta.supply
        blocks.append(block)
        tipHash = blockHash
        if let createdAt = transaction.createdAtTime { remember(hash, index: index, createdAtTime: createdAt) }
        return .success(index)
    }

    /// Drops deduplication entries whose `created_at_time` left the window (they would be `TooOld` anyway).
    /// Scans only when the oldest entry has expired, so most calls cost O(1).
    mutating func purgeRecentTransactions(now: TimestampNanos) {
        let window = configuration.transactionWindowNanos
        guard now > window, let oldestRecent, oldestRecent < now - window else { return }
        let oldest = now - window
        recentTransactions = recentTransactions.filter { $0.value.createdAtTime >= oldest }
        self.oldestRecent = recentTransactions.values.map(\.createdAtTime).min()
    }

    mutating func remember(_ hash: [UInt8], index: UInt64, createdAtTime: TimestampNanos) {
        recentTransactions[hash] = RecentTransaction(index: index, createdAtTime: createdAtTime)
        oldestRecent = min(oldestRecent ?? createdAtTime, createdAtTime)
    }

    func operate(_ operation: Operation, now: TimestampNanos, delta: inout Delta) throws(LedgerTrap) -> CommonFailure? {
        func balance(_ account: AccountIdentifier) -> UInt64 { delta.balances[account] ?? balances[account] ?? 0 }
        func currentAllowance(_ key: ApprovalKey) -> StoredApproval? {
            let stored = delta.approvals[key] ?? approvals[key]
            if let stored, let expiresAt = stored.expiresAt, expiresAt <= now { return nil }
            return stored
        }
        func useAllowance(_ key: ApprovalKey, _ amount: UInt64) {
            guard var stored = currentAllowance(key) else { return }
            stored.amount -= amount
            delta.approvals[key] = stored.amount == 0 ? .some(nil) : stored
        }

        switch operation {
        case .mint(let to, let amount):
            let (supply, supplyOverflow) = delta.supply.addingReportingOverflow(amount.e8s)
            let (credited, overflow) = balance(to).addingReportingOverflow(amount.e8s)
            guard !overflow, !supplyOverflow else { throw LedgerTrap("minting \(amount.e8s) e8s overflows the supply") }
            delta.balances[to] = credited
            delta.supply = supply

        case .burn(let from, let amount, let spender):
            let key = spender.map { ApprovalKey(from: from, spender: $0) }
            if let key, key.spender != from {
                let allowed = currentAllowance(key)?.amount ?? 0
                if allowed < amount.e8s { return .insufficientAllowance(allowance: allowed) }
            }
            let available = balance(from)
            guard available >= amount.e8s else { return .insufficientFunds(balance: available) }
            delta.balances[from] = available - amount.e8s
            delta.supply -= amount.e8s
            if let key, key.spender != from { useAllowance(key, amount.e8s) }

        case .transfer(let from, let to, let amount, let fee, let spender):
            let (total, overflow) = amount.e8s.addingReportingOverflow(fee.e8s)
            let key = spender.map { ApprovalKey(from: from, spender: $0) }
            if let key, key.spender != from {
                let allowed = currentAllowance(key)?.amount ?? 0
                if overflow || allowed < total { return .insufficientAllowance(allowance: allowed) }
            }
            let available = balance(from)
            guard !overflow, available >= total else { return .insufficientFunds(balance: available) }
            delta.balances[from] = available - total
            let (credited, creditOverflow) = balance(to).addingReportingOverflow(amount.e8s)
            guard !creditOverflow else { throw LedgerTrap("crediting \(amount.e8s) e8s overflows the balance") }
            delta.balances[to] = credited
            delta.supply -= fee.e8s
            if let key, key.spender != from { useAllowance(key, total) }

        case .approve(let from, let spender, let allowance, let expectedAllowance, let expiresAt, let fee):
            let available = balance(from)
            guard available >= fee.e8s else { return .insufficientFunds(balance: available) }
            if let expiresAt, expiresAt <= now { return .expired(now: now) }
            let key = ApprovalKey(from: from, spender: spender)
            let current = currentAllowance(key)?.amount ?? 0
            if let expectedAllowance, expectedAllowance.e8s != current { return .allowanceChanged(current: current) }
            delta.balances[from] = available - fee.e8s
            delta.supply -= fee.e8s
            delta.approvals[key] =
                allowance.e8s == 0 ? .some(nil) : StoredApproval(amount: allowance.e8s, expiresAt: expiresAt)
        }
        return nil
    }

    /// Mints `amount` to `to` as the minting account would, without deduplication (init balances, faucets).
    ///
    /// - Returns: the block index.
    @discardableResult
    public mutating func mint(
        to: AccountIdentifier, amount: Tokens, memo: UInt64 = 0, now: TimestampNanos
    ) throws(LedgerTrap) -> UInt64 {
        switch try apply(Transaction(operation: .mint(to: to, amount: amount), memo: memo), now: now) {
        case .success(let index): return index
        case .failure(let failure): throw LedgerTrap("mint failed: \(failure)")
        }
    }
}
