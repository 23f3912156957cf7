import EthereumLedger
import EthereumTransactions
import EthereumTypes

/// Sending and signing with the keys the node holds (the dev accounts and the faucet).
extension SandnetNode {
    /// The key of a dev account or the faucet.
    func key(for address: Address) throws(NodeError) -> [UInt8] {
        guard let key = keys[address] ?? (address == faucetAddress ? faucetKey : nil) else { throw .unknownAccount }
        return key
    }

    /// eth_sendTransaction: fills in the nonce, fees and gas, signs with the sender's key and submits.
    ///
    /// - Returns: the transaction hash.
    /// From an impersonated address whose key the node does not hold, the transaction is sent unsigned
    /// (``sendUnsigned(_:from:)``).
    public func sendTransaction(_ request: TransactionRequest, from: Address) throws -> [UInt8] {
        if keys[from] == nil && from != faucetAddress && impersonation.covers(from) {
            return try sendUnsigned(request, from: from)
        }
        return try sendFromKey(try key(for: from), from: from, request: request)
    }

    /// eth_signTransaction: the transaction eth_sendTransaction would send (nonce, gas and fees filled in the same
    /// way), signed by the sender's key and not submitted.
    ///
    /// - Returns: the signed transaction in the node's form (its EIP-2718 encoding is `encoding`).
    public func signTransaction(_ request: TransactionRequest, from: Address) throws -> LedgerTransaction {
        Self.ledgerTransaction(try signFromKey(try key(for: from), from: from, request: request), sender: from)
    }

    /// eth_sign and personal_sign: an EIP-191 signature (65 bytes) by a key the node holds.
    public func signPersonalMessage(_ message: [UInt8], address: Address) throws -> [UInt8] {
        try PersonalMessage.sign(message, privateKey: try key(for: address)).bytes
    }

    /// eth_signTypedData_v4: an EIP-712 signature (65 bytes) by a dev account's key.
    ///
    /// - Throws: ``NodeError/unknownAccount``, or ``NodeError/invalidTypedData(_:)`` when the data cannot be
    ///   encoded.
    public func signTypedData(_ typedData: () throws -> TypedData, address: Address) throws -> [UInt8] {
        guard let key = keys[address] else { throw NodeError.unknownAccount }
        do {
            return try typedData().sign(privateKey: key).bytes
        } catch {
            throw NodeError.invalidTypedData("\(error)")
        }
    }
}
