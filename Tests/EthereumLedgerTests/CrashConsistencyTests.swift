import EthereumLedger
import EthereumLedgerStorage
import EthereumTypes
import Foundation
import KeyValueStorage
import LevelDBStorage
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
                let chunk = Self.readChunk(reader)
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            usleep(UInt32.random(in: 0...3_000, using: &rng))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            buffer.append(Self.readToEnd(reader))
            for line in buffer.split(separator: UInt8(ascii: "\n")) {
                if let n = UInt64(String(decoding: line, as: UTF8.self)) { committed = max(committed, n) }
            }
            kills += 1
            let store = try LevelDBStore(path: dir)
            let sender = Signed.signer(0xa1).address
            var config = ChainConfig()
            config.coinbase = Address([UInt8](repeating: 0xcb, count: 20))!
            // Opening verifies that the rebuilt state root equals the head block's.
            let ledger = try PersistentLedger.open(
                config: config, genesis: [GenesisAccount(address: sender, balance: UInt256.max >> 8)], store: store
            ).ledger
            #expect(ledger.blockNumber >= committed, "lost a committed block")
            #expect(ledger.blockNumber <= committed + 1)
            #expect(ledger.account(sender).nonce == ledger.blockNumber)
            #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
            lastSeen = ledger.blockNumber
        }
        #expect(kills == 20)
        #expect(lastSeen > 20)
    }

    /// What the pipe holds next (empty at its end), retrying a read a signal interrupted: Foundation's
    /// `availableData` traps on EINTR, which child processes exiting around the test make likely.
    static func readChunk(_ handle: FileHandle) -> Data {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(handle.fileDescriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            return count <= 0 ? Data() : Data(buffer[0..<count])
        }
    }

    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        while true {
            let chunk = readChunk(handle)
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }

    static func contents(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            files[name] = FileManager.default.contents(atPath: path + "/" + name)
        }
        return files
    }

    /// Kills the writer mid-traffic, then loses LevelDB's CURRENT file: nothing may start a new chain over the
    /// old one or touch a file; with CURRENT restored the chain reopens at a committed block.
    @Test func aLostCURRENTAfterKillNineIsRefusedAndNothingIsTouched() throws {
        let dir = NSTemporaryDirectory() + "sandnet-crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = Process()
        process.executableURL = SandnetProcess.executable
        process.arguments = ["crash-writer", "--data-dir", dir]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        let reader = out.fileHandleForReading
        while buffer.split(separator: UInt8(ascii: "\n")).count < 30 {
            let chunk = Self.readChunk(reader)
            if chunk.isEmpty { break }
            buffer.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        buffer.append(Self.readToEnd(reader))
        let committed =
            buffer.split(separator: UInt8(ascii: "\n")).compactMap { UInt64(String(decoding: $0, as: UTF8.self)) }.max()
            ?? 0
        #expect(committed >= 29)

        let current = try #require(FileManager.default.contents(atPath: dir + "/CURRENT"))
        try FileManager.default.removeItem(atPath: dir + "/CURRENT")
        let before = try Self.contents(dir)
        let again = try SandnetProcess.run(["crash-writer", "--data-dir", dir, "--blocks", "1"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("\(dir) holds files ("))
        #expect(again.stderr.contains("but no LevelDB CURRENT file; refusing to create a new database over them"))
        #expect(again.stdout.isEmpty)
        #expect(throws: StorageError.self) { try LevelDBStore(path: dir) }
        #expect(try Self.contents(dir) == before)

        #expect(FileManager.default.createFile(atPath: dir + "/CURRENT", contents: current))
        var config = ChainConfig()
        config.coinbase = Address([UInt8](repeating: 0xcb, count: 20))!
        let sender = Signed.signer(0xa1).address
        let ledger = try PersistentLedger.open(
            config: config, genesis: [GenesisAccount(address: sender, balance: UInt256.max >> 8)],
            store: LevelDBStore(path: dir)
        ).ledger
        #expect(ledger.blockNumber >= committed)
        #expect(ledger.blockNumber <= committed + 1)
        #expect(ledger.account(sender).nonce == ledger.blockNumber)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
    }
}
