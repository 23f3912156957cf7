import EthereumTypes

/// EIP-1559 base fee arithmetic (execution-specs `calculate_base_fee_per_gas`) and the node's default fee
/// policy. Every function here is total: no input traps.
public enum FeeMarket {
    public static let elasticityMultiplier: UInt64 = 2
    public static let baseFeeMaxChangeDenominator: UInt64 = 8

    /// The base fee of the child of a block with these parameters.
    ///
    /// Exact for every realistic value; a base fee so large that the increase would pass 2^256 − 1 saturates
    /// there (no transaction can pay it anyway: `gas × maxFeePerGas` must fit in 256 bits).
    public static func nextBaseFee(parentBaseFee: UInt256, parentGasUsed: UInt64, parentGasLimit: UInt64) -> UInt256 {
        let target = parentGasLimit / elasticityMultiplier
        guard target > 0 else { return parentBaseFee }
        if parentGasUsed == target { return parentBaseFee }
        if parentGasUsed > target {
            let delta =
                scaled(parentBaseFee, by: parentGasUsed - target, over: target)
                / UInt256(baseFeeMaxChangeDenominator)
            let (sum, overflow) = parentBaseFee.addingReportingOverflow(delta.isZero ? UInt256(1) : delta)
            return overflow ? .max : sum
        }
        let delta =
            scaled(parentBaseFee, by: target - parentGasUsed, over: target)
            / UInt256(baseFeeMaxChangeDenominator)
        return parentBaseFee - delta
    }

    /// ⌊value × numerator / denominator⌋ without a 512-bit intermediate: with value = q·d + r,
    /// it is q·n + ⌊r·n / d⌋, where r·n < 2^128. Saturates at 2^256 − 1 when the result does not fit
    /// (only possible when numerator > denominator).
    static func scaled(_ value: UInt256, by numerator: UInt64, over denominator: UInt64) -> UInt256 {
        let (q, r) = value.quotientAndRemainder(dividingBy: UInt256(denominator))
        let (high, o1) = q.multipliedReportingOverflow(by: UInt256(numerator))
        let low = r * UInt256(numerator) / UInt256(denominator)
        let (sum, o2) = high.addingReportingOverflow(low)
        return o1 || o2 ? .max : sum
    }

    /// The fee cap the node fills in when a client leaves `maxFeePerGas` out (`eth_sendTransaction`, the
    /// faucet): `2 × baseFee + tip`, geth's and the common wallets' policy (it survives six full blocks of
    /// base-fee increases). Nil when it exceeds 2^256 − 1 (geth: `max fee per gas higher than 2^256-1`).
    public static func defaultMaxFee(baseFee: UInt256, tip: UInt256) -> UInt256? {
        let (double, o1) = baseFee.multipliedReportingOverflow(by: UInt256(2))
        let (fee, o2) = double.addingReportingOverflow(tip)
        return o1 || o2 ? nil : fee
    }

    /// eth_feeHistory's rewards of one block (geth `eth/gasprice/feehistory.go` `processBlock`): the transactions
    /// sorted by effective tip, the cumulative gas walked, and the tip at which it reaches each percentile of
    /// `totalGas`; zeros for a block without transactions.
    public static func rewards(tips: [(tip: UInt256, gas: UInt64)], totalGas: UInt64, percentiles: [Double])
        -> [UInt256]
    {
        guard !tips.isEmpty, totalGas > 0 else { return percentiles.map { _ in .zero } }
        let sorted = tips.sorted { $0.tip < $1.tip }
        var out: [UInt256] = []
        var index = 0
        var cumulative = sorted[0].gas
        for percentile in percentiles {
            let threshold = UInt64(Double(totalGas) * percentile / 100)
            while cumulative < threshold && index < sorted.count - 1 {
                index += 1
                cumulative += sorted[index].gas
            }
            out.append(sorted[index].tip)
        }
        return out
    }
}
