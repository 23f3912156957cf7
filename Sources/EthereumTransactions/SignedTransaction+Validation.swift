import EthereumTypes

extension SignedTransaction {
    /// The intrinsic gas and calldata floor of this transaction.
    public var intrinsicGas: IntrinsicGas { IntrinsicGas(transaction) }

    /// Every check that needs no account state, and the sender.
    ///
    /// The order is the one ethereum/tests' TransactionTests expect (geth's `t8n`), which recovers the sender
    /// before the gas checks; execution-specs `validate_transaction` names the same checks:
    /// 1. the signature's chain id is `rules.chainID` (EIP-155, EIP-2930, EIP-1559; pre-EIP-155 legacy
    ///    transactions have none and pass), r and s in [1, n−1] with s ≤ n/2 (EIP-2), and a key recovers
    /// 2. gas ≥ intrinsic gas; from Prague, gas ≥ the EIP-7623 calldata floor
    /// 3. nonce < 2^64 − 1 (EIP-2681)
    /// 4. creation init code ≤ 49,152 bytes (EIP-3860)
    /// 5. from Osaka, gas ≤ 2^24 (EIP-7825)
    /// 6. maxPriorityFeePerGas ≤ maxFeePerGas (EIP-1559)
    /// 7. gas × gasPrice (or maxFeePerGas) fits in 256 bits
    /// - Returns: The recovered sender.
    /// - Throws: The first ``TransactionValidationError`` in that order.
    public func validate(_ rules: ValidationRules) throws(TransactionValidationError) -> Address {
        let tx = transaction
        if let chainID = tx.chainID, chainID != rules.chainID {
            throw .invalidChainID(have: chainID, want: rules.chainID)
        }
        let sender = try recoverSender()
        let intrinsic = intrinsicGas
        if tx.gas < intrinsic.standard { throw .intrinsicGasTooLow(gas: tx.gas, minimum: intrinsic.standard) }
        if rules.fork >= .prague, tx.gas < intrinsic.floor {
            throw .floorDataGasTooLow(gas: tx.gas, minimum: intrinsic.floor)
        }
        if tx.nonce == .max { throw .nonceMax }
        if tx.isContractCreation, tx.data.count > GasSchedule.maxInitCodeSize {
            throw .maxInitCodeSizeExceeded(size: tx.data.count, limit: GasSchedule.maxInitCodeSize)
        }
        if rules.fork >= .osaka, tx.gas > GasSchedule.maxTransactionGas {
            throw .gasLimitTooHigh(gas: tx.gas, cap: GasSchedule.maxTransactionGas)
        }
        if tx.gasTipCap > tx.gasFeeCap { throw .tipAboveFeeCap }
        if UInt256(tx.gas).multipliedReportingOverflow(by: tx.gasFeeCap).overflow {
            throw .gasFeeProductOverflow(feeField: tx.type == .dynamicFee ? .maxFeePerGas : .gasPrice)
        }
        return sender
    }

    /// `gas × feeCap + value`: the balance the sender needs up front, or nil if it exceeds 2^256 − 1 (then no
    /// balance covers it: geth reports `insufficient funds for gas * price + value`).
    public var maximumCost: UInt256? {
        let (gasCost, o1) = UInt256(transaction.gas).multipliedReportingOverflow(by: transaction.gasFeeCap)
        let (total, o2) = gasCost.addingReportingOverflow(transaction.value)
        return o1 || o2 ? nil : total
    }
}
