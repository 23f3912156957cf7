import ArgumentParser
import EthereumLedger
import EthereumTypes
import Foundation
import KeccakHashing
import EthereumLedgerStorage
import LevelDBStorage

/// Hidden: writes blocks to a data directory as fast as it can, printing each committed block number, so the
/// crash test can SIGKILL it at random moments and check that the directory always reopens at a committed
/// block (never half-written).
struct CrashWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-writer", abstract: "Internal: block writer for the crash-consistency test.",
        shouldDisplay: false)

    @Option var dataDir: String
    @Option var blocks = 1_000_000

    func run() throws {
        let sender = Address([UInt8](repeating: 0xa1, count: 20))!
        let genesis = [GenesisAccount(address: sender, balance: UInt256.max >> 8)]
        var config = ChainConfig()
        config.coinbase = Address([UInt8](repeating: 0xcb, count: 20))!
        var owner: PersistentLedger
        do {
            owner = try PersistentLedger.open(config: config, genesis: genesis, store: LevelDBStore(path: dataDir))
        } catch {
            throw CLIError("\(error)")
        }
        owner.perform { $0.miningMode = .automatic }
        let now = UInt64(1_800_000_000)
        for _ in 0..<blocks {
            let nonce = owner.ledger.account(sender).nonce
            // Several recipients per block so each batch carries several account records.
            let to = Address(Keccak256.hash([UInt8(truncatingIfNeeded: nonce), UInt8(truncatingIfNeeded: nonce >> 8)])[12...])!
            let hash = Keccak256.hash(sender.bytes + (0..<8).map { UInt8(truncatingIfNeeded: nonce >> (UInt64($0) * 8)) })
            let tx = LedgerTransaction(
                type: 2, chainID: config.chainID, nonce: nonce, gasLimit: 21_000,
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                to: to, value: UInt256(nonce + 1), hash: hash, sender: sender, encoding: [2] + hash)
            do {
                _ = try owner.perform { (ledger) throws(LedgerError) in try ledger.submit(tx, now: now) }
            } catch {
                throw CLIError("\(error)")
            }
            print(owner.ledger.blockNumber)
            fflush(nil)
        }
    }
}
