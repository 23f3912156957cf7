import CandidCoding
import Conformance
import ICPIdentity
import ICPLedger
import TestSupport
import Testing

@testable import ICPLedgerService

/// Our .did text against the official ledger.did, ICRC-1.did and ICRC-2.did (loaded from the vector store, never
/// committed), and our encodings against ic-py's.
@Suite struct InterfaceTests {
    typealias F = Fixture

    @Test func candidInterfaceParsesAndDeclaresEveryServedMethod() throws {
        let interface = try CandidInterface(parsing: LedgerService.candidInterface)
        let methods = try #require(interface.service?.methods).map(\.name)
        #expect(methods.count == 30)
        #expect(Set(methods) == Set(LedgerService.table.entries.keys))
        #expect(LedgerService.metadata["candid:service"] == Array(LedgerService.candidInterface.utf8))
        // Every declared method has a handler: a call never ends in the "declared but not implemented" trap.
        var service = F.service()
        for method in methods {
            let response = service.commitUpdate(
                method: method, arg: Array("DIDL\u{0}\u{0}".utf8), caller: F.alice, now: F.start)
            if case .reject(_, let message, _) = response {
                #expect(!message.contains("not implemented"), "\(method)")
            }
        }
    }

    /// `ours <: theirs` for a method type, decided by the decoder: a function reference typed with our method type
    /// decodes at `opt <their method type>` as a value only if our type is a subtype (Candid spec, "References";
    /// the probing idiom of the official subtypes.test.did).
    static func isSubtype(
        _ ours: CandidFunctionType, in ourEnvironment: CandidTypeEnvironment, of theirs: CandidFunctionType,
        in theirEnvironment: CandidTypeEnvironment
    ) throws -> Bool {
        let reference = CandidValue.function(
            CandidFunctionReference(service: CandidPrincipal(bytes: LedgerService.canisterID.bytes), method: "m"))
        let bytes = try CandidSerializer.encode(
            [.opt(reference)], as: try CandidArgumentTypes([.opt(.function(ours))], environment: ourEnvironment))
        let decoded = try CandidDeserializer.decode(
            bytes, as: try CandidArgumentTypes([.opt(.function(theirs))], environment: theirEnvironment))
        return decoded == [.opt(reference)]
    }

    @Test(arguments: ["icp/ledger.did", "icp/ICRC-1.did", "icp/ICRC-2.did"])
    func everyServedMethodIsCompatibleWithTheOfficialInterface(_ file: String) throws {
        let store = try TestVectors.store()
        let official = try CandidInterface(parsing: try store.text(file))
        let ours = LedgerService.table.interface
        let officialMethods = try #require(official.service?.methods).map(\.name)
        if file == "icp/ledger.did" {
            // We serve exactly the methods of the official ledger interface.
            #expect(Set(officialMethods) == Set(LedgerService.table.entries.keys))
        }
        for name in officialMethods where LedgerService.table.entries[name] != nil {
            let theirs = try official.method(name)
            let mine = try ours.method(name)
            #expect(Set(mine.modes) == Set(theirs.modes), "\(name): annotations differ")
            #expect(
                try Self.isSubtype(mine, in: ours.environment, of: theirs, in: official.environment),
                "\(name) in \(file): our type is not a subtype of the official one")
        }
        // The probe can fail: icrc1_transfer's type is not icrc1_balance_of's.
        if file == "icp/ledger.did" {
            #expect(
                try !Self.isSubtype(
                    try ours.method("icrc1_transfer"), in: ours.environment,
                    of: try official.method("icrc1_balance_of"),
                    in: official.environment))
        }
    }

    /// Arguments encoded by ic-py 1.0.1 (`scripts/generate-icp-ledger-candid-vectors.py`) are answered with the
    /// replies ic-py encodes for the expected result: equal values, and equal bytes where the type tables coincide.
    @Test func icPyEncodingsRoundTrip() throws {
        let json = try VectorStore(root: TestVectors.packageRoot + "/Vectors/generated").json("icp-ledger-candid.json")
        let cases = try #require(json["cases"]?.arrayValue)
        #expect(cases.count == 13)
        var identical: [String] = []
        for item in cases {
            let method = try #require(item["method"]?.stringValue)
            let arg = try Self.bytes(try #require(item["arg"]?.stringValue))
            let expected = try Self.bytes(try #require(item["reply"]?.stringValue))
            var service = F.service()
            let response =
                LedgerService.kind(of: method) == .query
                ? service.query(method: method, arg: arg, caller: F.alice, now: F.start)
                : service.commitUpdate(method: method, arg: arg, caller: F.alice, now: F.start)
            let reply = try #require(response.replyBytes, "\(method): \(response)")
            let results = try F.entry(method).results
            #expect(
                try CandidDeserializer.decode(reply, as: results) == CandidDeserializer.decode(expected, as: results),
                "\(method)")
            if reply == expected { identical.append(method) }
        }
        // Replies whose type table has at most one entry come out byte-identical; ic-py orders larger tables
        // differently (both orders are valid Candid).
        #expect(
            identical == [
                "icrc1_balance_of", "account_balance", "icrc1_fee", "icrc1_decimals", "icrc1_symbol",
                "account_identifier",
            ])
    }

    static func bytes(_ hex: String) throws -> [UInt8] {
        var out: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            out.append(UInt8(try #require(UInt8(String(UnicodeScalar(high)) + String(UnicodeScalar(low)), radix: 16))))
        }
        return out
    }
}
