import CandidCoding
import ICPIdentity
import ICPLedger
import Testing

@testable import ICPLedgerService

/// Legacy `transfer`/`send_dfx` and `icrc1_transfer` through Candid bytes, with every error variant.
@Suite struct TransferTests {
    typealias F = Fixture

    @Test func legacyTransferAndEveryError() throws {
        var service = F.service()
        let to = F.id(F.bob)
        #expect(
            try service.call("transfer", [F.legacyTransfer(to: to, amount: 100_000, memo: 7)])
                == F.variant("Ok", .nat64(2)))
        #expect(service.ledger.balance(of: to) == Tokens(e8s: 100_000_000 + 100_000))
        #expect(
            try service.call("transfer", [F.legacyTransfer(to: to, amount: 1, fee: 1)])
                == F.err("BadFee", [("expected_fee", F.tokens(10_000))]))
        #expect(
            try service.call("transfer", [F.legacyTransfer(to: to, amount: 1 << 40)])
                == F.err("InsufficientFunds", [("balance", F.tokens(1_000_000_000 - 110_000))]))
        #expect(
            try service.call("transfer", [F.legacyTransfer(to: to, amount: 1, createdAt: F.start - F.window - 1)])
                == F.err("TxTooOld", [("allowed_window_nanos", .nat64(F.window))]))
        #expect(
            try service.call("transfer", [F.legacyTransfer(to: to, amount: 1, createdAt: F.start + 61 * F.second)])
                == F.err("TxCreatedInFuture"))
        // Deduplication with the injected clock: the same transaction again is a duplicate of block 3 ...
        let tx = F.legacyTransfer(to: to, amount: 5, memo: 1, createdAt: F.start)
        #expect(try service.call("transfer", [tx]) == F.variant("Ok", .nat64(3)))
        #expect(
            try service.call("transfer", [tx], now: F.start + 10 * F.second)
                == F.err("TxDuplicate", [("duplicate_of", .nat64(3))]))
        // ... until the window has passed, when it is too old.
        #expect(
            try service.call("transfer", [tx], now: F.start + F.window + F.second)
                == F.err("TxTooOld", [("allowed_window_nanos", .nat64(F.window))]))
    }

    @Test func sendDfxTakesHexAndTrapsWithTheErrorText() throws {
        var service = F.service()
        let send = { (to: String, fee: UInt64) in
            F.record([
                ("memo", .nat64(0)), ("amount", F.tokens(1_000)), ("fee", F.tokens(fee)), ("from_subaccount", F.none),
                ("to", .text(to)), ("created_at_time", F.none),
            ])
        }
        #expect(try service.call("send_dfx", [send(F.id(F.bob).hex, 10_000)]) == .nat64(2))
        #expect(service.ledger.balance(of: F.id(F.bob)).e8s == 100_001_000)
        let response = try service.updateResponse("send_dfx", [send(F.id(F.bob).hex, 1)])
        guard case .reject(let code, let message, let errorCode) = response else {
            Issue.record("expected a reject, got \(response)")
            return
        }
        #expect(code == .canisterError && errorCode == "IC0503")
        #expect(message.contains("with message: 'transaction fee should be 0.00010000 Token'"))
        // Text that is not an account identifier does not deserialize.
        let bad = try service.updateResponse("send_dfx", [send("not hex", 10_000)])
        guard case .reject(_, let badMessage, _) = bad else {
            Issue.record("expected a reject")
            return
        }
        #expect(badMessage.contains("failed to decode call arguments"))
    }

    @Test func icrc1TransferAndEveryError() throws {
        var service = F.service()
        let bob = F.account(F.bob)
        #expect(
            try service.call("icrc1_transfer", [F.icrc1Transfer(to: bob, amount: 100_000, memo: [1, 2])]) == F.ok(2))
        #expect(try service.call("icrc1_balance_of", [F.account(bob)]) == F.nat(100_100_000))
        #expect(
            try service.call("icrc1_transfer", [F.icrc1Transfer(to: bob, amount: 1, fee: 9_999)])
                == F.err("BadFee", [("expected_fee", F.nat(10_000))]))
        #expect(
            try service.call("icrc1_transfer", [F.icrc1Transfer(to: bob, amount: 1 << 40)])
                == F.err("InsufficientFunds", [("balance", F.nat(1_000_000_000 - 110_000))]))
        #expect(
            try service.call("icrc1_transfer", [F.icrc1Transfer(to: F.account(F.minter), amount: 9_999)])
                == F.err("BadBurn", [("min_burn_amount", F.nat(10_000))]))
        #expect(
            try service.call("icrc1_transfer", [F.icrc1Transfer(to: bob, amount: 1, createdAt: F.start - F.window - 1)])
                == F.err("TooOld"))
        #expect(
            try service.call(
                "icrc1_transfer", [F.icrc1Transfer(to: bob, amount: 1, createdAt: F.start + 61 * F.second)])
                == F.err("CreatedInFuture", [("ledger_time", .nat64(F.start))]))
        let tx = F.icrc1Transfer(to: bob, amount: 3, createdAt: F.start)
        #expect(try service.call("icrc1_transfer", [tx]) == F.ok(3))
        #expect(
            try service.call("icrc1_transfer", [tx], now: F.start + F.second)
                == F.err("Duplicate", [("duplicate_of", F.nat(3))]))
        // Amounts above u64 are InsufficientFunds, as on the ICP ledger.
        var huge = F.icrc1Transfer(to: bob, amount: 0)
        if case .record(var fields) = huge {
            let index = fields.firstIndex { $0.label.id == CandidLabel.hash("amount") }!
            fields[index].value = .nat(CandidNat(limbs: [0, 1]))
            huge = .record(fields)
        }
        #expect(
            try service.call("icrc1_transfer", [huge])
                == F.err("InsufficientFunds", [("balance", F.nat(1_000_000_000 - 110_003 - 10_000))]))
        // Minting from the minting account and burning to it.
        #expect(try service.call("icrc1_transfer", [F.icrc1Transfer(to: bob, amount: 50)], caller: F.minter) == F.ok(4))
        #expect(try service.call("icrc1_total_supply") == F.nat(1_100_000_000 - 2 * 10_000 + 50))
    }

    @Test func missingOptionalFieldsAndExtraFieldsDecode() throws {
        // A client that sends only `to` and `amount` (opt fields omitted) plus a field the ledger does not know.
        var service = F.service()
        let narrow = CandidType.record([
            CandidFieldType("to", .record([CandidFieldType("owner", .principal)])),
            CandidFieldType("amount", .nat), CandidFieldType("extra_field", .text),
        ])
        let value = F.record([
            ("to", F.record([("owner", .principal(CandidPrincipal(bytes: F.bob.bytes)))])),
            ("amount", F.nat(77)), ("extra_field", .text("ignored")),
        ])
        let arg = try CandidSerializer.encode([value], types: [narrow])
        let response = service.commitUpdate(method: "icrc1_transfer", arg: arg, caller: F.alice, now: F.start)
        #expect(try F.replyValues("icrc1_transfer", response) == [F.ok(2)])
        #expect(service.ledger.balance(of: F.id(F.bob)).e8s == 100_000_077)
        // An extra argument is ignored too.
        let two = try CandidSerializer.encode(
            [F.icrc1Transfer(to: F.account(F.bob), amount: 1), .text("more")],
            types: [try F.entry("icrc1_transfer").arguments.types[0], .text],
            environment: LedgerService.table.interface.environment)
        let second = service.commitUpdate(method: "icrc1_transfer", arg: two, caller: F.alice, now: F.start)
        #expect(try F.replyValues("icrc1_transfer", second) == [F.ok(3)])
    }
}
