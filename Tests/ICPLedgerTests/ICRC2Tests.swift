import ICPIdentity
import ICPLedger
import Testing

/// `icrc2_approve`, `icrc2_allowance` and `icrc2_transfer_from`.
@Suite struct ICRC2Tests {
    typealias F = Fixture

    @Test func approveSetsTheAllowanceAndBurnsTheFee() throws {
        var ledger = F.ledger()
        let spender = F.account(F.bob, 3)
        let approve = ApproveArgs(spender: spender, amount: 500_000, expiresAt: F.start + 100 * F.second)
        #expect(try ledger.run { try $0.icrc2Approve(caller: F.alice, approve, now: F.start) } == .success(2))
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: spender, now: F.start)
                == Allowance(allowance: 500_000, expiresAt: F.start + 100 * F.second))
        #expect(ledger.icrc1BalanceOf(F.account(F.alice)) == 1_000_000_000 - 10_000)
        // Approving again sets, not adds; expected_allowance must match the current allowance.
        var again = ApproveArgs(spender: spender, amount: 7, expectedAllowance: 1)
        #expect(
            try ledger.run { try $0.icrc2Approve(caller: F.alice, again, now: F.start) }
                == .failure(.allowanceChanged(currentAllowance: 500_000)))
        again.expectedAllowance = .aboveUInt64
        #expect(
            try ledger.run { try $0.icrc2Approve(caller: F.alice, again, now: F.start) }
                == .failure(.allowanceChanged(currentAllowance: 500_000)))
        again.expectedAllowance = 500_000
        #expect(try ledger.run { try $0.icrc2Approve(caller: F.alice, again, now: F.start) } == .success(3))
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: spender, now: F.start)
                == Allowance(allowance: 7, expiresAt: nil))
        // No approval for another spender; allowances beyond u64 are capped.
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: F.account(F.carol), now: F.start)
                == Allowance(allowance: 0, expiresAt: nil))
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: F.account(F.carol), amount: .aboveUInt64), now: F.start)
            }
                == .success(4))
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: F.account(F.carol), now: F.start).allowance
                == UInt64.max)
        #expect(
            ledger.block(at: 2)?.transaction.operation
                == .approve(
                    from: F.id(F.alice), spender: F.id(F.bob, 3), allowance: 500_000, expectedAllowance: nil,
                    expiresAt: F.start + 100 * F.second, fee: 10_000))
    }

    @Test func approveErrors() throws {
        var ledger = F.ledger()
        let spender = F.account(F.bob)
        #expect(
            try ledger.run {
                try $0.icrc2Approve(caller: F.alice, ApproveArgs(spender: spender, amount: 1, fee: 1), now: F.start)
            }
                == .failure(.badFee(expectedFee: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: spender, amount: 1, expiresAt: F.start), now: F.start)
            }
                == .failure(.expired(ledgerTime: F.start)))
        #expect(
            try ledger.run {
                try $0.icrc2Approve(caller: F.carol, ApproveArgs(spender: spender, amount: 1), now: F.start)
            }
                == .failure(.insufficientFunds(balance: 0)))
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: spender, amount: 1, expectedAllowance: 5), now: F.start)
            }
                == .failure(.allowanceChanged(currentAllowance: 0)))
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: spender, amount: 1, createdAtTime: F.start - F.window - 1),
                    now: F.start)
            }
                == .failure(.tooOld))
        let dated = ApproveArgs(spender: spender, amount: 1, createdAtTime: F.start)
        #expect(try ledger.run { try $0.icrc2Approve(caller: F.alice, dated, now: F.start) } == .success(2))
        #expect(
            try ledger.run { try $0.icrc2Approve(caller: F.alice, dated, now: F.start) }
                == .failure(.duplicate(duplicateOf: 2)))
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: spender, amount: 1, createdAtTime: F.start + 61 * F.second),
                    now: F.start)
            }
                == .failure(.createdInFuture(ledgerTime: F.start)))
        #expect(throws: LedgerTrap("self approval is not allowed")) {
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice,
                    ApproveArgs(fromSubaccount: Subaccount(index: 1), spender: F.account(F.alice), amount: 1),
                    now: F.start)
            }
        }
        #expect(throws: LedgerTrap("the minting account cannot delegate mints")) {
            try ledger.run {
                try $0.icrc2Approve(caller: F.minter, ApproveArgs(spender: spender, amount: 1), now: F.start)
            }
        }
        #expect(ledger.chainLength == 3)
    }

    @Test func expiryEndsTheAllowance() throws {
        var ledger = F.ledger()
        let spender = F.account(F.bob)
        let expiry = F.start + 10 * F.second
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: spender, amount: 100_000, expiresAt: expiry), now: F.start)
            }
                == .success(2))
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: spender, now: expiry - 1).allowance == 100_000)
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: spender, now: expiry)
                == Allowance(allowance: 0, expiresAt: nil))
        let pull = TransferFromArgs(from: F.account(F.alice), to: F.account(F.carol), amount: 1)
        #expect(
            try ledger.run { try $0.icrc2TransferFrom(caller: F.bob, pull, now: expiry) }
                == .failure(.insufficientAllowance(allowance: 0)))
        // An expired approval counts as zero for expected_allowance.
        #expect(
            try ledger.run {
                try $0.icrc2Approve(
                    caller: F.alice, ApproveArgs(spender: spender, amount: 5, expectedAllowance: 0), now: expiry)
            }
                == .success(3))
    }

    @Test func transferFromUsesAmountPlusFee() throws {
        var ledger = F.ledger()
        let spender = F.account(F.bob, 9)
        #expect(
            try ledger.run {
                try $0.icrc2Approve(caller: F.alice, ApproveArgs(spender: spender, amount: 100_000), now: F.start)
            }
                == .success(2))
        let pull = TransferFromArgs(
            spenderSubaccount: Subaccount(index: 9), from: F.account(F.alice), to: F.account(F.carol), amount: 50_000)
        #expect(try ledger.run { try $0.icrc2TransferFrom(caller: F.bob, pull, now: F.start) } == .success(3))
        #expect(ledger.icrc1BalanceOf(F.account(F.carol)) == 50_000)
        #expect(ledger.icrc1BalanceOf(F.account(F.alice)) == 1_000_000_000 - 10_000 - 60_000)
        #expect(ledger.icrc2Allowance(account: F.account(F.alice), spender: spender, now: F.start).allowance == 40_000)
        #expect(
            ledger.block(at: 3)?.transaction.operation
                == .transfer(
                    from: F.id(F.alice), to: F.id(F.carol), amount: 50_000, fee: 10_000, spender: F.id(F.bob, 9)))
        var more = pull
        more.amount = 30_001
        #expect(
            try ledger.run { try $0.icrc2TransferFrom(caller: F.bob, more, now: F.start) }
                == .failure(.insufficientAllowance(allowance: 40_000)))
        more.amount = 30_000
        #expect(try ledger.run { try $0.icrc2TransferFrom(caller: F.bob, more, now: F.start) } == .success(4))
        // The allowance is used up and removed.
        #expect(
            ledger.icrc2Allowance(account: F.account(F.alice), spender: spender, now: F.start)
                == Allowance(allowance: 0, expiresAt: nil))
        // Without the subaccount the caller is another spender.
        var other = pull
        other.spenderSubaccount = nil
        #expect(
            try ledger.run { try $0.icrc2TransferFrom(caller: F.bob, other, now: F.start) }
                == .failure(.insufficientAllowance(allowance: 0)))
    }

    @Test func transferFromErrorsAndBurns() throws {
        var ledger = F.ledger()
        let spender = F.account(F.carol)
        #expect(
            try ledger.run {
                try $0.icrc2Approve(caller: F.bob, ApproveArgs(spender: spender, amount: 1_000_000_000), now: F.start)
            }
                == .success(2))
        let from = F.account(F.bob)
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: from, to: F.account(F.alice), amount: 1, fee: 1),
                    now: F.start)
            }
                == .failure(.badFee(expectedFee: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: from, to: F.account(F.alice), amount: 99_990_000),
                    now: F.start)
            }
                == .failure(.insufficientFunds(balance: 99_990_000)))
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: from, to: F.account(F.alice), amount: .aboveUInt64),
                    now: F.start)
            }
                == .failure(.insufficientFunds(balance: 99_990_000)))
        // Burning on Bob's behalf: fee 0, the minimum burn, and only `amount` of the allowance.
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: from, to: F.minting, amount: 10_000, fee: 10_000),
                    now: F.start)
            }
                == .failure(.badFee(expectedFee: 0)))
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: from, to: F.minting, amount: 1), now: F.start)
            }
                == .failure(.badBurn(minBurnAmount: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: from, to: F.minting, amount: 10_000), now: F.start)
            }
                == .success(3))
        #expect(
            ledger.block(at: 3)?.transaction.operation
                == .burn(from: F.id(F.bob), amount: 10_000, spender: F.id(F.carol)))
        #expect(ledger.icrc2Allowance(account: from, spender: spender, now: F.start).allowance == 999_990_000)
        #expect(throws: LedgerTrap("the minter account cannot delegate mints")) {
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.carol, TransferFromArgs(from: F.minting, to: F.account(F.alice), amount: 1), now: F.start)
            }
        }
        let dated = TransferFromArgs(from: from, to: F.account(F.alice), amount: 1, createdAtTime: F.start)
        #expect(try ledger.run { try $0.icrc2TransferFrom(caller: F.carol, dated, now: F.start) } == .success(4))
        #expect(
            try ledger.run { try $0.icrc2TransferFrom(caller: F.carol, dated, now: F.start) }
                == .failure(.duplicate(duplicateOf: 4)))
        #expect(
            try ledger.run { try $0.icrc2TransferFrom(caller: F.carol, dated, now: F.start + F.window + 1) }
                == .failure(.tooOld))
        var future = dated
        future.createdAtTime = F.start + 61 * F.second
        #expect(
            try ledger.run { try $0.icrc2TransferFrom(caller: F.carol, future, now: F.start) }
                == .failure(.createdInFuture(ledgerTime: F.start)))
        // The owner may move its own funds through transfer_from without an approval.
        #expect(
            try ledger.run {
                try $0.icrc2TransferFrom(
                    caller: F.alice, TransferFromArgs(from: F.account(F.alice), to: from, amount: 5), now: F.start)
            }
                == .success(5))
    }
}
