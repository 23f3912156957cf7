import CandidCoding
import Testing

/// Parsing and checking the ICP `.did` files, and encoding/decoding through method signatures.
struct InterfaceTests {
    private func interface(_ file: String) throws -> CandidInterface {
        guard VectorDirectory.path != nil else { throw VectorError(message: VectorDirectory.notFoundMessage) }
        return try CandidInterface(parsing: VectorDirectory.read("icp/\(file)"))
    }

    @Test func ledgerDid() throws {
        let ledger = try interface("ledger.did")
        #expect(ledger.initArguments?.count == 1)
        #expect(ledger.service?.methods.count == 30)
        #expect(ledger.definitionOrder.contains("TransferArgs"))
        let transfer = try ledger.method("transfer")
        #expect(transfer.modes.isEmpty)
        #expect(try ledger.method("account_balance").modes == [.query])
    }

    @Test func icrcDids() throws {
        let icrc1 = try interface("ICRC-1.did")
        #expect(icrc1.service?.methods.count == 10)
        let icrc2 = try interface("ICRC-2.did")
        #expect(icrc2.service?.methods.count == 4)
        #expect(icrc2.initArguments == nil)
    }

    @Test func ledgerTransferThroughMethodSignature() throws {
        let ledger = try interface("ledger.did")
        let arguments = """
            (record { memo = 42; amount = record { e8s = 100_000 }; fee = record { e8s = 10_000 };
                      from_subaccount = null; to = blob "\\00\\01"; created_at_time = null })
            """
        let bytes = try CandidTextCodec.encode(arguments, interface: ledger, method: "transfer")
        let decoded = try CandidTextCodec.decode(bytes, interface: ledger, method: "transfer")
        #expect(decoded.contains("memo = 42"))
        #expect(decoded.contains("e8s = 100000"))
        let result = try CandidTextCodec.encode(
            "(variant { Ok = 7 })", interface: ledger, method: "transfer", direction: .results)
        #expect(
            try CandidTextCodec.decode(result, interface: ledger, method: "transfer", direction: .results)
                == "(variant { Ok = 7 })")
    }

    @Test func didErrorsHavePositions() {
        do {
            _ = try CandidInterface(parsing: "type A = record {\n  a : nat;\n  b : ;\n};")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 7)
        }
        do {
            _ = try CandidInterface(parsing: "type Ok = nat;\n// comment\n  type A = record { b : Missing };")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
            #expect(error.message.contains("Missing"))
        }
        do {
            _ = try CandidInterface(parsing: "type T = nat;\nservice : {\n  m : T;\n}")
            Issue.record("expected an error")
        } catch {
            // At the method, not the service keyword.
            #expect(error.line == 3)
            #expect(error.column == 3)
            #expect(error.message.contains("function"))
        }
        #expect(throws: CandidTextError.self) { try CandidInterface(parsing: "type A = A;") }
        #expect(throws: CandidTextError.self) {
            try CandidInterface(parsing: "service : { m : nat; }")
        }
    }

    @Test func summaryListsMethods() throws {
        let summary = try CandidTextCodec.checkInterface(
            "// comment\ntype T = nat; /* block */ service : (T) -> { get : () -> (T) query; put : (T) -> () oneway }")
        #expect(summary.contains("1 type definitions"))
        #expect(summary.contains("get : () -> (T) query"))
        #expect(summary.contains("put : (T) -> () oneway"))
    }
}
