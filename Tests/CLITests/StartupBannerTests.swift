import Foundation
import TestSupport
import Testing

/// The start-up banner says what the chain does by itself and how to stop it (issue 37): a newcomer saw strangers'
/// transfers and a head that moved by itself, with nothing on screen naming `--no-ambient`.
@Suite struct StartupBannerTests {
    /// Runs `sandnet node` until its banner's last line (`Listening on …`) and returns the banner's text.
    static func banner(_ flags: [String]) async throws -> String {
        let process = Process()
        process.executableURL = SandnetProcess.executable
        process.arguments = ["node", "--no-icp", "--port", "0"] + flags
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let json = flags.contains("--json-log")
        return await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while true {
                    let text = String(decoding: bytes, as: UTF8.self)
                    if json ? text.contains("\n") : text.contains("Listening on") && text.hasSuffix("\n") { break }
                    let data = out.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    bytes += data
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    static func chain(_ flags: [String]) async throws -> [String: Any] {
        let line = try await banner(["--in-memory", "--json-log"] + flags)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object?["chain"] as? [String: Any], "no chain facts in \(line)")
    }

    @Test func defaultChainLivesAndSaysHowToStopIt() async throws {
        let text = try await Self.banner(["--in-memory"])
        #expect(text.contains("Mining        automine"))
        #expect(text.contains("Empty blocks  one every 12 s"))
        #expect(text.contains("fee profile sepolia"))
        #expect(text.contains("(off: --no-ambient)"))
        // One true statement about the data: an in-memory chain is not flushed anywhere.
        #expect(text.contains("in memory (lost on exit)"))
        #expect(!text.contains("flushes the chain to disk"))
        #expect(text.contains("the chain, kept in memory, is discarded"))
        // The built-in explorer is linked, on the URL the node listens on.
        #expect(text.contains(try #require(Self.listeningURL(text)) + "/explorer"))
    }

    /// The URL of the banner's `Listening on URL.` line.
    static func listeningURL(_ text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Listening on ") }) else { return nil }
        return line.dropFirst("Listening on ".count).components(separatedBy: ". ").first
    }

    @Test func stillChainSaysSo() async throws {
        let text = try await Self.banner(["--in-memory", "--no-ambient"])
        #expect(text.contains("Other users   none (fee profile dev); a still chain"))
        #expect(!text.contains("Empty blocks"))
    }

    @Test func dataDirectoryBannerSaysTheChainStays() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-banner-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try await Self.banner(["--data-dir", dir.path, "--block-time", "5"])
        #expect(text.contains("\(dir.path) (kept across restarts)"))
        #expect(text.contains("Mining        a block every 5 s"))
        #expect(text.contains("the chain stays in the data directory"))
    }

    @Test func jsonLogCarriesTheSameFacts() async throws {
        let living = try await Self.chain([])
        #expect(living["mining"] as? String == "automatic")
        #expect(living["feeProfile"] as? String == "sepolia")
        #expect(living["ambientTraffic"] as? Bool == true)
        #expect((living["emptyBlockInterval"] as? NSNumber)?.intValue == 12)

        let still = try await Self.chain(["--no-ambient", "--no-mining"])
        #expect(still["mining"] as? String == "manual")
        #expect(still["ambientTraffic"] as? Bool == false)
        #expect(still["emptyBlockInterval"] is NSNull)
    }

    /// `--tls` (issue 39): the banner gives the CA file to trust and the https:// and wss:// URLs; a second start says
    /// the CA was reused.
    @Test func tlsBannerNamesTheCAAndTheSecureURLs() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let flags = ["--in-memory", "--tls", "--tls-dir", dir.path, "--tls-name", "wallet-lab.local"]
        let text = try await Self.banner(flags)
        #expect(text.contains("RPC URL       https://127.0.0.1:"))
        #expect(text.contains("WebSocket     wss://127.0.0.1:"))
        #expect(text.contains("TLS CA        \(dir.path)/ca.pem  (created now; trust it once per device"))
        #expect(text.contains("TLS names     localhost, wallet-lab.local, "))
        #expect(text.contains(", 127.0.0.1, ") && text.contains(", ::1"))
        let line = try await Self.banner(flags + ["--json-log"])
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let tls = try #require(object?["tls"] as? [String: Any], "no tls facts in \(line)")
        #expect(tls["caFile"] as? String == dir.path + "/ca.pem")
        #expect(tls["certificateAction"] as? String == "reused")
        #expect((object?["rpcUrl"] as? String)?.hasPrefix("https://") == true)
    }
}
