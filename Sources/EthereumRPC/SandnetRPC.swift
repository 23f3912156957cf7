import AmbientTraffic
import EthereumNode
import JSONCoding
import JSONRPC

/// The `sandnet` namespace of the Ethereum node, every method in this one file (the ICP ones are in `ICPRPC`'s
/// `ICPMethods.swift`; the provider-fault methods belong to the HTTP server that applies the faults).
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

    /// The developer part (README, "A chain that lives"): the fee profile other users follow and the chain conditions;
    /// served only where developer methods are.
    static func registerDevelopment(_ node: SandnetNode, into d: inout RPCDispatcher) {
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
            node.ambient.setFeeProfile(profile)
            return .bool(true)
        }
        d.registerParameterless("sandnet_getFeeProfile") { .string(node.ambient.feeProfile.rawValue) }
        d.register("sandnet_setChainConditions") { p in
            try p.atMost(1)
            let conditions = try p.required(0, Self.conditions)
            node.conditions.set(conditions)
            return .bool(true)
        }
        d.registerParameterless("sandnet_getChainConditions") { Self.json(node.conditions.conditions) }
    }

    static let conditionFields: Set<String> = [
        "seed", "delayBlocks", "dropProbability", "reorgEvery", "reorgDepth", "reorgRequeue",
    ]

    /// `{seed?, delayBlocks?, dropProbability?, reorgEvery?, reorgDepth?, reorgRequeue?}`; absent fields: none.
    static func conditions(_ json: JSON) throws -> ChainConditions {
        guard let members = json.members else { throw ArgumentError("want an object, got \(json.typeName)") }
        if let unknown = members.first(where: { !conditionFields.contains($0.0) }) {
            throw ArgumentError(
                "unknown field \(JSON.quoted(unknown.0)); known: \(conditionFields.sorted().joined(separator: ", "))")
        }
        func integer(_ key: String, in range: ClosedRange<UInt64>) throws -> UInt64? {
            guard let value = json[key], !value.isNull else { return nil }
            guard let text = value.numberText, let n = UInt64(text), range.contains(n) else {
                throw ArgumentError("\(key): want an integer in \(range.lowerBound)…\(range.upperBound)")
            }
            return n
        }
        var c = ChainConditions()
        c.seed = try integer("seed", in: 0...UInt64.max) ?? 0
        c.delayBlocks = try integer("delayBlocks", in: 0...1_000) ?? 0
        c.reorgEvery = try integer("reorgEvery", in: 0...1_000_000) ?? 0
        c.reorgDepth = try integer("reorgDepth", in: 1...64) ?? 1
        if let value = json["reorgRequeue"], !value.isNull {
            guard let flag = value.boolValue else { throw ArgumentError("reorgRequeue: want a boolean") }
            c.reorgRequeue = flag
        }
        if let value = json["dropProbability"], !value.isNull {
            guard let text = value.numberText, let p = Double(text), p >= 0, p <= 1 else {
                throw ArgumentError("dropProbability: want a number in 0…1")
            }
            c.dropProbability = p
        }
        return c
    }

    static func json(_ c: ChainConditions) -> JSON {
        .object([
            ("seed", .number(String(c.seed))), ("delayBlocks", .int(c.delayBlocks)),
            ("dropProbability", .number(String(c.dropProbability))), ("reorgEvery", .int(c.reorgEvery)),
            ("reorgDepth", .int(c.reorgDepth)), ("reorgRequeue", .bool(c.reorgRequeue)),
        ])
    }
}

extension ChainConditions {
    /// Conditions from `sandnet_setChainConditions`' object (`--chain-conditions` reads the same):
    /// `{seed?, delayBlocks?, dropProbability?, reorgEvery?, reorgDepth?, reorgRequeue?}`.
    ///
    /// - Throws: `ArgumentError` naming the field and its range.
    public init(json: JSON) throws { self = try SandnetRPC.conditions(json) }
}
