import EthereumLedger
import EthereumTypes

/// What one simulated block looked like, in `eth_feeHistory`'s terms.
public struct BlockStatistics: Sendable, Equatable {
    public var number: UInt64
    public var timestamp: UInt64
    public var baseFee: UInt256
    public var gasUsed: UInt64
    public var gasLimit: UInt64
    public var transactionCount: Int
    /// Effective tips at the requested percentiles, weighted by gas as geth's `eth_feeHistory` does.
    public var rewards: [UInt256]

    /// gasUsed / gasLimit (feeHistory's `gasUsedRatio`).
    public var fullness: Double { Double(gasUsed) / Double(gasLimit) }
}

/// Ambient traffic run against the EIP-1559 base fee alone, without a ledger: every transaction a profile sends
/// is included (its fee cap is twice the base fee plus its tip), and the next base fee follows
/// ``FeeMarket/nextBaseFee(parentBaseFee:parentGasUsed:parentGasLimit:)``. The tests check each profile's
/// statistics over a simulated hour with it; the README's figures come from it.
public struct FeeMarketSimulation: Sendable {
    public var generator: TrafficGenerator
    public var head: ChainHead
    /// Percentiles recorded per block (feeHistory's `rewardPercentiles`).
    public var percentiles: [Double]

    public init(
        generator: TrafficGenerator, start: ChainHead, percentiles: [Double] = [10, 50, 90]
    ) {
        self.generator = generator
        self.head = start
        self.percentiles = percentiles
    }

    /// Builds the next block and moves the head past it.
    public mutating func step() -> BlockStatistics {
        let transactions = generator.transactions(for: head)
        let gasUsed = transactions.reduce(0) { $0 + $1.gas }
        precondition(gasUsed <= head.gasLimit, "the generator never sends more than the gas limit")
        let stats = BlockStatistics(
            number: head.number, timestamp: head.timestamp, baseFee: head.baseFee, gasUsed: gasUsed,
            gasLimit: head.gasLimit, transactionCount: transactions.count,
            rewards: Self.rewards(transactions, baseFee: head.baseFee, gasUsed: gasUsed, percentiles: percentiles))
        head = ChainHead(
            number: head.number + 1, timestamp: head.timestamp + FeeProfile.slotSeconds,
            baseFee: FeeMarket.nextBaseFee(
                parentBaseFee: head.baseFee, parentGasUsed: gasUsed, parentGasLimit: head.gasLimit),
            gasLimit: head.gasLimit)
        return stats
    }

    public mutating func run(blocks: Int) -> [BlockStatistics] { (0..<blocks).map { _ in step() } }

    /// geth `eth/gasprice/feehistory.go` `processBlock`: sort by effective tip, walk the cumulative gas used,
    /// and report the tip of the transaction at which it reaches `percentile` % of the block's gas (0 for an
    /// empty block).
    public static func rewards(
        _ transactions: [AmbientTransaction], baseFee: UInt256, gasUsed: UInt64, percentiles: [Double]
    ) -> [UInt256] {
        guard !transactions.isEmpty, gasUsed > 0 else { return percentiles.map { _ in .zero } }
        let sorted = transactions.map { ($0.effectiveTip(baseFee: baseFee) ?? .zero, $0.gas) }.sorted { $0.0 < $1.0 }
        var out: [UInt256] = []
        var index = 0
        var sum = sorted[0].1
        for percentile in percentiles {
            let threshold = UInt64(Double(gasUsed) * percentile / 100)
            while sum < threshold && index < sorted.count - 1 {
                index += 1
                sum += sorted[index].1
            }
            out.append(sorted[index].0)
        }
        return out
    }
}
