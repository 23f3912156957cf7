import EthereumTypes

/// A call that is not a transaction (`eth_call`, `eth_estimateGas`): who calls, what, with how much gas.
public struct CallRequest: Sendable, Equatable {
    public var from: Address
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]
    /// Gas the call may use; nil: the block gas limit (capped by the per-transaction cap).
    public var gas: UInt64?

    public init(from: Address = .zero, to: Address?, value: UInt256 = .zero, data: [UInt8] = [], gas: UInt64? = nil) {
        self.from = from
        self.to = to
        self.value = value
        self.data = data
        self.gas = gas
    }

    /// 21,000 + 4 per zero and 16 per non-zero calldata byte (EIP-2028), and the EIP-7623 floor:
    /// 21,000 + 10 per token (a zero byte one token, a non-zero byte four).
    var intrinsicGas: (intrinsic: UInt64, floor: UInt64) {
        let zeros = UInt64(data.count { $0 == 0 })
        let nonZeros = UInt64(data.count) - zeros
        return (21_000 + 4 * zeros + 16 * nonZeros, 21_000 + 10 * (zeros + 4 * nonZeros))
    }
}
