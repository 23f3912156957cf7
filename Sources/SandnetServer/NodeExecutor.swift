import JSONCoding
import JSONRPC
import NIOPosix

/// Runs calls into the node (the JSON-RPC dispatcher, faucet claims, the interval miner's tick) on threads of their
/// own, so a request waiting for the ledger lock (held across sealing a block and its disk write) never blocks a
/// thread of Swift's cooperative pool, which serves every connection's I/O.
///
/// Methods registered to run inline (``RPCExecution/inline``: answered from memory, taking no ledger lock and reading
/// no store) run on the calling task instead: handing them over costs more than they do. Everything that may wait on
/// the ledger lock or read LevelDB (eth_getBalance, eth_getBlockByNumber, old-block reads) is handed over.

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

    /// One HTTP body or WebSocket message: parsed here; a request or batch of methods registered inline only is
    /// answered on the calling task, anything else on the pool.
    func handle(
        _ body: [UInt8], dispatcher: RPCDispatcher, overlay: [String: RPCMethod], client: RPCClient
    ) async throws -> [UInt8]? {
        guard let document = try? JSON.parse(body) else {
            return dispatcher.handle(body, overlay: overlay, client: client)  // the parse error, at once
        }
        if dispatcher.mayRunInline(RPCDispatcher.methodNames(in: document), overlay: overlay) {
            return dispatcher.handle(document: document, overlay: overlay, client: client)
        }
        return try await run { dispatcher.handle(document: document, overlay: overlay, client: client) }
    }
}
