import EthereumNode
import JSONRPC

/// The Ethereum node's JSON-RPC method table: one file per namespace (``EthRPC``, ``NetWeb3RPC``, ``TxPoolRPC``,
/// ``DevRPC``, ``SandnetRPC``), each converting arguments and results around the node's typed API; errors are mapped
/// in `RPCErrorMapping.swift`.
public enum EthereumMethods {
    /// Every method of `node`: the developer methods only when its configuration serves them. Each registration
    /// says whether a transport may run it inline (``RPCExecution``): only methods that take no ledger lock and read
    /// no store. `snapshots` is what evm_snapshot and evm_revert act on (the node's chain when nil).
    public static func methods(_ node: SandnetNode, snapshots: (any SnapshotControls)? = nil) -> RPCDispatcher {
        var d = RPCDispatcher()
        NetWeb3RPC.register(node, into: &d)
        EthRPC.register(node, into: &d)
        TxPoolRPC.register(node, into: &d)
        SandnetRPC.register(node, into: &d)
        OtterscanRPC.register(node, into: &d)
        if node.configuration.devMethodsEnabled {
            DevRPC.register(node, snapshots: snapshots ?? node.dev, into: &d)
            SandnetRPC.registerDevelopment(node, into: &d)
            NFTRPC.register(node, into: &d)
        }
        return d
    }

    /// A dispatcher serving `node`'s methods and `additional` ones (other components', such as the ICP replica's
    /// `sandnet_icp*`, run on the executor); the node's own win on a name clash.
    public static func dispatcher(
        _ node: SandnetNode, additional: [String: RPCMethod] = [:], snapshots: (any SnapshotControls)? = nil
    ) -> RPCDispatcher {
        var d = RPCDispatcher()
        for (name, method) in additional { d.register(name, method) }
        d.register(contentsOf: methods(node, snapshots: snapshots))
        return d
    }
}
