import Foundation
import TestSupport
import Testing

/// Runs the built `sandnet` binary as a user would.
@Suite struct CLITests {
    @Test func keccak() throws {
        let r = try SandnetProcess.run(["keccak", "0x"])
        #expect(r.status == 0)
        #expect(r.stdout == "0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470\n")
        #expect(try SandnetProcess.run(["keccak", "abc"]).stdout.hasPrefix("0x4e03657aea45a94fc7d47ba826c8d667"))
    }

    @Test func rlpRoundTrip() throws {
        let enc = try SandnetProcess.run(["rlp", "encode", #"["0x646f67", ["0x"], 1024]"#])
        #expect(enc.stdout == "0xc983646f67c180820400\n")
        let dec = try SandnetProcess.run(["rlp", "decode", "0xc983646f67c180820400"])
        #expect(dec.stdout == "[\"0x646f67\",[\"0x\"],\"0x0400\"]\n")
    }

    @Test func badInputIsOneLineAndNonZero() throws {
        for args in [
            ["rlp", "decode", "0x8100"], ["rlp", "encode", "{"], ["units", "to-wei", "1.2.3 ether"],
            ["address", "checksum", "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"],
        ] {
            let r = try SandnetProcess.run(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.hasPrefix("Error: "), "\(args): \(r.stderr)")
        }
    }

    @Test func unitsAndAddress() throws {
        #expect(try SandnetProcess.run(["units", "to-wei", "1.5 ether"]).stdout == "1500000000000000000\n")
        #expect(try SandnetProcess.run(["units", "from-wei", "1500000000000000000"]).stdout == "1.5\n")
        #expect(
            try SandnetProcess.run(["address", "checksum", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"]).stdout
                == "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n")
    }

    @Test func vectorsJSON() throws {
        let r = try SandnetProcess.run([
            "vectors", "--suite", "rlp", "--suite", "eip55", "--json",
            "--vectors", try TestVectors.store().root,
        ])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                {"suite": "rlp", "passed": 54, "failed": 0, "skipped": 0}
                {"suite": "eip55", "passed": 8, "failed": 0, "skipped": 0}

                """)
        let unknown = try SandnetProcess.run(["vectors", "--suite", "nope"])
        #expect(unknown.status != 0)
    }

    @Test func vectorsJUnitAndAdapterFlags() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vectors-\(getpid()).xml").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let r = try SandnetProcess.run([
            "vectors", "--suite", "eip55", "--junit", file, "--vectors", try TestVectors.store().root,
        ])
        #expect(r.status == 0)
        let xml = try String(contentsOfFile: file, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 8)
        #expect(xml.contains("<testsuite name=\"eip55\" tests=\"8\" failures=\"0\""))
        let hung = try SandnetProcess.run([
            "vectors", "--suite", "rlp", "--adapter", "exec sleep 20", "--timeout", "0.3",
        ])
        #expect(hung.status == 1)
        #expect(hung.stderr.hasPrefix("Error: adapter: exec sleep 20: no response to request 1 (hello) within 0.3 s"))
        let noAdapter = try SandnetProcess.run(["vectors", "--differential", "10"])
        #expect(noAdapter.status != 0)
    }
}
