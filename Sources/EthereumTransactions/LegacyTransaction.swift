import EthereumTypes

/// The fields of a type-0 transaction: `rlp([nonce, gasPrice, gas, to, value, data, v, r, s])`.
///
/// With a `chainID` the transaction is replay-protected per EIP-155: it is signed over
/// `rlp([nonce, gasPrice, gas, to, value, data, chainId, 0, 0])` and carries `v = 35 + 2·chainId + yParity`.
/// Without one it is a pre-EIP-155 (Homestead) transaction with `v = 27 + yParity`.
public struct LegacyTransaction: Sendable, Hashable {
    /// The EIP-155 chain id, or nil for an unprotected transaction.
    public var chainID: UInt64?
    public var nonce: UInt64
    public var gasPrice: UInt256
    /// The gas limit.
    public var gas: UInt64
    /// The recipient; nil creates a contract.
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]

    public init(
        chainID: UInt64?, nonce: UInt64, gasPrice: UInt256, gas: UInt64, to: Address?, value: UInt256,
        data: [UInt8] = []
    ) {
        self.chainID = chainID
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.gas = gas
        self.to = to
        self.value = value
        self.data = data
    }
}
