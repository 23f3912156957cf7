import CandidCoding
import ICPIdentity
import ICPLedger
import Testing

@testable import ICPLedgerService

/// `icrc21_canister_call_consent_message`.
@Suite struct ConsentMessageTests {
    typealias F = Fixture

    static func request(_ method: String, _ arg: [UInt8], lineDisplay: (UInt16, UInt16)? = nil, offset: Int16? = nil)
        -> CandidValue
    {
        let device: CandidValue? = lineDisplay.map {
            F.variant(
                "LineDisplay", F.record([("characters_per_line", .nat16($0.0)), ("lines_per_page", .nat16($0.1))]))
        }
        return F.record([
            ("method", .text(method)), ("arg", .blob(arg)),
            (
                "user_preferences",
                F.record([
                    (
                        "metadata",
                        F.record([("language", .text("en")), ("utc_offset_minutes", .opt(offset.map { .int16($0) }))])
                    ),
                    ("device_spec", .opt(device ?? F.variant("GenericDisplay"))),
                ])
            ),
        ])
    }

    func message(_ reply: CandidValue) -> CandidValue? {
        guard case .variant(let ok) = reply, ok.label.id == CandidLabel.hash("Ok") else { return nil }
        return ok.value["consent_message"]
    }

    @Test func icrc1TransferGenericDisplay() throws {
        var service = F.service()
        let arg = try F.arg(
            "icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: 150_000_000, memo: [0xab])])
        let reply = try service.call("icrc21_canister_call_consent_message", [Self.request("icrc1_transfer", arg)])
        guard case .variant(let field) = try #require(message(reply)), case .text(let text) = field.value else {
            Issue.record("no generic message in \(reply)")
            return
        }
        #expect(field.label.id == CandidLabel.hash("GenericDisplayMessage"))
        #expect(text.hasPrefix("# Send ICP"))
        #expect(text.contains("**Amount:** `1.5 ICP`"))
        #expect(text.contains("**Fee:** `0.0001 ICP`"))
        #expect(text.contains("`\(F.account(F.alice).text)`"))
        #expect(text.contains("`\(F.account(F.bob).text)`"))
        #expect(text.contains("**Memo:** `0xab`"))
        let metadata = F.record([("language", .text("en")), ("utc_offset_minutes", F.none)])
        #expect(reply == F.variant("Ok", F.record([("consent_message", .variant(field)), ("metadata", metadata)])))
        // Nothing was transferred.
        #expect(service.ledger.chainLength == 2)
    }

    @Test func approveTransferFromAndLegacyTransferHaveMessages() throws {
        var service = F.service()
        let approve = try F.arg(
            "icrc2_approve", [F.approve(spender: F.account(F.bob), amount: 5, expiresAt: 1_700_000_000 * F.second)])
        let approveReply = try service.call(
            "icrc21_canister_call_consent_message", [Self.request("icrc2_approve", approve, offset: 120)])
        guard case .variant(let field) = try #require(message(approveReply)), case .text(let text) = field.value else {
            Issue.record("no message")
            return
        }
        #expect(text.contains("# Approve spending"))
        #expect(text.contains("**Allowance:** `0.00000005 ICP`"))
        #expect(text.contains("**Expires:** `2023-11-15 00:13:20 UTC+02:00`"))  // 1 700 000 000 s is 22:13:20 UTC
        #expect(
            approveReply.variantPayload?["metadata"]
                == F.record([("language", .text("en")), ("utc_offset_minutes", F.some(.int16(120)))]))

        let from = try F.arg(
            "icrc2_transfer_from", [F.transferFrom(from: F.account(F.bob), to: F.account(F.carol), amount: 7)])
        let fromReply = try service.call(
            "icrc21_canister_call_consent_message", [Self.request("icrc2_transfer_from", from)])
        #expect(message(fromReply) != nil)

        let legacy = try F.arg("transfer", [F.legacyTransfer(to: F.id(F.bob), amount: 100_000_000, memo: 5)])
        let legacyReply = try service.call("icrc21_canister_call_consent_message", [Self.request("transfer", legacy)])
        guard case .variant(let legacyField) = try #require(message(legacyReply)),
            case .text(let legacyText) = legacyField.value
        else { return }
        #expect(legacyText.contains("`\(F.id(F.bob).hex)`") && legacyText.contains("**Amount:** `1 ICP`"))
    }

    @Test func lineDisplayIsWrappedAndPaged() throws {
        var service = F.service()
        let arg = try F.arg("icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: 1)])
        let reply = try service.call(
            "icrc21_canister_call_consent_message", [Self.request("icrc1_transfer", arg, lineDisplay: (20, 4))])
        guard case .variant(let field) = try #require(message(reply)), case .vec(let pages) = field.value["pages"]
        else {
            Issue.record("no line display message in \(reply)")
            return
        }
        #expect(field.label.id == CandidLabel.hash("LineDisplayMessage"))
        #expect(pages.count > 1)
        for page in pages {
            guard case .vec(let lines) = page["lines"] else {
                Issue.record("no lines")
                return
            }
            #expect(lines.count <= 4 && !lines.isEmpty)
            for case .text(let line) in lines {
                #expect(line.count <= 20 && !line.contains("**") && !line.contains("`"))
            }
        }
    }

    @Test func unsupportedMethodsAndUndecodableArgumentsAreErrors() throws {
        var service = F.service()
        let unsupported = try service.call(
            "icrc21_canister_call_consent_message", [Self.request("icrc1_balance_of", [])])
        guard case .variant(let err) = unsupported, err.label.id == CandidLabel.hash("Err"),
            case .variant(let kind) = err.value
        else {
            Issue.record("expected Err, got \(unsupported)")
            return
        }
        #expect(kind.label.id == CandidLabel.hash("UnsupportedCanisterCall"))
        let garbage = try service.call(
            "icrc21_canister_call_consent_message", [Self.request("icrc1_transfer", [1, 2, 3])])
        guard case .variant(let garbageErr) = garbage, garbageErr.label.id == CandidLabel.hash("Err") else {
            Issue.record("expected Err, got \(garbage)")
            return
        }
        let tooLong = try service.call(
            "icrc21_canister_call_consent_message", [Self.request("icrc1_transfer", [UInt8](repeating: 0, count: 501))])
        guard case .variant(let longErr) = tooLong, longErr.label.id == CandidLabel.hash("Err") else {
            Issue.record("expected Err, got \(tooLong)")
            return
        }
    }
}

extension CandidValue {
    var variantPayload: CandidValue? {
        if case .variant(let field) = self { return field.value }
        return nil
    }
}
