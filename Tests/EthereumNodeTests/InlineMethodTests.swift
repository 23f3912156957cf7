import EthereumNode
import EthereumRPC
import JSONRPC
import Testing

/// Where a method may run is part of its registration (``RPCExecution``): only methods that never reach the chain are
/// inline; everything that takes the ledger lock (held while a block is sealed and written) or reads the store is
/// handed to the executor.
struct InlineMethodTests {
    @Test func onlyMethodsThatNeverReachTheChainAreInline() throws {
        let dispatcher = EthereumMethods.dispatcher(try SandnetNode(configuration: NodeConfiguration()))
        #expect(
            dispatcher.inlineMethods == [
                "web3_clientVersion", "web3_sha3", "net_listening", "net_peerCount", "eth_syncing", "eth_hashrate",
                "eth_accounts", "eth_blobBaseFee",
            ])
        // Once "quick reads": each takes the ledger lock, and the block and transaction reads go to LevelDB for
        // blocks the bounded cache no longer holds.
        for name in [
            "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getBlockTransactionCountByNumber",
            "eth_getTransactionByBlockNumberAndIndex", "eth_getTransactionByHash", "eth_getTransactionReceipt",
            "eth_getRawTransactionByHash", "eth_getBalance", "eth_getCode", "eth_getStorageAt",
            "eth_getTransactionCount", "eth_blockNumber", "eth_chainId", "net_version", "eth_gasPrice",
            "txpool_status", "anvil_getAutomine", "anvil_nodeInfo",
        ] {
            #expect(dispatcher.methods[name] != nil, "\(name) is served")
            #expect(!dispatcher.mayRunInline([name]), "\(name) must run on the executor")
        }
        // A batch runs inline only when every call may; a connection's own methods (overlay) never do.
        #expect(dispatcher.mayRunInline(["eth_syncing", "net_listening"]))
        #expect(!dispatcher.mayRunInline(["eth_syncing", "eth_getBalance"]))
        #expect(!dispatcher.mayRunInline([]))
        #expect(!dispatcher.mayRunInline(["eth_syncing"], overlay: ["eth_syncing": { _ in .null }]))
    }

    @Test func aLaterRegistrationReplacesTheExecution() {
        var d = RPCDispatcher()
        d.register("m", runs: .inline) { _ in .null }
        #expect(d.inlineMethods == ["m"])
        d.register("m") { _ in .bool(true) }
        #expect(d.inlineMethods.isEmpty)
        var other = RPCDispatcher()
        other.registerParameterless("a", "b", runs: .inline) { .null }
        d.register(contentsOf: other)
        #expect(d.inlineMethods == ["a", "b"] && d.methods.keys.sorted() == ["a", "b", "m"])
    }
}
