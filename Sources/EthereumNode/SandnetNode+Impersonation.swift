import EthereumLedger
import EthereumTransactions
import EthereumTypes
import Synchronization

/// Which addresses the node sends from without their keys (Anvil's impersonation).
struct Impersonation: Sendable {
    /// Most addresses impersonated at once (anvil_impersonateAccount); auto-impersonation needs no entry.
    static let limit = 10_000
    var automatic: Bool
    var addresses: Set<Address> = []

    func covers(_ address: Address) -> Bool { automatic || addresses.contains(address) }
}

/// Impersonation: eth_sendTransaction and eth_sendUnsignedTransaction from an address whose key the node does not
/// hold. Such a transaction carries a placeholder signature and its sender as given; the ledger never recovers a
/// sender (it keeps the one admission gave it, on disk too), so it is mined as that address's.
extension SandnetNode {
    /// anvil_impersonateAccount: eth_sendTransaction from `address` works without its key.
    public func impersonate(_ address: Address) throws(NodeError) {
        try impersonation.withLock { (state) throws(NodeError) in
            guard state.addresses.count < Impersonation.limit || state.addresses.contains(address) else {
                throw .tooManyImpersonatedAccounts(limit: Impersonation.limit)
            }
            state.addresses.insert(address)
        }
    }

    /// anvil_stopImpersonatingAccount.
    public func stopImpersonating(_ address: Address) {
        _ = impersonation.withLock { $0.addresses.remove(address) }
    }

    /// anvil_autoImpersonateAccount: every address is impersonated while on.
    public func setAutoImpersonate(_ on: Bool) {
        impersonation.withLock { $0.automatic = on }
    }

    public func isImpersonating(_ address: Address) -> Bool {
        impersonation.withLock { $0.covers(address) }
    }

    /// eth_sendUnsignedTransaction (and eth_sendTransaction from an impersonated address): fills in the nonce, fees
    /// and gas as eth_sendTransaction does and submits the transaction unsigned, with `from` as its sender.
    ///
    /// - Returns: the transaction hash (Keccak-256 of its encoding with the placeholder signature).
    @discardableResult
    public func sendUnsigned(_ request: TransactionRequest, from: Address) throws -> [UInt8] {
        let signed = SignedTransaction(
            transaction: try completed(request, from: from), signature: Self.placeholderSignature(for: from))
        return try submit(Self.ledgerTransaction(signed, sender: from))
    }

    /// The signature an unsigned transaction carries: s = 1 (as Anvil's) and r = 2^160 + the sender, so two
    /// senders' otherwise equal transactions differ in encoding and hash. It recovers to no particular address.
    static func placeholderSignature(for sender: Address) -> EthereumSignature {
        EthereumSignature(yParity: 0, r: UInt256(bigEndian: [1] + sender.bytes) ?? .zero, s: UInt256(1))
    }
}
