import EthereumNode
import JSONCoding
import JSONRPC

/// The `sandnet` namespace of the Ethereum node (the ICP methods live in `ICPRPC`).
enum SandnetRPC {
    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        let configuration = node.configuration
        d.register("sandnet_faucet") { p in
            // The same rules as POST /api/claim (cooldown per address and per client IP); more than the payout
            // only where developer methods are served.
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let amount = try p.optional(1, Arg.uint256)
            let payout = configuration.faucetAmount
            if let amount, amount > payout, !configuration.devMethodsEnabled {
                throw RPCError.invalidParams(
                    "invalid argument 1: amount \(amount) wei exceeds the faucet payout of \(payout) wei; larger "
                        + "amounts need developer methods (--allow-dev-methods)")
            }
            return Format.data(try node.faucet.claim(address: address, amount: amount, clientIP: p.client.address))
        }
    }
}
