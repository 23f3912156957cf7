import Foundation
import TestSupport
import Testing

@Suite struct CandidCLITests {
    @Test func encodeDecodeRoundTrip() throws {
        let enc = try SandnetProcess.run(["candid", "encode", #"(42 : nat, "hi")"#])
        #expect(enc.status == 0)
        #expect(enc.stdout == "4449444c00027d712a026869\n")
        let dec = try SandnetProcess.run(["candid", "decode", "4449444c00027d712a026869", "--types", "(nat, text)"])
        #expect(dec.stdout == "(42, \"hi\")\n" || dec.stdout == "(42 : nat, \"hi\")\n", "\(dec.stdout)")
    }

    @Test func checksTheLedgerInterface() throws {
        let did = try TestVectors.store().path("icp/ledger.did")
        let r = try SandnetProcess.run(["candid", "check", did])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("transfer"))
    }

    @Test func hostileBytesAreOneLineErrors() throws {
        let r = try SandnetProcess.run(["candid", "decode", "4449444c01"])
        #expect(r.status != 0)
        #expect(r.stderr.hasPrefix("Error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
