import EthereumLedger
import EthereumTypes

/// geth's priority-fee oracle (`eth/gasprice/gasprice.go` `SuggestTipCap`, v1.17.5 with the full node's defaults,
/// `eth/ethconfig` `FullNodeGPO`): per block the 3 lowest effective tips, skipping the coinbase's own transactions
/// and tips under 2 wei; a block that yields nothing counts as the last answer; while blocks yield one value or less
/// it looks further back (at most 2 × 20 blocks); the 60th percentile of the values collected, capped at 500 gwei.
/// The genesis block is never sampled. The answer is kept per head (geth caches it by head hash), and that last
/// answer is what an empty block repeats, so the oracle is a value with memory, not a pure function of the chain.
///
/// geth starts from `--miner.gasprice`; Sandnet starts from 1 gwei (Anvil's idle answer, what wallets expect from a
/// fresh dev chain).
struct TipOracle: Sendable, Equatable {
    /// Blocks sampled (geth `Blocks`).
    static let blocks = 20
    /// The percentile taken (geth `Percentile`).
    static let percentile = 60
    /// Tips taken per block (geth `sampleNumber`).
    static let samplesPerBlock = 3
    /// Tips below this are ignored (geth `DefaultIgnorePrice`, 2 wei).
    static let ignoreBelow = UInt256(2)
    /// The cap on the answer (geth `DefaultMaxPrice`, 500 gwei).
    static let maxPrice = UInt256(500_000_000_000 as UInt64)
    /// The answer before any block was sampled.
    static let startPrice = UInt256(1_000_000_000 as UInt64)

    /// The head the last answer was computed for.
    private(set) var lastHead: [UInt8]?
    /// The last answer (an empty block repeats it).
    private(set) var lastPrice: UInt256

    init(startPrice: UInt256 = TipOracle.startPrice) {
        lastPrice = startPrice
    }

    /// The suggested tip for `chain`'s head; computed once per head, then answered from memory.
    mutating func suggest(_ chain: Ledger) -> UInt256 {
        let head = chain.blockNumber
        let headHash = chain.block(number: head)?.hash
        if let headHash, headHash == lastHead { return lastPrice }
        let price = Self.suggestion(head: head, lastPrice: lastPrice) { chain.block(number: $0) }
        lastHead = headHash
        lastPrice = price
        return price
    }

    /// geth's sampling loop, with the block answers taken in the order they were asked for.
    static func suggestion(head: UInt64, lastPrice: UInt256, block: (UInt64) -> Block?) -> UInt256 {
        var queue: [UInt64] = []
        var number = head
        while queue.count < blocks && number > 0 {
            queue.append(number)
            number -= 1
        }
        var results: [UInt256] = []
        var next = 0
        while next < queue.count {
            var values = block(queue[next]).map(blockValues) ?? []
            next += 1
            if values.isEmpty { values = [lastPrice] }
            let outstanding = queue.count - next
            if values.count == 1 && results.count + 1 + outstanding < blocks * 2 && number > 0 {
                queue.append(number)
                number -= 1
            }
            results += values
        }
        guard !results.isEmpty else { return lastPrice }
        results.sort()
        return UInt256.min(results[(results.count - 1) * percentile / 100], maxPrice)
    }

    /// One block's values (geth `getBlockValues`): its transactions by effective tip, ascending; tips under 2 wei
    /// and the coinbase's own transactions skipped; at most 3.
    static func blockValues(_ block: Block) -> [UInt256] {
        let baseFee = block.header.baseFeePerGas
        let sorted = block.transactions.map { (tip: $0.effectiveTip(baseFee: baseFee) ?? .zero, sender: $0.sender) }
            .sorted { $0.tip < $1.tip }
        var values: [UInt256] = []
        for tx in sorted where tx.tip >= ignoreBelow && tx.sender != block.header.coinbase {
            values.append(tx.tip)
            if values.count >= samplesPerBlock { break }
        }
        return values
    }
}
