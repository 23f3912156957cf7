import AmbientTraffic
import EthereumNode
import JSONCoding
import JSONRPC

/// Developer methods of the living chain (README, "A chain that lives"): the fee profile other users follow.
enum LivingChainRPC {
    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register("sandnet_setFeeProfile") { p in
            try p.atMost(1)
            let name = try p.required(0) { json -> String in
                guard let text = json.stringValue else { throw ArgumentError("want a string, got \(json.typeName)") }
                return text
            }
            guard let profile = FeeProfile(rawValue: name) else {
                throw RPCError.invalidParams(
                    "invalid argument 0: unknown fee profile \(JSON.quoted(name)); known: "
                        + FeeProfile.names.joined(separator: ", "))
            }
            node.setFeeProfile(profile)
            return .bool(true)
        }
        d.registerParameterless("sandnet_getFeeProfile") { .string(node.feeProfile.rawValue) }
    }
}
