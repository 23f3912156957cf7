import EthereumLedger
import EthereumTypes

/// The transaction pool as txpool_* shows it.
extension SandnetNode {
    /// The pool split into executable (`pending`) and nonce-gapped (`queued`) transactions.
    public var poolContent: PoolContent {
        withLedger { chain in
            let split = chain.pool.split { chain.account($0).nonce }
            return PoolContent(pending: split.pending, queued: split.queued)
        }
    }
}
