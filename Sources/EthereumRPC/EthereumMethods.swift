import EthereumNode
import JSONRPC

/// The Ethereum node's JSON-RPC method table: one file per namespace (``EthRPC``, ``NetWeb3RPC``, ``TxPoolRPC``,
/// ``DevRPC``, ``SandnetRPC``), each converting arguments and results around the node's typed API; errors are mapped
/// in `RPCErrorMapping.swift`.
public enum EthereumMethods {
    /// Every method of `node`: the developer methods only when its configuration serves them.
    public static func table(_ node: SandnetNode) -> [String: RPCMethod] {
        var d = RPCDispatcher()
        NetWeb3RPC.register(node, into: &d)
        EthRPC.register(node, into: &d)
        TxPoolRPC.register(node, into: &d)
        SandnetRPC.register(node, into: &d)
        OtterscanRPC.register(node, into: &d)
        if node.configuration.devMethodsEnabled {
            DevRPC.register(node, into: &d)
            LivingChainRPC.register(node, into: &d)
        }
        return d.methods
    }

    /// A dispatcher serving `node`'s methods and `additional` ones (other components', such as the ICP replica's
    /// `sandnet_icp*`); the node's own win on a name clash.
    public static func dispatcher(_ node: SandnetNode, additional: [String: RPCMethod] = [:]) -> RPCDispatcher {
        var d = RPCDispatcher()
        d.methods = additional.merging(table(node)) { _, own in own }
        return d
    }

    /// Methods that answer from memory with a short hold of the ledger lock and never seal, write or scan: a
    /// transport may run them on the calling thread instead of handing them to threads of their own. (They may
    /// still wait for a block being sealed, for as long as that one seal takes.) Log queries, fee histories,
    /// pool dumps, signing and everything that writes are not among them.
    public static let quickReads: Set<String> = [
        "web3_clientVersion", "net_version", "net_listening", "net_peerCount", "eth_chainId", "eth_syncing",
        "eth_mining", "eth_hashrate", "eth_coinbase", "eth_accounts", "eth_blockNumber", "eth_gasPrice",
        "eth_maxPriorityFeePerGas", "eth_blobBaseFee", "eth_getBalance", "eth_getTransactionCount", "eth_getCode",
        "eth_getStorageAt", "eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getRawTransactionByHash",
        "eth_getBlockByNumber", "eth_getBlockByHash", "eth_getBlockTransactionCountByNumber",
        "eth_getBlockTransactionCountByHash", "eth_getTransactionByBlockHashAndIndex",
        "eth_getTransactionByBlockNumberAndIndex", "eth_getUncleCountByBlockNumber", "eth_getUncleCountByBlockHash",
        "txpool_status", "anvil_getAutomine", "hardhat_getAutomine", "anvil_nodeInfo",
    ]
}
