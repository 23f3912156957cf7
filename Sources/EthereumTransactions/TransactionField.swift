/// The fields of a transaction, named as JSON-RPC clients name them; used to locate decoding errors.
public enum TransactionField: String, Sendable, Hashable, CaseIterable {
    /// The EIP-2718 envelope or the outer RLP list itself.
    case envelope
    case chainID = "chainId"
    case nonce
    case gasPrice
    case maxPriorityFeePerGas
    case maxFeePerGas
    case gas
    case to
    case value
    case data = "input"
    case accessList
    case v
    case yParity
    case r
    case s
}
