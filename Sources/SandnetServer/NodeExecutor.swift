import NIOPosix

/// Runs calls into the node (the JSON-RPC dispatcher, faucet claims, the interval miner's tick) on threads of their
/// own, so a request waiting for the ledger lock (held across sealing a block and its disk write) never blocks a
/// thread of Swift's cooperative pool, which serves every connection's I/O.
///
/// The pool has ``ServerConfiguration/nodeThreads`` threads: automatic mining is a group commit (transactions that
/// arrive while a block is sealed share the next one), so more threads in flight make larger blocks; a thread waiting
/// on a lock costs no CPU.
struct NodeExecutor: Sendable {
    let pool: NIOThreadPool

    init(threads: Int) { pool = NIOThreadPool(numberOfThreads: max(1, threads)) }

    func start() { pool.start() }

    func shutdown() async { try? await pool.shutdownGracefully() }

    /// `body` on one of the pool's threads; its result or error handed back to the awaiting task.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive(body)
    }
}
