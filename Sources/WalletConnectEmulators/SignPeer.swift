import ByteCoding
import JSONCoding
import Synchronization
import WalletConnect

/// One side of Sign API sessions over a ``RelayClient``: the symmetric key of each topic it follows, its requests
/// awaiting answers, and a handler for the peer's requests (whose answer it publishes with the response tag).
final class SignPeer: Sendable {
    typealias Handler = @Sendable (_ topic: String, _ request: JSON) async -> JSON?

    struct State {
        var keys: [String: [UInt8]] = [:]
        var waiting: [String: CheckedContinuation<JSON, any Error>] = [:]
        var nextID: Int64
        var handler: Handler?
    }

    let relay: RelayClient
    let state: Mutex<State>

    /// Request tag and TTL per method (reference §1.4); the response tag is the request tag + 1.
    static let tags: [String: (tag: Int64, ttl: Int64, prompt: Bool)] = [
        "wc_sessionPropose": (1100, 300, true), "wc_sessionSettle": (1102, 300, false),
        "wc_sessionUpdate": (1104, 86_400, false), "wc_sessionExtend": (1106, 86_400, false),
        "wc_sessionRequest": (1108, 300, true), "wc_sessionEvent": (1110, 300, true),
        "wc_sessionDelete": (1112, 86_400, false), "wc_sessionPing": (1114, 30, false),
        "wc_pairingDelete": (1000, 86_400, false), "wc_pairingPing": (1002, 30, false),
    ]

    init(relay: RelayClient) {
        self.relay = relay
        // 16-digit ids, as the JS SDK's payloadId.
        state = Mutex(State(nextID: 1_700_000_000_000_000 + Int64.random(in: 0..<1_000_000_000)))
    }

    /// Starts reading deliveries (one task for the connection's life).
    func start(handler: @escaping Handler) -> Task<Void, Never> {
        state.withLock { $0.handler = handler }
        return Task { [self] in
            for await delivery in relay.deliveries { await handle(delivery) }
            let waiting = state.withLock {
                let w = $0.waiting
                $0.waiting = [:]
                return w
            }
            for waiter in waiting.values { waiter.resume(throwing: RelayClient.Failure("the relay connection closed")) }
        }
    }

    /// Follows a topic: its key is kept and the relay subscription made (stored messages arrive then).
    func follow(_ topic: String, symKey: [UInt8]) async throws {
        state.withLock { $0.keys[topic] = symKey }
        try await relay.subscribe(topic)
    }

    func forget(_ topic: String) { state.withLock { $0.keys[topic] = nil } }

    func key(of topic: String) -> [UInt8]? { state.withLock { $0.keys[topic] } }

    /// Sends a request on a followed topic and waits for the peer's response (the whole JSON-RPC response).
    func request(_ topic: String, method: String, params: JSON) async throws -> JSON {
        let reserved: (Int64, [UInt8])? = state.withLock { s in
            guard let key = s.keys[topic] else { return nil }
            let id = s.nextID
            s.nextID += 1
            return (id, key)
        }
        guard let reserved else { throw RelayClient.Failure("no key for topic \(topic)") }
        let (id, key) = reserved
        let message = try SignMessage.seal(SignMessage.request(id: id, method: method, params: params), symKey: key)
        let route = Self.tags[method] ?? (0, 300, false)
        return try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.waiting[String(id)] = continuation }
            Task {
                do {
                    try await relay.publish(
                        topic, message: message, tag: route.tag, ttl: route.ttl, prompt: route.prompt)
                } catch {
                    state.withLock { $0.waiting.removeValue(forKey: String(id)) }?.resume(throwing: error)
                }
            }
        }
    }

    /// Publishes a response to `request` on `topic` (tag: the request's + 1, or `tag`).
    /// `symKey`: the topic's key when the handler may have forgotten the topic (a delete is still answered).
    func respond(_ topic: String, to request: JSON, with response: JSON, tag: Int64? = nil, symKey: [UInt8]? = nil)
        async throws
    {
        guard let key = symKey ?? key(of: topic) else { return }
        let method = request["method"]?.stringValue ?? ""
        let route = Self.tags[method] ?? (0, 300, false)
        try await relay.publish(
            topic, message: try SignMessage.seal(response, symKey: key),
            tag: tag ?? (route.tag == 0 ? 0 : route.tag + 1),
            ttl: route.ttl)
    }

    func handle(_ delivery: RelayClient.Delivery) async {
        guard let key = key(of: delivery.topic), let json = try? SignMessage.open(delivery.message, symKey: key)
        else { return }
        if json["method"] != nil {
            let handler = state.withLock { $0.handler }
            if let response = await handler?(delivery.topic, json) {
                do {
                    try await respond(delivery.topic, to: json, with: response, symKey: key)
                } catch {
                    // The connection is gone; a waiting request of the peer times out as it would in the field.
                }
            }
            return
        }
        let id = json["id"]?.numberText ?? json["id"]?.stringValue ?? ""
        state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: json)
    }
}
