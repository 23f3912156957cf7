import EthereumTypes

/// EIP-1559 base fee arithmetic (execution-specs `calculate_base_fee_per_gas`).
public enum FeeMarket {
    public static let elasticityMultiplier: UInt64 = 2
    public static let baseFeeMaxChangeDenominator: UInt64 = 8

    /// The base fee of the child of a block with these parameters.
    public static func nextBaseFee(parentBaseFee: UInt256, parentGasUsed: UInt64, parentGasLimit: UInt64) -> UInt256 {
        let target = parentGasLimit / elasticityMultiplier
        guard target > 0 else { return parentBaseFee }
        if parentGasUsed == target { return parentBaseFee }
        if parentGasUsed > target {
            let delta = parentBaseFee * UInt256(parentGasUsed - target) / UInt256(target)
                / UInt256(baseFeeMaxChangeDenominator)
            return parentBaseFee + (delta.isZero ? UInt256(1) : delta)
        }
        let delta = parentBaseFee * UInt256(target - parentGasUsed) / UInt256(target)
            / UInt256(baseFeeMaxChangeDenominator)
        return parentBaseFee - delta
    }
}
