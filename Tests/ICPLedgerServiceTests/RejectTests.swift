import CandidCoding
import ICPIdentity
import ICPLedger
import Testing

@testable import ICPLedgerService

/// Rejects in the replica's words: bad arguments, traps, unknown methods, update methods called as queries.
@Suite struct RejectTests {
    typealias F = Fixture
    static let prefix = "Error from Canister ryjl3-tyaaa-aaaaa-aaaba-cai: "

    func expectDecodeFailure(
        _ response: CanisterResponse, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard case .reject(let code, let message, let errorCode) = response else {
            Issue.record("expected a reject, got \(response)", sourceLocation: sourceLocation)
            return
        }
        #expect(code == .canisterError, sourceLocation: sourceLocation)
        #expect(errorCode == "IC0503", sourceLocation: sourceLocation)
        #expect(
            message.hasPrefix(
                Self.prefix + "Canister called `ic0.trap` with message: 'failed to decode call arguments: Custom("),
            sourceLocation: sourceLocation)
        #expect(
            message.hasSuffix(
                "'.\nConsider gracefully handling failures from this canister or altering the canister to handle "
                    + "exceptions. See documentation: "
                    + "http://internetcomputer.org/docs/current/references/execution-errors#trapped-explicitly"),
            sourceLocation: sourceLocation)
    }

    @Test func wrongArgumentTypesMalformedBytesAndTrailingJunkAreRejected() throws {
        var service = F.service()
        let before = service.ledger
        // text where TransferArg is expected
        let text = try CandidSerializer.encode([.text("hello")], types: [.text])
        expectDecodeFailure(service.commitUpdate(method: "icrc1_transfer", arg: text, caller: F.alice, now: F.start))
        // a record missing the required `to` field
        let missing = try CandidSerializer.encode(
            [F.record([("amount", F.nat(1))])], types: [.record([CandidFieldType("amount", .nat)])])
        expectDecodeFailure(service.commitUpdate(method: "icrc1_transfer", arg: missing, caller: F.alice, now: F.start))
        // nat64 where nat is expected (nat64 is not a subtype of nat)
        let nat64 = try CandidSerializer.encode([.nat64(1)], types: [.nat64])
        expectDecodeFailure(service.query(method: "icrc1_balance_of", arg: nat64, caller: F.alice, now: F.start))
        // no arguments at all for a method that needs one
        expectDecodeFailure(
            service.query(method: "icrc1_balance_of", arg: Array("DIDL\u{0}\u{0}".utf8), caller: F.alice, now: F.start))
        // not Candid
        expectDecodeFailure(service.query(method: "icrc1_name", arg: [1, 2, 3], caller: F.alice, now: F.start))
        expectDecodeFailure(service.query(method: "icrc1_name", arg: [], caller: F.alice, now: F.start))
        // trailing junk after a valid message
        let valid = try F.arg("icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: 1)])
        expectDecodeFailure(
            service.commitUpdate(method: "icrc1_transfer", arg: valid + [0], caller: F.alice, now: F.start))
        // a subaccount that is not 32 bytes decodes as a blob but not as the ledger's [u8; 32]
        let shortSubaccount = F.record([
            ("owner", .principal(CandidPrincipal(bytes: F.bob.bytes))), ("subaccount", F.some(.blob([1, 2]))),
        ])
        expectDecodeFailure(
            service.query(
                method: "icrc1_balance_of", arg: try F.arg("icrc1_balance_of", [shortSubaccount]), caller: F.alice,
                now: F.start))
        #expect(service.ledger.blocks == before.blocks)
        // Extra arguments after a nullary method's empty tuple are fine.
        let extra = try CandidSerializer.encode([.nat(5)], types: [.nat])
        #expect(
            try F.replyValues(
                "icrc1_symbol", service.query(method: "icrc1_symbol", arg: extra, caller: F.alice, now: F.start)) == [
                    .text("ICP")
                ])
    }

    @Test func ledgerTrapsBecomeCanisterErrorsAndRollBack() throws {
        var service = F.service()
        let longMemo = F.icrc1Transfer(to: F.account(F.bob), amount: 1, memo: [UInt8](repeating: 7, count: 33))
        let response = try service.updateResponse("icrc1_transfer", [longMemo])
        #expect(
            response
                == .reject(
                    code: .canisterError,
                    message: Self.prefix
                        + "Canister called `ic0.trap` with message: 'the memo field size of 33 bytes is above the "
                        + "allowed limit of 32 bytes'.\nConsider gracefully handling failures from this canister or "
                        + "altering the canister to handle exceptions. See documentation: "
                        + "http://internetcomputer.org/docs/current/references/execution-errors#trapped-explicitly",
                    errorCode: "IC0503"))
        #expect(service.ledger.chainLength == 2)
        // The anonymous principal may not send.
        let anonymous = try service.updateResponse(
            "icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: 1)], caller: .anonymous)
        guard case .reject(.canisterError, let message, _) = anonymous else {
            Issue.record("expected a trap")
            return
        }
        #expect(message.contains("Sending from 2vxsx-fae is not allowed"))
    }

    @Test func unknownMethodsAndUpdateMethodsCalledAsQueries() throws {
        var service = F.service()
        let empty = Array("DIDL\u{0}\u{0}".utf8)
        #expect(LedgerService.kind(of: "no_such_method") == nil)
        #expect(
            service.commitUpdate(method: "no_such_method", arg: empty, caller: F.alice, now: F.start)
                == .reject(
                    code: .canisterError,
                    message: Self.prefix + "Canister has no update method 'no_such_method'..\n"
                        + "Check that the method being called is exported by the target canister. See documentation: "
                        + "http://internetcomputer.org/docs/current/references/execution-errors#method-not-found",
                    errorCode: "IC0536"))
        #expect(
            service.query(method: "no_such_method", arg: empty, caller: F.alice, now: F.start)
                == LedgerService.methodNotFoundReject("no_such_method", kind: .query))
        // An update method through the query endpoint: the replica finds no query export of that name.
        let transfer = try F.arg("icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: 1)])
        let asQuery = service.query(method: "icrc1_transfer", arg: transfer, caller: F.alice, now: F.start)
        guard case .reject(.canisterError, let message, let code) = asQuery else {
            Issue.record("expected a reject")
            return
        }
        #expect(code == "IC0536")
        #expect(message.hasPrefix(Self.prefix + "Canister has no query method 'icrc1_transfer'..\n"))
        #expect(service.ledger.chainLength == 2)
        // A query method called as an update is answered.
        #expect(
            try F.replyValues(
                "icrc1_fee", service.commitUpdate(method: "icrc1_fee", arg: empty, caller: F.alice, now: F.start)) == [
                    F.nat(10_000)
                ])
        // The kinds follow the interface: icrc21 is an update on the ICP ledger.
        #expect(LedgerService.kind(of: "icrc1_transfer") == .update)
        #expect(LedgerService.kind(of: "icrc21_canister_call_consent_message") == .update)
        #expect(LedgerService.kind(of: "query_blocks") == .query)
    }
}
