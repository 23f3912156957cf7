import ICPIdentity

/// The ICP ledger canister's state machine (dfinity/ic `rs/ledger_suite/icp`): balances in e8s keyed by account
/// identifier, ICRC-2 allowances, a hash-chained block log and the deduplication index, with the legacy, ICRC-1
/// and ICRC-2 endpoints as methods that take the caller and the ledger time (nanoseconds) as arguments.
///
/// A pure value: no clock, no randomness, no networking, no storage. A call that changes the ledger does not change
/// this value; it returns its answer with a ``LedgerChanges`` (the blocks it appends and what they change), which
/// the ledger's owner writes as one batch and then ``commit(_:)``s, like swift-nio's state machines returning
/// actions. Calls the real ledger answers by trapping throw ``LedgerTrap``; ledger-level errors are `Err` values.
public struct LedgerCanister: Sendable, Equatable {
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

    /// Whose allowance on whose account: the key of an approval (for the ledger's storage).
    package struct ApprovalKey: Hashable, Sendable {
        package var from: AccountIdentifier
        package var spender: AccountIdentifier

        package init(from: AccountIdentifier, spender: AccountIdentifier) {
            self.from = from
            self.spender = spender
        }
    }

    /// An approval as the ledger keeps it (expired ones stay until they are replaced or used up).
    package struct StoredApproval: Hashable, Sendable {
        package var amount: UInt64
        package var expiresAt: TimestampNanos?

        package init(amount: UInt64, expiresAt: TimestampNanos?) {
            self.amount = amount
            self.expiresAt = expiresAt
        }
    }

    struct RecentTransaction: Hashable, Sendable {
        var index: UInt64
        var createdAtTime: TimestampNanos
    }

    /// An empty ledger: no blocks, no balances.
    public init(configuration: LedgerConfiguration) {
        self.configuration = configuration
    }

    /// A ledger in memory. Each initial balance becomes a `Mint` block at `now`, as the ledger's init does.
    public init(
        configuration: LedgerConfiguration, initialBalances: [(AccountIdentifier, Tokens)] = [], now: TimestampNanos
    ) {
        self.init(configuration: configuration)
        // Nothing can fail but an overflow of the supply, which is a programmer error here.
        do { commit(try minting(initialBalances, now: now)) } catch {
            preconditionFailure("initial balances overflow the supply: \(error)")
        }
    }

