import EthereumLedger
import EthereumTypes
import Foundation
import KeyValueStorage
import TestSupport
import Testing

/// Kills a block-writing child process (`sandnet crash-writer`) with SIGKILL at random moments, many
/// times, and reopens its data directory each time: it must always open at a committed block, never a
/// half-written one, and never lose a block the child reported as committed.
@Suite struct CrashConsistencyTests {
    @Test func killNineAtRandomMomentsNeverCorrupts() throws {
        let dir = NSTemporaryDirectory() + "sandnet-crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rng = SystemRandomNumberGenerator()
        var lastSeen: UInt64 = 0
        var kills = 0
        for _ in 0..<20 {
            let process = Process()
            process.executableURL = SandnetProcess.executable
            process.arguments = ["crash-writer", "--data-dir", dir]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Let it commit a few blocks, then kill it somewhere inside a write.
            let wantLines = Int.random(in: 1...40, using: &rng)
            var buffer = Data()
            var committed: UInt64 = lastSeen
            let reader = out.fileHandleForReading
            while buffer.split(separator: UInt8(ascii: "\n")).count < wantLines {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            usleep(UInt32.random(in: 0...3_000, using: &rng))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            buffer.append(reader.readDataToEndOfFile())
            for line in buffer.split(separator: UInt8(ascii: "\n")) {
                if let n = UInt64(String(decoding: line, as: UTF8.self)) { committed = max(committed, n) }
            }
            kills += 1
            let store = try LevelDBStore(path: dir)
            let sender = Address([UInt8](repeating: 0xa1, count: 20))!
            var config = ChainConfig()
            config.coinbase = Address([UInt8](repeating: 0xcb, count: 20))!
            // Opening verifies that the rebuilt state root equals the head block's.
            let ledger = try Ledger.open(
                config: config, genesis: [GenesisAccount(address: sender, balance: UInt256.max >> 8)], store: store)
            #expect(ledger.blockNumber >= committed, "lost a committed block")
            #expect(ledger.blockNumber <= committed + 1)
            #expect(ledger.account(sender).nonce == ledger.blockNumber)
            #expect(ledger.sumOfBalances + ledger.burned == ledger.totalSupply)
            lastSeen = ledger.blockNumber
        }
        #expect(kills == 20)
        #expect(lastSeen > 20)
    }
}
