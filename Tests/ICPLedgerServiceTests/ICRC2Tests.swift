import CandidCoding
import ICPIdentity
import ICPLedger
import Testing

@testable import ICPLedgerService

/// `icrc2_approve`, `icrc2_allowance`, `icrc2_transfer_from` and `get_allowances` through Candid bytes.
@Suite struct ICRC2Tests {
    typealias F = Fixture

    @Test func approveAllowanceAndEveryApproveError() throws {
        var service = F.service()
        let bob = F.account(F.bob)
        let expiry = F.start + 3600 * F.second
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: bob, amount: 500_000, expiresAt: expiry)]) == F.ok(2))
        #expect(
            try service.call(
                "icrc2_allowance",
                [F.record([("account", F.account(F.account(F.alice))), ("spender", F.account(bob))])])
                == F.record([("allowance", F.nat(500_000)), ("expires_at", F.some(.nat64(expiry)))]))
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: bob, amount: 1, fee: 5)])
                == F.err("BadFee", [("expected_fee", F.nat(10_000))]))
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: F.account(F.alice), amount: 1)], caller: F.carol)
                == F.err("InsufficientFunds", [("balance", F.nat(0))]))
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: bob, amount: 1, expected: 499_999)])
                == F.err("AllowanceChanged", [("current_allowance", F.nat(500_000))]))
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: bob, amount: 1, expiresAt: F.start - 1)])
                == F.err("Expired", [("ledger_time", .nat64(F.start))]))
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: bob, amount: 1, createdAt: F.start - F.window - 1)])
                == F.err("TooOld"))
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: bob, amount: 1, createdAt: F.start + 61 * F.second)])
                == F.err("CreatedInFuture", [("ledger_time", .nat64(F.start))]))
        let once = F.approve(spender: F.account(F.carol), amount: 9, createdAt: F.start)
        #expect(try service.call("icrc2_approve", [once]) == F.ok(3))
        #expect(try service.call("icrc2_approve", [once]) == F.err("Duplicate", [("duplicate_of", F.nat(3))]))
        // Self-approval traps as on the ICP ledger.
        let response = try service.updateResponse(
            "icrc2_approve", [F.approve(spender: F.account(F.alice, 1), amount: 1)])
        #expect(
            response
                == LedgerService.trapReject("self approval is not allowed"))
    }

    @Test func transferFromAndEveryError() throws {
        var service = F.service()
        let alice = F.account(F.alice)
        let carol = F.account(F.carol)
        #expect(try service.call("icrc2_approve", [F.approve(spender: F.account(F.bob), amount: 100_000)]) == F.ok(2))
        #expect(
            try service.call(
                "icrc2_transfer_from", [F.transferFrom(from: alice, to: carol, amount: 50_000)], caller: F.bob)
                == F.ok(3))
        #expect(try service.call("icrc1_balance_of", [F.account(carol)]) == F.nat(50_000))
        // 100 000 − (50 000 + 10 000) left.
        #expect(
            try service.call(
                "icrc2_transfer_from", [F.transferFrom(from: alice, to: carol, amount: 40_001)], caller: F.bob)
                == F.err("InsufficientAllowance", [("allowance", F.nat(40_000))]))
        #expect(
            try service.call(
                "icrc2_transfer_from", [F.transferFrom(from: alice, to: carol, amount: 1, fee: 1)], caller: F.bob)
                == F.err("BadFee", [("expected_fee", F.nat(10_000))]))
        #expect(
            try service.call(
                "icrc2_transfer_from", [F.transferFrom(from: alice, to: F.account(F.minter), amount: 1)], caller: F.bob)
                == F.err("BadBurn", [("min_burn_amount", F.nat(10_000))]))
        #expect(
            try service.call(
                "icrc2_transfer_from",
                [F.transferFrom(from: alice, to: carol, amount: 1, createdAt: F.start - F.window - 1)],
                caller: F.bob) == F.err("TooOld"))
        #expect(
            try service.call(
                "icrc2_transfer_from",
                [F.transferFrom(from: alice, to: carol, amount: 1, createdAt: F.start + 61 * F.second)],
                caller: F.bob) == F.err("CreatedInFuture", [("ledger_time", .nat64(F.start))]))
        let once = F.transferFrom(from: alice, to: carol, amount: 2, createdAt: F.start)
        #expect(try service.call("icrc2_transfer_from", [once], caller: F.bob) == F.ok(4))
        #expect(
            try service.call("icrc2_transfer_from", [once], caller: F.bob)
                == F.err("Duplicate", [("duplicate_of", F.nat(4))]))
        // Carol may spend all of Bob's balance but Bob has too little.
        #expect(
            try service.call("icrc2_approve", [F.approve(spender: carol, amount: 1 << 50)], caller: F.bob) == F.ok(5))
        #expect(
            try service.call(
                "icrc2_transfer_from", [F.transferFrom(from: F.account(F.bob), to: alice, amount: 1 << 40)],
                caller: F.carol)
                == F.err("InsufficientFunds", [("balance", F.nat(100_000_000 - 10_000))]))
    }

    @Test func getAllowancesListsByAccountIdentifierText() throws {
        var service = F.service()
        #expect(try service.call("icrc2_approve", [F.approve(spender: F.account(F.bob), amount: 10)]) == F.ok(2))
        #expect(
            try service.call(
                "icrc2_approve", [F.approve(spender: F.account(F.carol), amount: 20, expiresAt: F.start + F.second)])
                == F.ok(3))
        let request = { (previous: String?, take: UInt64?) in
            F.record([
                ("from_account_id", .text(F.id(F.alice).hex)), ("prev_spender_id", .opt(previous.map { .text($0) })),
                ("take", .opt(take.map { .nat64($0) })),
            ])
        }
        let sorted = [F.id(F.bob), F.id(F.carol)].sorted()
        guard case .vec(let all) = try service.call("get_allowances", [request(nil, nil)]) else {
            Issue.record("not a vec")
            return
        }
        #expect(all.count == 2)
        #expect(all.map { $0["to_spender_id"] } == sorted.map { .text($0.hex) })
        #expect(all.allSatisfy { $0["from_account_id"] == .text(F.id(F.alice).hex) })
        let bobEntry = try #require(all.first { $0["to_spender_id"] == .text(F.id(F.bob).hex) })
        #expect(bobEntry["allowance"] == F.tokens(10) && bobEntry["expires_at"] == F.none)
        #expect(try service.call("get_allowances", [request(sorted[0].hex, 5)]) == .vec([all[1]]))
        #expect(try service.call("get_allowances", [request(nil, 1)]) == .vec([all[0]]))
        // The expiring approval is gone a second later.
        guard case .vec(let later) = try service.call("get_allowances", [request(nil, nil)], now: F.start + F.second)
        else {
            return
        }
        #expect(later.count == 1)
    }
}
