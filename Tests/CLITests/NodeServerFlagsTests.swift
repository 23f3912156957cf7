import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sandnet node`'s transport flags reach the server (`--batch-limit` used to be parsed and ignored).
@Suite struct NodeServerFlagsTests {
    /// Starts `sandnet node` on a free port and returns the process and its RPC URL (from the JSON banner).
    static func startNode(_ flags: [String]) async throws -> (Process, String) {
        let process = Process()
        process.executableURL = SandnetProcess.executable
        process.arguments = ["node", "--in-memory", "--no-icp", "--port", "0", "--json-log"] + flags
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, Error>) in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let data = out.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    bytes += data
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        guard let data = line.split(separator: "\n").first.map({ Data($0.utf8) }),
            let banner = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let url = banner["rpcUrl"] as? String
        else {
            process.terminate()
            throw CLIFailure(description: "no banner: \(line)")
        }
        return (process, url)
    }

    struct CLIFailure: Error, CustomStringConvertible { let description: String }

    static func post(_ url: String, _ body: String) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as! HTTPURLResponse).statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test func batchLimitAndDebugEchoFlags() async throws {
        let (process, url) = try await Self.startNode(["--batch-limit", "10", "--debug-echo"])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let eleven =
            "[" + (1...11).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"eth_chainId"}"# }.joined(separator: ",") + "]"
        let (_, over) = try await Self.post(url, eleven)
        #expect(over == #"[{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"batch too large"}}]"#)
        let (echo, body) = try await Self.post(url + "/debug/echo", #"{"a":1}"#)
        #expect(echo == 200)
        #expect(body == #"{"a":1}"#)
    }

    @Test func debugEchoIsOffByDefault() async throws {
        let (process, url) = try await Self.startNode([])
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let (status, _) = try await Self.post(url + "/debug/echo", "{}")
        #expect(status == 404)
    }

    @Test(arguments: [
        (["--max-connections", "0"], "--max-connections must be at least 1"),
        (["--header-timeout", "0"], "--header-timeout must be between 0 and 86400 seconds"),
        (["--idle-timeout", "100000"], "--idle-timeout must be between 0 and 86400 seconds"),
        (["--ws-queue-limit", "0"], "--ws-queue-limit must be at least 1"),
        (["--batch-limit=-1"], "--batch-limit must be 0 (no limit) or more"),
    ])
    func badTransportFlags(flags: [String], fragment: String) throws {
        let r = try SandnetProcess.run(["node", "--in-memory"] + flags)
        #expect(r.status != 0)
        #expect(r.stderr.contains(fragment), "\(r.stderr)")
    }
}