    /// A ledger read back from storage: `blocks` (already checked to chain), the balances, approvals and total
    /// supply they left; the tip and the deduplication index are rebuilt from the blocks as of `now`.
    package init(
        configuration: LedgerConfiguration, blocks: [Block], balances: [AccountIdentifier: UInt64],
        approvals: [ApprovalKey: StoredApproval], totalSupply: UInt64, now: TimestampNanos
    ) {
        self.configuration = configuration
        self.blocks = blocks
        self.balances = balances
        self.approvals = approvals
        self.totalSupply = totalSupply
        tipHash = blocks.last?.hash
        for (index, block) in blocks.enumerated() {
            if let createdAt = block.transaction.createdAtTime {
                remember(block.transaction.hash, index: UInt64(index), createdAtTime: createdAt)
            }
        }
        purgeRecentTransactions(now: now)
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

    // MARK: Committing

    /// Applies changes computed on this ledger (by an endpoint, ``mint(to:amount:memo:now:)`` or ``minting(_:now:)``)
    /// once its owner has written them: appends the blocks, sets the balances, approvals and supply, and updates the
    /// deduplication index. Changes computed on another state are a programmer error.
    public mutating func commit(_ changes: LedgerChanges) {
        precondition(
            changes.firstIndex == chainLength && changes.parentHash == tipHash,
            "changes computed at block \(changes.firstIndex) committed at block \(chainLength)")
        for (account, balance) in changes.balances { balances[account] = balance == 0 ? nil : balance }
        for (key, approval) in changes.approvals { approvals[key] = approval }
        totalSupply = changes.totalSupply
        blocks.append(contentsOf: changes.blocks)
        tipHash = changes.tipHash
        purgeRecentTransactions(now: changes.now)
        for entry in changes.recentTransactions {
            remember(entry.hash, index: entry.index, createdAtTime: entry.createdAtTime)
        }
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

    // MARK: Applying a transaction (ledger_canister_core `apply_transaction` + ICP `apply_operation`)

    /// The changes of one transaction on this ledger: its answer, and the changes when it made a block.
    func applying(
        _ transaction: Transaction, now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerOutcome<Result<UInt64, CommonFailure>> {
        var changes = LedgerChanges(on: self, now: now)
        let result = try apply(transaction, now: now, onto: &changes)
        guard case .success = result else { return LedgerOutcome(result) }
        return LedgerOutcome(result, changes: changes)
    }

    /// Checks the window, drift and duplicates (only when `created_at_time` is set), applies the operation on top of
    /// `changes` and appends the block to them; returns the block index. On a failure `changes` are as they were.
    func apply(
        _ transaction: Transaction, now: TimestampNanos, onto changes: inout LedgerChanges
    ) throws(LedgerTrap) -> Result<UInt64, CommonFailure> {
        let hash = transaction.hash
        if let createdAt = transaction.createdAtTime {
            let (end, overflow) = createdAt.addingReportingOverflow(configuration.transactionWindowNanos)
            if !overflow && end < now { return .failure(.tooOld) }
            let (latest, driftOverflow) = now.addingReportingOverflow(configuration.permittedDriftNanos)
            if !driftOverflow && createdAt > latest { return .failure(.createdInFuture(now: now)) }
            // An entry older than the window has the `created_at_time` of a transaction that is `TooOld` above.
            if let previous = recentTransactions[hash] { return .failure(.duplicate(of: previous.index)) }
            if let previous = changes.recentTransactions.first(where: { $0.hash == hash }) {
                return .failure(.duplicate(of: previous.index))
            }
        }
        var next = changes
        if let failure = try operate(transaction.operation, now: now, changes: &next) { return .failure(failure) }
        let index = next.firstIndex + UInt64(next.blocks.count)
        let block = Block(parentHash: next.tipHash, transaction: transaction, timestamp: now)
        next.blocks.append(block)
        next.tipHash = block.hash
        if let createdAt = transaction.createdAtTime {
            next.recentTransactions.append(.init(hash: hash, index: index, createdAtTime: createdAt))
        }
        changes = next
        return .success(index)
    }

    func operate(
        _ operation: Operation, now: TimestampNanos, changes delta: inout LedgerChanges
    ) throws(LedgerTrap) -> CommonFailure? {
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
            let (supply, supplyOverflow) = delta.totalSupply.addingReportingOverflow(amount.e8s)
            let (credited, overflow) = balance(to).addingReportingOverflow(amount.e8s)
            guard !overflow, !supplyOverflow else { throw LedgerTrap("minting \(amount.e8s) e8s overflows the supply") }
            delta.balances[to] = credited
            delta.totalSupply = supply

        case .burn(let from, let amount, let spender):
            let key = spender.map { ApprovalKey(from: from, spender: $0) }
            if let key, key.spender != from {
                let allowed = currentAllowance(key)?.amount ?? 0
                if allowed < amount.e8s { return .insufficientAllowance(allowance: allowed) }
            }
            let available = balance(from)
            guard available >= amount.e8s else { return .insufficientFunds(balance: available) }
            delta.balances[from] = available - amount.e8s
            delta.totalSupply -= amount.e8s
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
            delta.totalSupply -= fee.e8s
            if let key, key.spender != from { useAllowance(key, total) }

        case .approve(let from, let spender, let allowance, let expectedAllowance, let expiresAt, let fee):
            let available = balance(from)
            guard available >= fee.e8s else { return .insufficientFunds(balance: available) }
            if let expiresAt, expiresAt <= now { return .expired(now: now) }
            let key = ApprovalKey(from: from, spender: spender)
            let current = currentAllowance(key)?.amount ?? 0
            if let expectedAllowance, expectedAllowance.e8s != current { return .allowanceChanged(current: current) }
            delta.balances[from] = available - fee.e8s
            delta.totalSupply -= fee.e8s
            delta.approvals[key] =
                allowance.e8s == 0 ? .some(nil) : StoredApproval(amount: allowance.e8s, expiresAt: expiresAt)
        }
        return nil
    }

    /// Mints `amount` to `to` as the minting account would, without deduplication (faucets).
    ///
    /// - Returns: the block index, with the changes to write and commit.
    /// - Throws: ``LedgerTrap`` when the mint overflows the supply or the balance.
    public func mint(
        to: AccountIdentifier, amount: Tokens, memo: UInt64 = 0, now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerOutcome<UInt64> {
        var changes = LedgerChanges(on: self, now: now)
        let index = try mint(to: to, amount: amount, memo: memo, now: now, onto: &changes)
        return LedgerOutcome(index, changes: changes)
    }

    /// Mints every balance in order, one `Mint` block each, as one change set (the ledger's init: written as one
    /// batch, a ledger in a store has all of its initial balances or none).
    ///
    /// - Throws: ``LedgerTrap`` when the balances overflow the supply.
    public func minting(_ balances: [(AccountIdentifier, Tokens)], now: TimestampNanos) throws(LedgerTrap)
        -> LedgerChanges
    {
        var changes = LedgerChanges(on: self, now: now)
        for (account, amount) in balances {
            _ = try mint(to: account, amount: amount, memo: 0, now: now, onto: &changes)
        }
        return changes
    }

    func mint(
        to: AccountIdentifier, amount: Tokens, memo: UInt64, now: TimestampNanos, onto changes: inout LedgerChanges
    ) throws(LedgerTrap) -> UInt64 {
        switch try apply(Transaction(operation: .mint(to: to, amount: amount), memo: memo), now: now, onto: &changes) {
        case .success(let index): return index
        case .failure(let failure): throw LedgerTrap("mint failed: \(failure)")
        }
    }
}
