import EthereumTypes

/// The fields of an EIP-1559 transaction: `0x02 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas,
/// to, value, data, accessList, yParity, r, s])`.
public struct DynamicFeeTransaction: Sendable, Hashable {
    public var chainID: UInt64
    public var nonce: UInt64
    /// The tip per gas offered to the block producer, capped by `maxFeePerGas − baseFee`.
    public var maxPriorityFeePerGas: UInt256
    /// The most the sender pays per gas, base fee included.
    public var maxFeePerGas: UInt256
    /// The gas limit.
    public var gas: UInt64
    /// The recipient; nil creates a contract.
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]
    public var accessList: [AccessListEntry]

    public init(
        chainID: UInt64, nonce: UInt64, maxPriorityFeePerGas: UInt256, maxFeePerGas: UInt256, gas: UInt64,
        to: Address?, value: UInt256, data: [UInt8] = [], accessList: [AccessListEntry] = []
    ) {
        self.chainID = chainID
        self.nonce = nonce
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.maxFeePerGas = maxFeePerGas
        self.gas = gas
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
    }
}
