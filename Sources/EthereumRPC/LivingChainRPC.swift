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
