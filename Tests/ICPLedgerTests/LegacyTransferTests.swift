import ICPIdentity
import ICPLedger
import Testing

/// ledger.did `transfer`, `account_balance` and the legacy error variants.
@Suite struct LegacyTransferTests {
    typealias F = Fixture

    @Test func transferAndErrors() throws {
        var ledger = F.ledger()
        let to = F.id(F.carol).bytes
        #expect(
            try ledger.run { try $0.transfer(caller: F.alice, TransferArgs(memo: 42, amount: 5, to: to), now: F.start) }
                == .success(2)
        )
        #expect(try ledger.accountBalance(account: to) == Tokens(e8s: 5))
        #expect(ledger.block(at: 2)?.transaction.memo == 42)
        #expect(ledger.block(at: 2)?.transaction.createdAtTime == F.start)
        #expect(
            try ledger.run { try $0.transfer(caller: F.alice, TransferArgs(amount: 5, fee: 1, to: to), now: F.start) }
                == .failure(.badFee(expectedFee: 10_000)))
        #expect(
            try ledger.run { try $0.transfer(caller: F.bob, TransferArgs(amount: 100_000_000, to: to), now: F.start) }
                == .failure(.insufficientFunds(balance: Tokens(e8s: 100_000_000))))
        // No created_at_time: stamped with the ledger time, so the same call in the same instant is a duplicate.
        #expect(
            try ledger.run { try $0.transfer(caller: F.alice, TransferArgs(memo: 42, amount: 5, to: to), now: F.start) }
                == .failure(.txDuplicate(duplicateOf: 2)))
        #expect(
            try ledger.run {
                try $0.transfer(caller: F.alice, TransferArgs(memo: 42, amount: 5, to: to), now: F.start + 1)
            }
                == .success(3))
        #expect(
            try ledger.run {
                try $0.transfer(
                    caller: F.alice, TransferArgs(amount: 5, to: to, createdAtTime: F.start - F.window - 1),
                    now: F.start)
            }
                == .failure(.txTooOld(allowedWindowNanos: F.window)))
        #expect(
            try ledger.run {
                try $0.transfer(
                    caller: F.alice, TransferArgs(amount: 5, to: to, createdAtTime: F.start + 61 * F.second),
                    now: F.start)
            }
                == .failure(.txCreatedInFuture))
    }

    @Test func mintBurnAndTraps() throws {
        var ledger = F.ledger()
        let minting = F.id(F.minter).bytes
        let carol = F.id(F.carol).bytes
        #expect(
            try ledger.run {
                try $0.transfer(caller: F.minter, TransferArgs(amount: 7, fee: 0, to: carol), now: F.start)
            }
                == .success(2))
        #expect(throws: LedgerTrap("Fee for minting should be zero")) {
            try ledger.run { try $0.transfer(caller: F.minter, TransferArgs(amount: 7, to: carol), now: F.start) }
        }
        #expect(throws: LedgerTrap("It is illegal to mint to a minting_account")) {
            try ledger.run {
                try $0.transfer(caller: F.minter, TransferArgs(amount: 7, fee: 0, to: minting), now: F.start)
            }
        }
        #expect(throws: LedgerTrap("Fee for burning should be zero")) {
            try ledger.run { try $0.transfer(caller: F.alice, TransferArgs(amount: 20_000, to: minting), now: F.start) }
        }
        #expect(throws: LedgerTrap("Burns lower than 0.0001 ICP are not allowed")) {
            try ledger.run {
                try $0.transfer(caller: F.alice, TransferArgs(amount: 9_999, fee: 0, to: minting), now: F.start)
            }
        }
        #expect(
            try ledger.run {
                try $0.transfer(caller: F.alice, TransferArgs(amount: 10_000, fee: 0, to: minting), now: F.start)
            }
                == .success(3))
        #expect(throws: LedgerTrap("Invalid account identifier: expected 32 bytes, got 28")) {
            try ledger.run {
                try $0.transfer(caller: F.alice, TransferArgs(amount: 1, to: F.id(F.carol).hash), now: F.start)
            }
        }
        var corrupted = carol
        corrupted[0] ^= 1
        #expect(throws: LedgerTrap.self) {
            try ledger.run { try $0.transfer(caller: F.alice, TransferArgs(amount: 1, to: corrupted), now: F.start) }
        }
        #expect(throws: LedgerTrap.self) { try ledger.accountBalance(account: corrupted) }
        #expect(throws: LedgerTrap("Sending from 2vxsx-fae is not allowed")) {
            try ledger.run { try $0.transfer(caller: .anonymous, TransferArgs(amount: 1, to: carol), now: F.start) }
        }
    }
}
