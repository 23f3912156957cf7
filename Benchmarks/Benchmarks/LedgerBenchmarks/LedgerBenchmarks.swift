import Benchmark
import EthereumLedger
import EthereumLedgerStorage
import EthereumTransactions
import EthereumTypes
import KeccakHashing
import LevelDBStorage
import Foundation

/// Issue 5 figures: apply ≥ 200,000 pre-verified transfers/s; admit ≥ 15,000 raw signed transfers/s
/// (sender recovery included); build a 10,000-transaction block with its three tries in ≤ 100 ms; mine 1,000
/// empty blocks in ≤ 20 ms; 1,000,000 funded accounts in ≤ 400 MB and reopened from LevelDB in ≤ 3 s.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(5))
    let now: UInt64 = 1_800_000_000
    let senders = (0..<10_000).map { i in Address(Keccak256.hash([UInt8(i & 0xff), UInt8(i >> 8), 1])[12...])! }
    let recipient = Address([UInt8](repeating: 0xbe, count: 20))!

    func fundedLedger(gasLimit: UInt64 = 60_000_000) -> Ledger {
        var config = ChainConfig()
        config.gasLimit = gasLimit
        config.transactionGasCap = nil
        config.poolLimitTotal = 1_000_000
        var ledger = Ledger(config: config, genesis: senders.map { GenesisAccount(address: $0, balance: UInt256(1) << 100) })
        ledger.miningMode = .manual
        return ledger
    }

    func transfer(_ sender: Address, nonce: UInt64, salt: Int) -> LedgerTransaction {
        let hash = Keccak256.hash(sender.bytes + [UInt8(truncatingIfNeeded: nonce), UInt8(truncatingIfNeeded: salt), UInt8(truncatingIfNeeded: salt >> 8)])
        return LedgerTransaction(
            type: 2, chainID: 11_155_111, nonce: nonce, gasLimit: 21_000, maxFeePerGas: UInt256(100_000_000_000 as UInt64),
            maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64), to: recipient, value: UInt256(1), hash: hash,
            sender: sender, encoding: [2] + hash)
    }

    Benchmark("apply 10,000 pre-verified transfers (submit + one block)", configuration: .init(metrics: [.wallClock, .throughput], maxIterations: 20)) { benchmark in
        let txs = senders.enumerated().map { transfer($0.element, nonce: 0, salt: $0.offset) }
        for _ in benchmark.scaledIterations {
            var ledger = fundedLedger(gasLimit: 300_000_000)
            benchmark.startMeasurement()
            for tx in txs { _ = try! ledger.submit(tx, now: now) }
            blackHole(try! ledger.mine(now: now))
            benchmark.stopMeasurement()
        }
    }

    Benchmark("build a 10,000-transaction block (execution + 3 tries)", configuration: .init(metrics: [.wallClock], maxIterations: 20)) { benchmark in
        let txs = senders.enumerated().map { transfer($0.element, nonce: 0, salt: $0.offset) }
        for _ in benchmark.scaledIterations {
            var ledger = fundedLedger(gasLimit: 300_000_000)
            for tx in txs { _ = try! ledger.submit(tx, now: now) }
            benchmark.startMeasurement()
            let block = try! ledger.mine(now: now)
            benchmark.stopMeasurement()
            precondition(block[0].transactions.count == 10_000)
        }
    }

    Benchmark("mine 1,000 empty blocks", configuration: .init(metrics: [.wallClock], maxIterations: 50)) { benchmark in
        for _ in benchmark.scaledIterations {
            var ledger = fundedLedger()
            benchmark.startMeasurement()
            blackHole(try! ledger.mine(blocks: 1_000, now: now))
            benchmark.stopMeasurement()
        }
    }

    // Raw signed EIP-1559 transfers: decode, hash, recover, validate, admit (automine off).
    let keys: [[UInt8]] = (1...2_000).map { i in Keccak256.hash([UInt8(i & 0xff), UInt8(i >> 8), 7]) }
    let rawTransfers: [[UInt8]] = keys.map { key in
        try! Transaction.dynamicFee(DynamicFeeTransaction(
            chainID: 11_155_111, nonce: 0, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
            maxFeePerGas: UInt256(100_000_000_000 as UInt64), gas: 21_000, to: recipient, value: UInt256(1)))
            .signed(privateKey: key).encoded
    }
    Benchmark("admit 2,000 raw signed transfers (decode + recover + pool)", configuration: .init(metrics: [.wallClock, .throughput], maxIterations: 20)) { benchmark in
        for _ in benchmark.scaledIterations {
            var config = ChainConfig()
            config.poolLimitTotal = 1_000_000
            var genesis: [GenesisAccount] = []
            for raw in rawTransfers {
                let signed = try! SignedTransaction(decoding: raw)
                genesis.append(GenesisAccount(address: try! signed.recoverSender(), balance: UInt256(1) << 100))
            }
            var ledger = Ledger(config: config, genesis: genesis)
            ledger.miningMode = .manual
            benchmark.startMeasurement()
            for raw in rawTransfers {
                let signed = try! SignedTransaction(decoding: raw)
                let sender = try! signed.recoverSender()
                let tx = signed.transaction
                let gas = signed.intrinsicGas
                let ledgerTx = LedgerTransaction(
                    type: tx.type.rawValue, chainID: tx.chainID, nonce: tx.nonce, gasLimit: tx.gas,
                    maxFeePerGas: tx.gasFeeCap, maxPriorityFeePerGas: tx.gasTipCap, to: tx.to, value: tx.value,
                    data: tx.data, intrinsicGas: gas.standard, floorGas: gas.floor, hash: signed.hash, sender: sender,
                    encoding: signed.encoded, v: signed.v, r: signed.signature.r, s: signed.signature.s)
                _ = try! ledger.submit(ledgerTx, now: now)
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("1,000,000 funded accounts: genesis + reopen from LevelDB", configuration: .init(metrics: [.wallClock, .peakMemoryResident], maxIterations: 1)) { benchmark in
        let accounts = (0..<1_000_000).map { i -> GenesisAccount in
            var seed = [UInt8](repeating: 0, count: 8)
            for b in 0..<8 { seed[b] = UInt8(truncatingIfNeeded: i >> (b * 8)) }
            return GenesisAccount(address: Address(Keccak256.hash(seed)[12...])!, balance: UInt256(1_000_000 as UInt64))
        }
        let dir = NSTemporaryDirectory() + "sandnet-bench-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            _ = try! PersistentLedger.open(config: ChainConfig(), genesis: accounts, store: LevelDBStore(path: dir))
        }
        benchmark.startMeasurement()
        let reopened = try! PersistentLedger.open(config: ChainConfig(), genesis: [], store: LevelDBStore(path: dir)).ledger
        benchmark.stopMeasurement()
        blackHole(reopened)
    }
}
