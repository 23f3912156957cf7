import EthereumLedger
import EthereumTypes

/// The transaction pool as `txpool_*` shows it and `anvil_drop*` edits it.
///
/// Holds no state of its own (so no lock): the pool lives in the ledger, read and changed under ``NodeChain``'s lock
/// and written with the ledger's other changes.
public final class NodePool: Sendable {
    let chain: NodeChain

    init(chain: NodeChain) { self.chain = chain }

    /// The pool split into executable (`pending`) and nonce-gapped (`queued`) transactions.
    public var content: PoolContent {
        chain.withLedger { chain in
            let split = chain.pool.split { chain.account($0).nonce }
            return PoolContent(pending: split.pending, queued: split.queued)
        }
    }

    /// anvil_dropTransaction: false when the pool has no such transaction.
    public func dropTransaction(_ hash: [UInt8]) -> Bool { chain.withLedger { $0.dropTransaction(hash) } }

    /// anvil_dropAllTransactions: empties the pool (pending and queued). Returns how many were dropped.
    @discardableResult
    public func dropAllTransactions() -> Int {
        chain.withLedger { chain in chain.pool.all.reduce(0) { n, tx in chain.dropTransaction(tx.hash) ? n + 1 : n } }
    }

    /// anvil_removePoolTransactions: drops every pool transaction sent by `sender`. Returns how many.
    @discardableResult
    public func removePoolTransactions(from sender: Address) -> Int {
        chain.withLedger { chain in
            chain.pool.all.filter { $0.sender == sender }.reduce(0) { n, tx in
                chain.dropTransaction(tx.hash) ? n + 1 : n
            }
        }
    }
}
