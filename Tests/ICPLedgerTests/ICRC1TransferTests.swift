import ICPIdentity
import ICPLedger
import Testing

/// `icrc1_transfer` and the shared rules: fees, funds, mint and burn, memo, callers, deduplication with the
/// injected clock.
@Suite struct ICRC1TransferTests {
    typealias F = Fixture

    @Test func transferMovesAmountAndBurnsTheFee() throws {
        var ledger = F.ledger()
        #expect(ledger.chainLength == 2)
        #expect(ledger.icrc1TotalSupply == 1_100_000_000)
        let result = try ledger.run {
            try $0.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.carol, 7), amount: 250_000_000), now: F.start + 1)
        }
        #expect(result == .success(2))
        #expect(ledger.icrc1BalanceOf(F.account(F.alice)) == 1_000_000_000 - 250_000_000 - 10_000)
        #expect(ledger.icrc1BalanceOf(F.account(F.carol, 7)) == 250_000_000)
        #expect(ledger.icrc1BalanceOf(F.account(F.carol)) == 0)
        #expect(ledger.icrc1TotalSupply == 1_100_000_000 - 10_000)
        let block = try #require(ledger.block(at: 2))
        #expect(block.parentHash == ledger.block(at: 1)?.hash)
        #expect(ledger.tipHash == block.hash)
        #expect(block.timestamp == F.start + 1)
        #expect(
            block.transaction
                == Transaction(
                    operation: .transfer(
                        from: F.id(F.alice), to: F.id(F.carol, 7), amount: 250_000_000, fee: 10_000, spender: nil)))
        // An explicit fee equal to the ledger's is fine; a memo is recorded as icrc1_memo with memo 0.
        let withFee = try ledger.run {
            try $0.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.bob), amount: 1, fee: 10_000, memo: [1, 2, 3]),
                now: F.start + 2)
        }
        #expect(withFee == .success(3))
        #expect(ledger.block(at: 3)?.transaction.icrc1Memo == [1, 2, 3])
        #expect(ledger.block(at: 3)?.transaction.memo == 0)
    }

    @Test func badFeeAndInsufficientFunds() throws {
        var ledger = F.ledger()
        let to = F.account(F.carol)
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.alice, ICRC1TransferArgs(to: to, amount: 1, fee: 1), now: F.start)
            }
                == .failure(.badFee(expectedFee: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.alice, ICRC1TransferArgs(to: to, amount: 1, fee: .aboveUInt64), now: F.start)
            }
                == .failure(.badFee(expectedFee: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.bob, ICRC1TransferArgs(to: to, amount: 99_990_001), now: F.start)
            }
                == .failure(.insufficientFunds(balance: 100_000_000)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.bob, ICRC1TransferArgs(to: to, amount: 99_990_000), now: F.start)
            }
                == .success(2))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.alice, ICRC1TransferArgs(to: to, amount: .aboveUInt64), now: F.start)
            }
                == .failure(.insufficientFunds(balance: 1_000_000_000)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.carol, ICRC1TransferArgs(fromSubaccount: Subaccount(index: 1), to: to, amount: 1),
                    now: F.start)
            }
                == .failure(.insufficientFunds(balance: 0)))
        #expect(ledger.chainLength == 3)
        #expect(ledger.icrc1BalanceOf(F.account(F.bob)) == 0)
    }

    @Test func mintAndBurnThroughTheMintingAccount() throws {
        var ledger = F.ledger()
        let mint = try ledger.run {
            try $0.icrc1Transfer(
                caller: F.minter, ICRC1TransferArgs(to: F.account(F.carol), amount: 500), now: F.start)
        }
        #expect(mint == .success(2))
        #expect(ledger.block(at: 2)?.transaction.operation == .mint(to: F.id(F.carol), amount: 500))
        #expect(ledger.icrc1TotalSupply == 1_100_000_500)
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.minter, ICRC1TransferArgs(to: F.account(F.carol), amount: 5, fee: 10_000), now: F.start)
            }
                == .failure(.badFee(expectedFee: 0)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.minter, ICRC1TransferArgs(to: F.account(F.carol), amount: 5, fee: 0), now: F.start)
            }
                == .success(3))
        #expect(throws: LedgerTrap("It is illegal to mint to a minting_account")) {
            try ledger.run {
                try $0.icrc1Transfer(caller: F.minter, ICRC1TransferArgs(to: F.minting, amount: 5), now: F.start)
            }
        }

        // Burns: no fee, at least min(fee, balance), and never zero.
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.alice, ICRC1TransferArgs(to: F.minting, amount: 20_000, fee: 10_000), now: F.start)
            }
                == .failure(.badFee(expectedFee: 0)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.alice, ICRC1TransferArgs(to: F.minting, amount: 9_999), now: F.start)
            }
                == .failure(.badBurn(minBurnAmount: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.alice, ICRC1TransferArgs(to: F.minting, amount: 0), now: F.start)
            }
                == .failure(.badBurn(minBurnAmount: 10_000)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.alice, ICRC1TransferArgs(to: F.minting, amount: 10_000), now: F.start)
            }
                == .success(4))
        #expect(ledger.block(at: 4)?.transaction.operation == .burn(from: F.id(F.alice), amount: 10_000, spender: nil))
        #expect(ledger.icrc1BalanceOf(F.account(F.alice)) == 999_990_000)
        // Carol holds 505 e8s: she may burn 505 but not less, and not more.
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.carol, ICRC1TransferArgs(to: F.minting, amount: 504), now: F.start)
            }
                == .failure(.badBurn(minBurnAmount: 505)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.carol, ICRC1TransferArgs(to: F.minting, amount: 506), now: F.start)
            }
                == .failure(.insufficientFunds(balance: 505)))
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(caller: F.carol, ICRC1TransferArgs(to: F.minting, amount: 505), now: F.start)
            }
                == .success(5))
        #expect(ledger.icrc1TotalSupply == 1_100_000_000 - 10_000)
    }

    @Test func trapsForMemoAndAnonymousCaller() throws {
        var ledger = F.ledger()
        let to = F.account(F.carol)
        #expect(throws: LedgerTrap("the memo field size of 33 bytes is above the allowed limit of 32 bytes")) {
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.alice, ICRC1TransferArgs(to: to, amount: 1, memo: [UInt8](repeating: 0, count: 33)),
                    now: F.start)
            }
        }
        #expect(throws: LedgerTrap("Sending from 2vxsx-fae is not allowed")) {
            try ledger.run {
                try $0.icrc1Transfer(caller: .anonymous, ICRC1TransferArgs(to: to, amount: 1), now: F.start)
            }
        }
        var open = LedgerConfiguration(mintingAccount: F.minting)
        open.anonymousMaySend = true
        var anonymous = LedgerCanister(
            configuration: open, initialBalances: [(AccountIdentifier(principal: .anonymous), 50_000)], now: F.start)
        #expect(
            try anonymous.run {
                try $0.icrc1Transfer(caller: .anonymous, ICRC1TransferArgs(to: to, amount: 1), now: F.start)
            }
                == .success(1))
        #expect(ledger.chainLength == 2)
    }

    @Test func deduplicationWindowAndDrift() throws {
        var ledger = F.ledger()
        let now = F.start + 1000 * F.second
        let args = ICRC1TransferArgs(to: F.account(F.carol), amount: 1, createdAtTime: now)
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, args, now: now) } == .success(2))
        #expect(
            try ledger.run { try $0.icrc1Transfer(caller: F.alice, args, now: now + 5 * F.second) }
                == .failure(.duplicate(duplicateOf: 2)))
        // A different memo, amount or caller is a different transaction.
        var memo = args
        memo.memo = [1]
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, memo, now: now) } == .success(3))
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.bob, args, now: now) } == .success(4))
        // Without created_at_time nothing is deduplicated.
        let undated = ICRC1TransferArgs(to: F.account(F.carol), amount: 1)
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, undated, now: now) } == .success(5))
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, undated, now: now) } == .success(6))
        // Still a duplicate at the last instant of the window; too old just after it.
        #expect(
            try ledger.run { try $0.icrc1Transfer(caller: F.alice, args, now: now + F.window) }
                == .failure(.duplicate(duplicateOf: 2))
        )
        #expect(
            try ledger.run { try $0.icrc1Transfer(caller: F.alice, args, now: now + F.window + 1) } == .failure(.tooOld)
        )
        // 60 s of drift into the future is accepted, one nanosecond more is not.
        let drift = 60 * F.second
        var future = args
        future.createdAtTime = now + drift
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, future, now: now) } == .success(7))
        future.createdAtTime = now + drift + 1
        #expect(
            try ledger.run { try $0.icrc1Transfer(caller: F.alice, future, now: now) }
                == .failure(.createdInFuture(ledgerTime: now)))
    }

    @Test func configurableFeeAndWindow() throws {
        var configuration = LedgerConfiguration(mintingAccount: F.minting, transferFee: 5, transactionWindowNanos: 100)
        configuration.permittedDriftNanos = 0
        var ledger = LedgerCanister(configuration: configuration, initialBalances: [(F.id(F.alice), 1000)], now: 1000)
        #expect(ledger.transferFee == 5)
        #expect(
            try ledger.run {
                try $0.icrc1Transfer(
                    caller: F.alice, ICRC1TransferArgs(to: F.account(F.bob), amount: 1, fee: 10_000), now: 1000)
            }
                == .failure(.badFee(expectedFee: 5)))
        let args = ICRC1TransferArgs(to: F.account(F.bob), amount: 1, createdAtTime: 1000)
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, args, now: 1100) } == .success(1))
        #expect(try ledger.run { try $0.icrc1Transfer(caller: F.alice, args, now: 1101) } == .failure(.tooOld))
        var later = args
        later.createdAtTime = 1101
        #expect(
            try ledger.run { try $0.icrc1Transfer(caller: F.alice, later, now: 1100) }
                == .failure(.createdInFuture(ledgerTime: 1100)))
        #expect(ledger.icrc1BalanceOf(F.account(F.alice)) == 994)
    }
}
