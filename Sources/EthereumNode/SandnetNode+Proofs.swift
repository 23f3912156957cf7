import EthereumLedger
import EthereumTypes

/// eth_getProof (EIP-1186): an account and storage slots with their Merkle proofs against a block's state root.
extension SandnetNode {
    /// The most storage keys one proof request may name (geth's `maxGetProofKeys`).
    public static let maxProofKeys = 1_024

    /// `address` and its storage `slots` at `block` (default latest) with their proofs, as geth's `GetProof`
    /// answers them: the head (including unsealed developer changes), `pending` (the pending block's state) and the
    /// ``Ledger/provableStateDepth`` blocks below the head.
    ///
    /// - Throws: ``NodeError/tooManyStorageKeys(limit:got:)`` over ``maxProofKeys`` slots,
    ///   ``NodeError/headerNotFound`` for a block the chain does not have,
    ///   ``NodeError/historicalStateUnavailable(root:)`` for an older block.
    public func proof(of address: Address, slots: [UInt256], at block: BlockSelector? = nil) throws(NodeError)
        -> StateProof
    {
        guard slots.count <= Self.maxProofKeys else {
            throw .tooManyStorageKeys(limit: Self.maxProofKeys, got: slots.count)
        }
        return try withLedger { (chain) throws(NodeError) -> StateProof in
            if case .pending? = block {
                guard let proof = chain.pendingState(now: clock()).ledger.stateProof(address, slots: slots) else {
                    preconditionFailure("the pending state is its own head and always provable")
                }
                return proof
            }
            let number = try NodeChain.stateBlock(block, chain)
            guard let proof = chain.stateProof(address, slots: slots, atBlock: number) else {
                let root = number.flatMap { chain.block(number: $0)?.header.stateRoot } ?? []
                throw .historicalStateUnavailable(root: root)
            }
            return proof
        }
    }
}
