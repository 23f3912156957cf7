import JSONCoding
import JSONRPC
import NIOPosix

/// Runs calls into the node (the JSON-RPC dispatcher, faucet claims, the interval miner's tick) on threads of their
/// own, so a request waiting for the ledger lock (held across sealing a block and its disk write) never blocks a
/// thread of Swift's cooperative pool, which serves every connection's I/O.
///
/// Quick reads (``DevelopmentNetwork/quickMethods``: answered from memory, never sealing, writing or scanning) run on
/// the calling task instead: handing them over costs more than they do (eth_getBalance under wrk: 11.7 K req/s
/// handed over, 24 K inline, Benchmarks/README.md).
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

    /// One HTTP body or WebSocket message: parsed here; a request or batch of quick reads only is answered on the
    /// calling task, anything else on the pool.
    func handle(
        _ body: [UInt8], dispatcher: RPCDispatcher, quick: Set<String>, overlay: [String: RPCMethod], client: RPCClient
    ) async throws -> [UInt8]? {
        guard let document = try? JSON.parse(body) else {
            return dispatcher.handle(body, overlay: overlay, client: client)  // the parse error, at once
        }
        let names = RPCDispatcher.methodNames(in: document)
        if !names.isEmpty && names.allSatisfy({ quick.contains($0) && overlay[$0] == nil }) {
            return dispatcher.handle(document: document, overlay: overlay, client: client)
        }
        return try await run { dispatcher.handle(document: document, overlay: overlay, client: client) }
    }
}
