import JSONCoding

/// A fault configuration that cannot be used, naming the field.
public struct FaultConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

extension FaultShape {
    /// Every shape name with its parameters, as the README lists them.
    public static let names = [
        "http-429", "infura-rate-limit", "infura-daily-cap", "infura-key-throughput", "alchemy-compute-units",
        "alchemy-monthly-cap", "http-500", "http-502", "http-503", "http-504", "timeout", "header-not-found",
        "stale-read", "latency", "websocket-disconnect", "etherscan-rate-limit", "etherscan-calls-per-second",
    ]

    init(name: String, rule: JSON) throws(FaultConfigurationError) {
        switch name {
        case "http-429": self = .tooManyRequests
        case "infura-rate-limit":
            self = .infuraRateLimit(backoffSeconds: try rule.integer("backoffSeconds", default: 30, in: 0...86_400))
        case "infura-daily-cap": self = .infuraDailyCap
        case "infura-key-throughput": self = .infuraKeyThroughput
        case "alchemy-compute-units": self = .alchemyComputeUnits
        case "alchemy-monthly-cap": self = .alchemyMonthlyCap
        case "etherscan-rate-limit": self = .etherscanRateLimit
        case "etherscan-calls-per-second": self = .etherscanCallsPerSecond
        case "http-500": self = .loadBalancer(status: 500)
        case "http-502": self = .loadBalancer(status: 502)
        case "http-503": self = .loadBalancer(status: 503)
        case "http-504": self = .loadBalancer(status: 504)
        case "timeout": self = .timeout(seconds: try rule.integer("seconds", default: 60, in: 0...600))
        case "header-not-found": self = .headerNotFound
        case "stale-read": self = .staleRead
        case "websocket-disconnect": self = .webSocketDisconnect
        case "latency":
            self = .latency(
                milliseconds: try rule.integer("milliseconds", default: 0, in: 0...60_000),
                jitter: try rule.integer("jitter", default: 0, in: 0...60_000))
        default:
            throw FaultConfigurationError(
                "unknown fault shape \(JSON.quoted(name)); known: \(Self.names.joined(separator: ", "))")
        }
    }

    /// The shape's parameters as configuration members.
    var parameters: [(String, JSON)] {
        switch self {
        case .infuraRateLimit(let backoff): [("backoffSeconds", .int(backoff))]
        case .timeout(let seconds): [("seconds", .int(seconds))]
        case .latency(let ms, let jitter): [("milliseconds", .int(ms)), ("jitter", .int(jitter))]
        default: []
        }
    }
}

extension JSON {
    fileprivate func integer(_ key: String, default value: Int, in range: ClosedRange<Int>)
        throws(FaultConfigurationError)
        -> Int
    {
        guard let member = self[key], !member.isNull else { return value }
        guard let text = member.numberText, let number = Int(text), range.contains(number) else {
            throw FaultConfigurationError(
                "\(key): want an integer in \(range.lowerBound)…\(range.upperBound), got \(member.serialized)")
        }
        return number
    }

    fileprivate func strings(_ key: String) throws(FaultConfigurationError) -> Set<String>? {
        guard let member = self[key], !member.isNull else { return nil }
        guard let items = member.arrayValue else { throw FaultConfigurationError("\(key): want an array of strings") }
        var out: Set<String> = []
        for item in items {
            guard let text = item.stringValue else { throw FaultConfigurationError("\(key): want an array of strings") }
            out.insert(text)
        }
        return out
    }
}

extension FaultSchedule {
    /// Rules at most (each one is checked per request).
    public static let maximumRules = 64

    /// A schedule from its JSON form: `{"seed": 7, "rules": [{"shape": "infura-rate-limit", "paths": ["/v3/key"],
    /// "every": 3, "retryAfter": 1, "backoffSeconds": 30}, …]}` (README, "Provider faults").
    public init(json: JSON) throws(FaultConfigurationError) {
        guard let members = json.members else { throw FaultConfigurationError("want an object {seed, rules}") }
        let known: Set<String> = ["seed", "rules"]
        if let unknown = members.first(where: { !known.contains($0.0) }) {
            throw FaultConfigurationError("unknown field \(JSON.quoted(unknown.0))")
        }
        var seed: UInt64 = 0
        if let value = json["seed"], !value.isNull {
            guard let text = value.numberText, let number = UInt64(text) else {
                throw FaultConfigurationError("seed: want an integer in 0…\(UInt64.max)")
            }
            seed = number
        }
        var items: [JSON] = []
        if let rules = json["rules"], !rules.isNull {
            guard let array = rules.arrayValue else {
                throw FaultConfigurationError("rules: want an array of rule objects")
            }
            items = array
        }
        guard items.count <= Self.maximumRules else {
            throw FaultConfigurationError("rules: at most \(Self.maximumRules), got \(items.count)")
        }
        self.init(seed: seed)
        for (index, item) in items.enumerated() {
            do throws(FaultConfigurationError) {
                append(try FaultRule(json: item))
            } catch {
                throw FaultConfigurationError("rules[\(index)]: \(error.description)")
            }
        }
    }

    /// The configuration and each rule's counters (`seen`, `fired`).
    public var json: JSON {
        .object([("seed", .number(String(seed))), ("rules", .array(rules.map(\.json)))])
    }
}

extension FaultRule {
    static let fields: Set<String> = [
        "shape", "paths", "clients", "methods", "skip", "every", "probability", "count", "retryAfter",
        "backoffSeconds", "seconds", "milliseconds", "jitter",
    ]

    init(json: JSON) throws(FaultConfigurationError) {
        guard let members = json.members else { throw FaultConfigurationError("want an object") }
        if let unknown = members.first(where: { !Self.fields.contains($0.0) }) {
            throw FaultConfigurationError("unknown field \(JSON.quoted(unknown.0))")
        }
        guard let name = json["shape"]?.stringValue else { throw FaultConfigurationError("shape: missing") }
        self.init(shape: try FaultShape(name: name, rule: json))
        paths = try json.strings("paths")
        clients = try json.strings("clients")
        methods = try json.strings("methods")
        skip = try json.integer("skip", default: 0, in: 0...Int(Int32.max))
        every = try json.integer("every", default: 1, in: 1...Int(Int32.max))
        if let member = json["count"], !member.isNull {
            count = try json.integer("count", default: 0, in: 0...Int(Int32.max))
        }
        if let member = json["retryAfter"], !member.isNull {
            retryAfter = try json.integer("retryAfter", default: 0, in: 0...86_400)
        }
        if let member = json["probability"], !member.isNull {
            guard let text = member.numberText, let p = Double(text), p >= 0, p <= 1 else {
                throw FaultConfigurationError("probability: want a number in 0…1, got \(member.serialized)")
            }
            probability = p
        }
    }

    var json: JSON {
        var members: [(String, JSON)] = [("shape", .string(shape.name))]
        members += shape.parameters
        if let paths { members.append(("paths", .array(paths.sorted().map(JSON.string)))) }
        if let clients { members.append(("clients", .array(clients.sorted().map(JSON.string)))) }
        if let methods { members.append(("methods", .array(methods.sorted().map(JSON.string)))) }
        if skip != 0 { members.append(("skip", .int(skip))) }
        if every != 1 { members.append(("every", .int(every))) }
        if let probability { members.append(("probability", .number(String(probability)))) }
        if let count { members.append(("count", .int(count))) }
        if let retryAfter { members.append(("retryAfter", .int(retryAfter))) }
        members += [("seen", .int(seen)), ("fired", .int(fired))]
        return .object(members)
    }
}
