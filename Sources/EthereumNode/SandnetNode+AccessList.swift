import EthereumLedger
import EthereumTypes

/// eth_createAccessList (EIP-2930).
extension SandnetNode {
    /// The access list `request` needs at `block` (default latest; `pending` reads the head, as eth_call does) and
    /// the gas it uses with it, as geth's `CreateAccessList` answers: a plain transfer touches nothing (empty list,
    /// its intrinsic gas); a native contract call lists the storage words and accounts its execution touches. A
    /// failing execution is not an error: its text comes back in ``AccessListResult/error``.
    ///
    /// - Throws: the checks eth_call makes (fees against the base fee, value against the balance) and
    ///   ``NodeError/headerNotFound`` for a block the chain does not have.
    public func createAccessList(_ request: TransactionRequest, at block: BlockSelector? = nil) throws
        -> AccessListResult
    {
        try withLedger { chain in
            let number = try NodeChain.stateBlock(block, chain)
            try checkCall(request, chain)
            let from = request.from ?? .zero
            let nonce = request.nonce ?? chain.account(from, atBlock: number).nonce
            return chain.createAccessList(
                Self.callRequest(request), given: request.accessList, nonce: nonce, atBlock: number)
        }
    }
}
