import EthereumTypes

extension Transaction {
    /// The tip per gas the block producer receives under `baseFee` (EIP-1559):
    /// `min(maxPriorityFeePerGas, maxFeePerGas − baseFee)`, or `gasPrice − baseFee` for types 0 and 1.
    /// - Returns: nil when the fee cap is below the base fee (geth: `max fee per gas less than block base fee`).
    public func effectiveGasTip(baseFee: UInt256) -> UInt256? {
        let (headroom, below) = gasFeeCap.subtractingReportingOverflow(baseFee)
        if below { return nil }
        return Swift.min(gasTipCap, headroom)
    }

    /// The price per gas the sender pays under `baseFee`: `baseFee + effectiveGasTip`, or nil when the fee cap is
    /// below the base fee. For types 0 and 1 this is `gasPrice`.
    public func effectiveGasPrice(baseFee: UInt256) -> UInt256? {
        guard let tip = effectiveGasTip(baseFee: baseFee) else { return nil }
        return baseFee + tip  // ≤ gasFeeCap, so no overflow
    }
}
