import JSONCoding
import SeededRandom

/// When and where one fault shape strikes: which paths, clients and methods it watches, and which of the matching
/// calls it hits (skip the first `skip`, then every `every`-th, each with `probability`, at most `count` times).
/// Calls are counted per rule in arrival order, so a seed and the same sequence of calls replay the same faults.
public struct FaultRule: Sendable, Equatable {
    public var shape: FaultShape
    /// Request paths watched (`/`, `/rpc`, `/v3/KEY`…); nil: every path.
    public var paths: Set<String>?
    /// Client IP addresses watched; nil: every client.
    public var clients: Set<String>?
    /// JSON-RPC methods watched; nil: the shape's default set (``FaultShape/defaultMethods``), else every method.
    public var methods: Set<String>?
    /// Matching calls let through before the rule starts.
    public var skip = 0
    /// After `skip`, the rule considers every `every`-th matching call (1: each one).
    public var every = 1
    /// Chance that a considered call is hit (seeded); nil: always.
    public var probability: Double?
    /// Faults injected at most; nil: no end.
    public var count: Int?
    /// `Retry-After` header value in seconds on non-200 answers; nil: no header.
    public var retryAfter: Int?

    /// Matching calls seen and faults injected so far.
    public internal(set) var seen = 0
    public internal(set) var fired = 0
    var random = SplitMix64(seed: 0)

    public init(
        shape: FaultShape, paths: Set<String>? = nil, clients: Set<String>? = nil, methods: Set<String>? = nil,
        skip: Int = 0, every: Int = 1, probability: Double? = nil, count: Int? = nil, retryAfter: Int? = nil
    ) {
        self.shape = shape
        self.paths = paths
        self.clients = clients
        self.methods = methods
        self.skip = skip
        self.every = every
        self.probability = probability
        self.count = count
        self.retryAfter = retryAfter
    }

    /// Whether a call at `path` from `client` for `method` is watched by this rule.
    func watches(path: String, client: String?, method: String?) -> Bool {
        if let paths, !paths.contains(path) { return false }
        if let clients, !clients.contains(client ?? "") { return false }
        guard let watched = methods ?? shape.defaultMethods else { return true }
        guard let method else { return false }
        return watched.contains(method)
    }

    /// Counts one watched call and says whether it is hit.
    mutating func strikes() -> Bool {
        seen += 1
        if let count, fired >= count { return false }
        let position = seen - skip
        guard position > 0, position % max(every, 1) == 0 else { return false }
        if let probability, !random.chance(probability) { return false }
        fired += 1
        return true
    }

    /// The seeded jitter of a latency rule, in milliseconds.
    mutating func jitter(upTo limit: Int) -> Int { limit > 0 ? random.integer(in: 0...limit) : 0 }
}
