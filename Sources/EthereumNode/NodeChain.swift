import EthereumLedger
import EthereumLedgerStorage
import Synchronization

/// The chain's owner: the ledger and its persistence (``PersistentLedger``) behind one lock. Every operation runs
/// under the lock and its changes are written to the data directory as one batch before the lock is released (a
/// failed write rolls memory back, see ``PersistentLedger/perform(_:)``).
///
/// Lock: the innermost lock of the node; nothing else is taken while it is held (the ambient driver reads its own
/// generator inside it, see ``SandnetNode``'s lock order).
public final class NodeChain: Sendable {
    struct State: Sendable {
        var ledger: PersistentLedger
        /// `anvil_metadata`'s instance id: new at start and at every reset.
        var instanceID: [UInt8]
    }

    private let state: Mutex<State>

    init(_ chain: PersistentLedger) { state = Mutex(State(ledger: chain, instanceID: Self.newInstanceID())) }

    /// Runs `body` on the ledger under the lock; what it changed is written before the lock is released.
    func withLedger<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state) throws(E) -> T in try state.ledger.perform(body) }
    }

    /// A read-only copy of the ledger (copy-on-write: O(1)).
    var snapshot: Ledger { state.withLock { $0.ledger.ledger } }

    /// The instance id (`anvil_metadata`) with a read of the ledger, under one lock.
    func withInstance<T>(_ body: ([UInt8], Ledger) -> T) -> T {
        state.withLock { body($0.instanceID, $0.ledger.ledger) }
    }

    /// Flushes the pool and head to disk (clean shutdown).
    func flush() throws(LedgerError) { try state.withLock { (state) throws(LedgerError) in try state.ledger.flush() } }

    /// anvil_reset: replaces the chain with a fresh one from `config` and `genesis`, in the store as one synced write,
    /// and takes a new instance id; when the write fails nothing changes.
    func reset(config: ChainConfig, genesis: [GenesisAccount]) throws(LedgerError) {
        try state.withLock { (state) throws(LedgerError) in
            try state.ledger.reset(to: state.ledger.ledger.reset(config: config, genesis: genesis))
            state.instanceID = Self.newInstanceID()
        }
    }

    /// 32 random bytes: an instance id names a run of the node, it is never part of the chain's state.
    static func newInstanceID() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64) { Array($0) } }
    }

    // MARK: Selectors and log queries (pure functions of a ledger)

    /// One end of a log query's range: a number as given (it may lie past the head), a tag or hash resolved.
    static func rangeEnd(_ selector: BlockSelector?, _ chain: Ledger) -> UInt64? {
        guard let selector else { return nil }
        if case .number(let n) = selector { return n }
        return resolve(selector, chain)
    }

    /// Resolves a block selector to a number; nil when the chain has no such block.
    static func resolve(_ selector: BlockSelector, _ chain: Ledger) -> UInt64? {
        switch selector {
        case .latest, .pending: return chain.blockNumber
        case .earliest: return 0
        case .safe: return chain.blockNumber >= 32 ? chain.blockNumber - 32 : 0
        case .finalized: return chain.blockNumber >= 64 ? chain.blockNumber - 64 : 0
        case .number(let n): return n <= chain.blockNumber ? n : nil
        case .hash(let h): return chain.block(hash: h)?.number
        }
    }

    /// The block a state read looks at: nil for the head (and `pending`), else its number; geth's
    /// "header not found" for a block the chain does not have.
    static func stateBlock(_ selector: BlockSelector?, _ chain: Ledger) throws(NodeError) -> UInt64? {
        if case .pending? = selector { return nil }
        guard let n = resolve(selector ?? .latest, chain) else { throw .headerNotFound }
        return n == chain.blockNumber ? nil : n
    }

    /// The longest block range eth_getLogs scans (Alchemy's and Infura's 100,000 blocks / -32005).
    static let maxLogRange: UInt64 = 100_000

    /// The logs matching `filter`, in chain order.
    static func logs(_ filter: LogFilter, _ chain: Ledger) throws(NodeError) -> [LogEntry] {
        var blocks: [Block] = []
        if let hash = filter.blockHash {
            guard let b = chain.block(hash: hash) else { throw .unknownBlock }
            blocks = [b]
        } else {
            let head = chain.blockNumber
            let from = rangeEnd(filter.fromBlock, chain) ?? head
            let to = rangeEnd(filter.toBlock, chain) ?? head
            guard from <= to else { throw .invalidBlockRange }
            guard to <= head else { throw .blockRangeBeyondHead }
            guard to - from <= maxLogRange else { throw .blockRangeTooLarge(limit: maxLogRange) }
            blocks = (from...to).compactMap { chain.block(number: $0) }
        }
        var out: [LogEntry] = []
        for block in blocks {
            for receipt in block.receipts {
                for (i, log) in receipt.logs.enumerated() where filter.matches(log) {
                    out.append(LogEntry(log: log, receipt: receipt, block: block, index: i))
                }
            }
        }
        return out
    }
}
