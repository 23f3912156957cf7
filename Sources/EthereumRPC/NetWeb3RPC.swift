import EthereumNode
import JSONCoding
import JSONRPC
import KeccakHashing

/// The `net` and `web3` namespaces. Inline (``RPCExecution``): the ones that never reach the chain.
enum NetWeb3RPC {
    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        let configuration = node.configuration
        d.registerParameterless("web3_clientVersion", runs: .inline) { .string(configuration.clientVersion) }
        d.register("web3_sha3", runs: .inline) { p in
            try p.atMost(1)
            return Format.data(Keccak256.hash(try p.required(0, Arg.data)))
        }
        d.registerParameterless("net_version") { .string(String(node.chainID)) }
        d.registerParameterless("net_listening", runs: .inline) { .bool(true) }
        d.registerParameterless("net_peerCount", runs: .inline) { Format.q(UInt64(0)) }
    }
}
