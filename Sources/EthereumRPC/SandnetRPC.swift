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
            // sandnet_faucet(address, amount?, token?): with a token (symbol or address) the amount is in its units.
            try p.atMost(3)
            let address = try p.required(0, Arg.address)
            let amount = try p.optional(1, Arg.uint256)
            let token = try p.optional(2, Arg.string).map { (name) throws(NodeError) in try node.parameters.token(name)
            }
            let payout = token.map { node.faucet.tokenPayout($0) } ?? configuration.faucetAmount
            let unit = token.map { "units of \($0.symbol)" } ?? "wei"
            if let amount, amount > payout, !configuration.devMethodsEnabled {
                throw RPCError.invalidParams(
                    "invalid argument 1: amount \(amount) \(unit) exceeds the faucet payout of \(payout) \(unit); larger "
                        + "amounts need developer methods (--allow-dev-methods)")
            }
            return Format.data(
                try node.faucet.claim(address: address, amount: amount, token: token, clientIP: p.client.address))
        }
    }
}
