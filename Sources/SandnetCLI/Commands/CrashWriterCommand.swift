import ArgumentParser
import EthereumLedger
import EthereumLedgerStorage
import EthereumTransactions
import EthereumTypes
import Foundation
import KeccakHashing
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
        let key = [UInt8](repeating: 0xa1, count: 32)
        let sender: Address
        do {
            sender = try Self.sign(nonce: 0, to: .zero, value: .zero, key: key).recoverSender()
        } catch {
            throw CLIError("\(error)")
        }
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
            let to = Address(
                Keccak256.hash([UInt8(truncatingIfNeeded: nonce), UInt8(truncatingIfNeeded: nonce >> 8)])[12...])!
            do {
                let tx = LedgerTransaction(
                    try Self.sign(nonce: nonce, to: to, value: UInt256(nonce + 1), key: key), sender: sender)
                _ = try owner.perform { (ledger) throws(LedgerError) in try ledger.submit(tx, now: now) }
            } catch {
                throw CLIError("\(error)")
            }
            print(owner.ledger.blockNumber)
            fflush(nil)
        }
    }

    /// The writer's transfers: really signed, as the data directory stores their EIP-2718 encoding.
    static func sign(nonce: UInt64, to: Address, value: UInt256, key: [UInt8]) throws -> SignedTransaction {
        try Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: ChainConfig().chainID, nonce: nonce, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gas: 21_000, to: to, value: value)
        ).signed(privateKey: key)
    }
}
