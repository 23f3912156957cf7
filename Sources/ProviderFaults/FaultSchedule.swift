import JSONCoding
import SeededRandom

/// The faults of one endpoint: an ordered list of rules and the seed of their random choices. A pure value:
/// ``decide(path:client:calls:)`` says what to do with a request and advances the rules' counters; the server's
/// middleware does the effect (waits, answers, forwards).
public struct FaultSchedule: Sendable, Equatable {
    public var seed: UInt64
    public private(set) var rules: [FaultRule]

    public init(seed: UInt64 = 0, rules: [FaultRule] = []) {
        self.seed = seed
        self.rules = []
        for rule in rules { append(rule) }
    }

    /// Adds a rule; its random stream is the seed's stream number `rules.count`.
    public mutating func append(_ rule: FaultRule) {
        var rule = rule
        rule.random = SplitMix64(seed: seed, stream: UInt64(rules.count))
        rules.append(rule)
    }

    public var isEmpty: Bool { rules.isEmpty }

    /// One JSON-RPC call of a request: its method (nil when unreadable) and id.
    public struct Call: Sendable, Equatable {
        public var method: String?
        public var id: JSON
        public init(method: String?, id: JSON) {
            self.method = method
            self.id = id
        }
    }

    /// What the server does with a request.
    public struct Decision: Sendable, Equatable {
        /// Wait this long first (latency rules and the timeout shape).
        public var delay: Duration = .zero
        /// Answer the whole request with this, without serving it.
        public var response: FaultResponse?
        /// For a batch (or a single call) served in part: the answer that replaces call `index`.
        public var replaced: [Int: JSON] = [:]

        public init() {}

        /// Serve the request untouched (after `delay`).
        public var passes: Bool { response == nil && replaced.isEmpty }
    }

    /// Decides the fate of a request at `path` from `client` carrying `calls` (`batch`: the body was an array).
    public mutating func decide(path: String, client: String?, calls: [Call], batch: Bool) -> Decision {
        var decision = Decision()
        guard !rules.isEmpty else { return decision }
        let methods: [String?] = calls.isEmpty ? [nil] : calls.map(\.method)
        // Latency first: every latency rule that strikes adds its delay, and the request goes on.
        for index in rules.indices {
            guard case .latency(let base, let jitter) = rules[index].shape else { continue }
            guard methods.contains(where: { rules[index].watches(path: path, client: client, method: $0) }) else {
                continue
            }
            if rules[index].strikes() {
                decision.delay += .milliseconds(base + rules[index].jitter(upTo: jitter))
            }
        }
        // Whole-request shapes: the first that strikes answers the request (Etherscan's shapes never on JSON-RPC).
        for index in rules.indices where !rules[index].shape.isPerItem && !rules[index].shape.isEtherscan {
            let shape = rules[index].shape
            if case .latency = shape { continue }
            if case .webSocketDisconnect = shape { continue }
            guard methods.contains(where: { rules[index].watches(path: path, client: client, method: $0) }) else {
                continue
            }
            guard rules[index].strikes() else { continue }
            if case .timeout(let seconds) = shape { decision.delay += .seconds(seconds) }
            decision.response = shape.response(
                ids: calls.map(\.id), batch: batch, retryAfter: rules[index].retryAfter)
            return decision
        }
        // Per-call shapes: each call of a batch counts on its own, as a provider counts compute units.
        for (position, call) in calls.enumerated() {
            for index in rules.indices where rules[index].shape.isPerItem {
                guard rules[index].watches(path: path, client: client, method: call.method) else { continue }
                guard rules[index].strikes() else { continue }
                if let object = rules[index].shape.errorObject(id: call.id) { decision.replaced[position] = object }
                if !batch {
                    decision.response = rules[index].shape.response(
                        ids: [call.id], batch: false, retryAfter: rules[index].retryAfter)
                }
                break
            }
        }
        // A batch whose every call was replaced is answered whole (Alchemy: HTTP 200, an array of errors).
        if batch, !calls.isEmpty, decision.replaced.count == calls.count {
            decision.response = FaultResponse(
                status: 200, headers: [("Content-Type", "application/json")],
                body: JSON.array(calls.indices.map { decision.replaced[$0]! }).bytes)
        }
        return decision
    }

    /// Decides the fate of one Etherscan API request at `path` (`/api`, `/v2/api`) for `method` (`module.action`,
    /// as rules name it: `account.txlist`): latency rules add their delay, then the first `etherscan-*` rule that
    /// strikes answers it. JSON-RPC shapes never answer these paths.
    public mutating func decideEtherscan(path: String, client: String?, method: String) -> Decision {
        var decision = Decision()
        for index in rules.indices where rules[index].watches(path: path, client: client, method: method) {
            switch rules[index].shape {
            case .latency(let base, let jitter):
                if rules[index].strikes() { decision.delay += .milliseconds(base + rules[index].jitter(upTo: jitter)) }
            case let shape where shape.isEtherscan:
                guard decision.response == nil, rules[index].strikes() else { continue }
                decision.response = shape.response(ids: [], batch: false, retryAfter: nil)
            default:
                continue
            }
        }
        return decision
    }

    /// Whether a WebSocket message carrying `calls` on the connection upgraded at `path` severs it (the first
    /// `websocket-disconnect` rule that watches and strikes).
    public mutating func severs(path: String, client: String?, calls: [Call]) -> Bool {
        let methods: [String?] = calls.isEmpty ? [nil] : calls.map(\.method)
        for index in rules.indices {
            guard case .webSocketDisconnect = rules[index].shape else { continue }
            guard methods.contains(where: { rules[index].watches(path: path, client: client, method: $0) }) else {
                continue
            }
            if rules[index].strikes() { return true }
        }
        return false
    }

    /// The calls of a JSON-RPC body (an object or an array of objects); nil when the body is not JSON-RPC (the
    /// node answers it with its own parse error).
    public static func calls(of body: [UInt8]) -> (calls: [Call], batch: Bool)? {
        guard let json = try? JSON.parse(body) else { return nil }
        func call(_ item: JSON) -> Call { Call(method: item["method"]?.stringValue, id: item["id"] ?? .null) }
        switch json {
        case .object: return ([call(json)], false)
        case .array(let items): return (items.map(call), true)
        default: return nil
        }
    }
}
