import Foundation
import JSONCoding
import JSONRPC
import TestSupport
import Testing

/// `sandnet scenario run` as a user runs it: in-process, and against a real `sandnet node` over HTTP.
@Suite(.serialized) struct ScenarioCLITests {
    @Test func runsInProcessWithReports() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-cli-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let junit = dir.appendingPathComponent("junit.xml").path
        let json = dir.appendingPathComponent("report.json").path
        let result = try SandnetProcess.run(
            [
                "scenario", "run", "Scenarios/keys", "Scenarios/fees/base-fee-decay.yaml", "--jobs", "2", "--junit",
                junit, "--json", json,
            ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS Scenarios/fees/base-fee-decay.yaml — Base fee of empty blocks"))
        #expect(result.stdout.contains(" passed, 0 failed, 0 skipped ("))
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"sandnet scenarios\""))
        let report = try JSON.parse(try String(contentsOfFile: json, encoding: .utf8))
        #expect(report["failed"] == .number("0"))
        #expect((report["scenarios"]?.arrayValue?.count ?? 0) >= 9)
    }

    @Test func failureExitsNonZeroWithDetails() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-fail-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("fails.yaml").path
        try """
        name: fails on purpose
        accounts:
          alice: {dev: 0}
          bob: random
        steps:
          - id: pay
            send: {from: alice, to: bob, value: 1 ether}
          - check:
              - receipt: {of: pay, gasUsed: 22000}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try SandnetProcess.run(["scenario", "run", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL fails on purpose (\(file))"))
        #expect(result.stdout.contains("step 2 check at \(file):8:5"))
        #expect(result.stdout.contains("expected: == 22000 = 22000"))
        #expect(result.stdout.contains("actual:   21000"))
        #expect(result.stdout.contains("tx:       0x"))
        #expect(result.stdout.contains("0 passed, 1 failed, 0 skipped"))
    }

    @Test func malformedFileRunsNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-bad-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("bad.yaml").path
        try "steps:\n  - mine: 1\n  - send: {from: nobody}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try SandnetProcess.run(["scenario", "run", file, "Scenarios/keys/dev-accounts.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file):3:18: no account named 'nobody' for step 2 send from (accounts: none)"))
        #expect(result.stderr.contains("1 malformed scenario file(s); nothing was run"))
        #expect(!result.stdout.contains("PASS"))
    }

    /// The whole library against a real `sandnet node` over HTTP: dev steps work there; the one scenario with
    /// in-process-only settings (the faucet cooldown) is reported as skipped.
    @Test func runsAgainstSandnetNodeOverHTTP() throws {
        let node = Process()
        node.executableURL = SandnetProcess.executable
        node.arguments = ["node", "--port", "0", "--json-log", "--in-memory", "--no-ambient"]
        let out = Pipe()
        node.standardOutput = out
        node.standardError = FileHandle.nullDevice
        try node.run()
        defer {
            node.terminate()
            node.waitUntilExit()
        }
        let firstLine = try Self.readLine(out.fileHandleForReading)
        let startup = try JSON.parse(firstLine)
        let url = try #require(startup["rpcUrl"]?.stringValue)
        let result = try SandnetProcess.run(["scenario", "run", "--rpc-url", url, "Scenarios"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let count = ScenarioLibrary.names.count
        #expect(result.stdout.contains("\(count - 3) passed, 0 failed, 3 skipped (\(count) scenarios, \(url)"))
        #expect(
            result.stdout.contains(
                "SKIP Scenarios/faucet/faucet-rate-limit.yaml — Faucet rate limit: needs the in-process node: node.faucetCooldown"
            ))
        // subscribe steps need notifications, which an HTTP URL cannot carry.
        #expect(
            result.stdout.contains(
                "subscribe steps need notifications; \(url) is reached over HTTP only, which has none"))
    }

    static func readLine(_ handle: FileHandle) throws -> String {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first else { break }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
