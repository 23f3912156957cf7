import EthereumTypes

/// The fields of an EIP-2930 transaction:
/// `0x01 ‖ rlp([chainId, nonce, gasPrice, gas, to, value, data, accessList, yParity, r, s])`.
public struct AccessListTransaction: Sendable, Hashable {
    public var chainID: UInt64
    public var nonce: UInt64
    public var gasPrice: UInt256
    /// The gas limit.
    public var gas: UInt64
    /// The recipient; nil creates a contract.
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]
    public var accessList: [AccessListEntry]

    public init(
        chainID: UInt64, nonce: UInt64, gasPrice: UInt256, gas: UInt64, to: Address?, value: UInt256,
        data: [UInt8] = [], accessList: [AccessListEntry] = []
    ) {
        self.chainID = chainID
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.gas = gas
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
    }
}
