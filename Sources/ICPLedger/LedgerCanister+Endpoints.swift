import ICPIdentity

/// The update methods of ledger.did, ICRC-1 and ICRC-2, with the ICP ledger's checks in its order
/// (dfinity/ic `rs/ledger_suite/icp/ledger/src/main.rs`: `send`, `icrc1_send_not_async`,
/// `icrc2_approve_not_async`, `icrc2_transfer_from`). Each returns its answer with the changes to write and
/// ``LedgerCanister/commit(_:)`` (none for an `Err`); the ledger itself does not change.
extension LedgerCanister {
    /// Legacy `transfer`. A missing `created_at_time` is stamped with the ledger time (ledger.did), so two identical
    /// transfers at the same ledger time are duplicates, as on the real ledger within one round.
    ///
    /// - Returns: the block index (with the block's changes), or ledger.did `TransferError`.
    /// - Throws: ``LedgerTrap`` for an anonymous caller, a `to` that is not a 32-byte account identifier with a
    ///   valid checksum, a non-zero fee on a mint or burn, minting to the minting account, or a burn below the fee.
    public func transfer(
        caller: Principal, _ args: TransferArgs, now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerOutcome<Result<UInt64, TransferError>> {
        try mayCall(caller)
        let to = try Self.accountIdentifier(blob: args.to)
        let from = AccountIdentifier(principal: caller, subaccount: args.fromSubaccount)
        let minting = configuration.mintingAccountIdentifier
        let operation: Operation
        if from == minting {
            guard args.fee == .zero else { throw LedgerTrap("Fee for minting should be zero") }
            guard to != minting else { throw LedgerTrap("It is illegal to mint to a minting_account") }
            operation = .mint(to: to, amount: args.amount)
        } else if to == minting {
            guard args.fee == .zero else { throw LedgerTrap("Fee for burning should be zero") }
            guard args.amount >= configuration.transferFee else {
                throw LedgerTrap("Burns lower than \(configuration.transferFee) are not allowed")
            }
            operation = .burn(from: from, amount: args.amount, spender: nil)
        } else {
            guard args.fee == configuration.transferFee else {
                return .failure(.badFee(expectedFee: configuration.transferFee))
            }
            operation = .transfer(from: from, to: to, amount: args.amount, fee: args.fee, spender: nil)
        }
        let transaction = Transaction(operation: operation, memo: args.memo, createdAtTime: args.createdAtTime ?? now)
        return try applying(transaction, now: now).mapFailure { failure in
            switch failure {
            case .tooOld: return .txTooOld(allowedWindowNanos: configuration.transactionWindowNanos)
            case .createdInFuture: return .txCreatedInFuture
            case .duplicate(let index): return .txDuplicate(duplicateOf: index)
            case .insufficientFunds(let balance): return .insufficientFunds(balance: Tokens(e8s: balance))
            case .insufficientAllowance, .allowanceChanged, .expired:
                preconditionFailure("a legacy transfer has no spender or approval: \(failure)")
            }
        }
    }

    /// `icrc1_transfer`. Transfers from the minting account mint, transfers to it burn; neither takes a fee.
    ///
    /// - Returns: the block index (with the block's changes), or ICRC-1 `TransferError`.
    /// - Throws: ``LedgerTrap`` for an anonymous caller, a memo over 32 bytes, or minting to the minting account.
    public func icrc1Transfer(
        caller: Principal, _ args: ICRC1TransferArgs, now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerOutcome<Result<UInt64, ICRC1TransferError>> {
        try mayCall(caller)
        try Self.checkMemo(args.memo)
        let from = AccountIdentifier(principal: caller, subaccount: args.fromSubaccount)
        let to = AccountIdentifier(args.to)
        guard let amount = args.amount.uint64 else {
            return .failure(.insufficientFunds(balance: balance(of: from).e8s))
        }
        let minting = configuration.mintingAccountIdentifier
        let fee = configuration.transferFee.e8s
        let operation: Operation
        if from == minting {
            if let given = args.fee, given != .exact(0) { return .failure(.badFee(expectedFee: 0)) }
            guard to != minting else { throw LedgerTrap("It is illegal to mint to a minting_account") }
            operation = .mint(to: to, amount: Tokens(e8s: amount))
        } else if to == minting {
            if let given = args.fee, given != .exact(0) { return .failure(.badFee(expectedFee: 0)) }
            if let failure = burnFailure(amount: amount, from: from) {
                return .failure(.badBurn(minBurnAmount: failure))
            }
            operation = .burn(from: from, amount: Tokens(e8s: amount), spender: nil)
        } else {
            if let given = args.fee, given != .exact(fee) { return .failure(.badFee(expectedFee: fee)) }
            operation = .transfer(from: from, to: to, amount: Tokens(e8s: amount), fee: Tokens(e8s: fee), spender: nil)
        }
        let transaction = Transaction(operation: operation, icrc1Memo: args.memo, createdAtTime: args.createdAtTime)
        return try applying(transaction, now: now).mapFailure { failure in
            switch failure {
            case .tooOld: return .tooOld
            case .createdInFuture(let ledgerTime): return .createdInFuture(ledgerTime: ledgerTime)
            case .duplicate(let index): return .duplicate(duplicateOf: index)
            case .insufficientFunds(let balance): return .insufficientFunds(balance: balance)
            case .insufficientAllowance, .allowanceChanged, .expired:
                preconditionFailure("an ICRC-1 transfer has no spender or approval: \(failure)")
            }
        }
    }

    /// The smallest burn allowed, if `amount` is below it: `min(fee, balance)`, and the fee for a zero burn.
    func burnFailure(amount: UInt64, from: AccountIdentifier) -> UInt64? {
        let fee = configuration.transferFee.e8s
        if amount == 0 { return fee }
        let minimum = min(fee, balance(of: from).e8s)
        return amount < minimum ? minimum : nil
    }

    /// `icrc2_approve`: sets (not adds) the allowance of `spender` on the caller's account; the fee is burned
    /// from the caller. A past `expires_at` is `Expired`; a differing `expected_allowance` is `AllowanceChanged`.
    ///
    /// - Returns: the block index (with the block's changes), or ICRC-2 `ApproveError`.
    /// - Throws: ``LedgerTrap`` for an anonymous caller, a memo over 32 bytes, self-approval (same owner) or an
    ///   approval from the minting account.
    public func icrc2Approve(
        caller: Principal, _ args: ApproveArgs, now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerOutcome<Result<UInt64, ApproveError>> {
        try mayCall(caller)
        guard caller != args.spender.owner else { throw LedgerTrap("self approval is not allowed") }
        let from = AccountIdentifier(principal: caller, subaccount: args.fromSubaccount)
        guard from != configuration.mintingAccountIdentifier else {
            throw LedgerTrap("the minting account cannot delegate mints")
        }
        try Self.checkMemo(args.memo)
        let spender = AccountIdentifier(args.spender)
        let fee = configuration.transferFee.e8s
        if let given = args.fee, given != .exact(fee) { return .failure(.badFee(expectedFee: fee)) }
        var expected: Tokens?
        switch args.expectedAllowance {
        case .none: expected = nil
        case .exact(let n): expected = Tokens(e8s: n)
        case .aboveUInt64:
            return .failure(
                .allowanceChanged(currentAllowance: allowance(from: from, spender: spender, now: now).allowance))
        }
        // Allowances above u64 are capped, as the ledger stores 64-bit amounts.
        let amount = args.amount.uint64 ?? UInt64.max
        let operation = Operation.approve(
            from: from, spender: spender, allowance: Tokens(e8s: amount), expectedAllowance: expected,
            expiresAt: args.expiresAt, fee: Tokens(e8s: fee))
        let transaction = Transaction(operation: operation, icrc1Memo: args.memo, createdAtTime: args.createdAtTime)
        return try applying(transaction, now: now).mapFailure { failure in
            switch failure {
            case .tooOld: return .tooOld
            case .createdInFuture(let ledgerTime): return .createdInFuture(ledgerTime: ledgerTime)
            case .duplicate(let index): return .duplicate(duplicateOf: index)
            case .insufficientFunds(let balance): return .insufficientFunds(balance: balance)
            case .allowanceChanged(let current): return .allowanceChanged(currentAllowance: current)
            case .expired(let ledgerTime): return .expired(ledgerTime: ledgerTime)
            case .insufficientAllowance: preconditionFailure("an approval spends no allowance")
            }
        }
    }

    /// `icrc2_transfer_from`: the caller (with `spender_subaccount`) moves `amount` from `from` to `to`, using
    /// `amount + fee` of its allowance (just `amount` for a burn to the minting account) unless it owns `from`.
    ///
    /// - Returns: the block index (with the block's changes), or ICRC-2 `TransferFromError`.
    /// - Throws: ``LedgerTrap`` for an anonymous caller, a memo over 32 bytes, or `from` the minting account.
    public func icrc2TransferFrom(
        caller: Principal, _ args: TransferFromArgs, now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerOutcome<Result<UInt64, TransferFromError>> {
        try mayCall(caller)
        try Self.checkMemo(args.memo)
        let spender = AccountIdentifier(principal: caller, subaccount: args.spenderSubaccount)
        let from = AccountIdentifier(args.from)
        let to = AccountIdentifier(args.to)
        let minting = configuration.mintingAccountIdentifier
        guard from != minting else { throw LedgerTrap("the minter account cannot delegate mints") }
        guard let amount = args.amount.uint64 else {
            return .failure(.insufficientFunds(balance: balance(of: from).e8s))
        }
        let fee = configuration.transferFee.e8s
        let operation: Operation
        if to == minting {
            if let given = args.fee, given != .exact(0) { return .failure(.badFee(expectedFee: 0)) }
            if let failure = burnFailure(amount: amount, from: from) {
                return .failure(.badBurn(minBurnAmount: failure))
            }
            operation = .burn(from: from, amount: Tokens(e8s: amount), spender: spender)
        } else {
            if let given = args.fee, given != .exact(fee) { return .failure(.badFee(expectedFee: fee)) }
            operation = .transfer(
                from: from, to: to, amount: Tokens(e8s: amount), fee: Tokens(e8s: fee), spender: spender)
        }
        let transaction = Transaction(operation: operation, icrc1Memo: args.memo, createdAtTime: args.createdAtTime)
        return try applying(transaction, now: now).mapFailure { failure in
            switch failure {
            case .tooOld: return .tooOld
            case .createdInFuture(let ledgerTime): return .createdInFuture(ledgerTime: ledgerTime)
            case .duplicate(let index): return .duplicate(duplicateOf: index)
            case .insufficientFunds(let balance): return .insufficientFunds(balance: balance)
            case .insufficientAllowance(let allowance): return .insufficientAllowance(allowance: allowance)
            case .allowanceChanged, .expired: preconditionFailure("a transfer_from sets no approval")
            }
        }
    }

    /// A legacy 32-byte account identifier blob, checksum verified; anything else traps as the ledger does.
    static func accountIdentifier(blob: [UInt8]) throws(LedgerTrap) -> AccountIdentifier {
        guard blob.count == 32 else {
            throw LedgerTrap("Invalid account identifier: expected 32 bytes, got \(blob.count)")
        }
        do { return try AccountIdentifier(bytes: blob) } catch {
            throw LedgerTrap("Invalid account identifier: \(error)")
        }
    }
}
