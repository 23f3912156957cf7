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
        if node.configuration.devMethodsEnabled { DevRPC.register(node, into: &d) }
        return d.methods
    }

    /// A dispatcher serving `node`'s methods and `additional` ones (other components', such as the ICP replica's
    /// `sandnet_icp*`); the node's own win on a name clash.
    public static func dispatcher(_ node: SandnetNode, additional: [String: RPCMethod] = [:]) -> RPCDispatcher {
        var d = RPCDispatcher()
        d.methods = additional.merging(table(node)) { _, own in own }
        return d
    }
}
