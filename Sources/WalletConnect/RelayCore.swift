import ByteCoding
import JSONCoding

/// The WalletConnect v2 relay ("irn" JSON-RPC; WalletConnect specs, servers/relay/relay-server-rpc.md) as a pure
/// state machine: a frame in, the frames and closes to send out. No I/O, no clock of its own (every call takes
/// `now` in milliseconds since 1970), so tests and faults are deterministic. Its owner (the server's
/// `WalletConnectRelay`) does the sending.
///
/// What it keeps: the connections with their client id (the JWT's `iss`) and subscriptions; a mailbox per topic
/// (every publish until `publishedAt + ttl`, with the client ids that acknowledged it); the deliveries sent and
/// not yet acknowledged (resent after ``RelayLimits/redeliveryInterval``, at most
/// ``RelayLimits/maxDeliveryAttempts`` times). A live publish goes to every subscriber of its topic except the
/// publishing connection; a (re)subscription delivers what that client has not acknowledged yet.
public struct RelayCore: Sendable {
    public typealias ConnectionID = UInt64

    /// What the owner must do.
    public enum Action: Sendable, Equatable {
        /// Send this text frame on the connection.
        case send(ConnectionID, String)
        /// Close the connection with this WebSocket close code and reason.
        case close(ConnectionID, code: UInt16, reason: String)
    }

    /// One publish as the relay saw it (tags, TTLs and prompts are routing hints a scenario may assert on).
    public struct PublishRecord: Sendable, Equatable {
        public var method: String
        public var topic: String
        public var tag: Int64
        public var ttl: Int64
        public var prompt: Bool
        public var clientID: String
        public var messageID: String
        public var publishedAt: Int64
    }

    struct Stored {
        var topic: String
        var message: String
        var messageID: String
        var publishedAt: Int64
        var expiresAt: Int64
        var tag: Int64
        var publisher: String
        var attestation: JSON?
        var acknowledgedBy: Set<String> = []
    }

    struct Connection {
        var clientID: String
        /// topic → subscription id
        var topics: [String: String] = [:]
        var pending = 0
    }

    struct Pending {
        var connection: ConnectionID
        var topic: String
        var messageID: String
        var attempts: Int
        var sentAt: Int64
    }

    struct Held {
        var connection: ConnectionID
        var topic: String
        var messageID: String
        var releaseAt: Int64?
    }

    public var limits: RelayLimits
    public var faults = RelayFaults()
    /// The last ``RelayLimits/logSize`` publishes, oldest first.
    public private(set) var log: [PublishRecord] = []
    var connections: [ConnectionID: Connection] = [:]
    var subscribers: [String: Set<ConnectionID>] = [:]
    var mailboxes: [String: [Stored]] = [:]
    public private(set) var mailboxBytes = 0
    var pending: [String: Pending] = [:]
    var held: [Held] = []
    var nextConnection: ConnectionID = 1
    /// Ids of the relay's own requests: 19 digits like the SDKs' (above 2^53), counting up.
    var nextDeliveryID: UInt64

    public init(limits: RelayLimits = RelayLimits(), firstDeliveryID: UInt64 = 1_700_000_000_000_000_000) {
        self.limits = limits
        nextDeliveryID = firstDeliveryID
    }

    // MARK: Connections

    /// Registers a connection of `clientID` (the JWT's `iss`, which keys its mailbox acknowledgements).
    public mutating func connect(clientID: String) -> ConnectionID {
        let id = nextConnection
        nextConnection += 1
        connections[id] = Connection(clientID: clientID)
        return id
    }

    /// Forgets a connection: its subscriptions and unacknowledged deliveries (the messages stay in the mailbox).
    public mutating func disconnect(_ id: ConnectionID) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        for topic in connection.topics.keys {
            subscribers[topic]?.remove(id)
            if subscribers[topic]?.isEmpty == true { subscribers[topic] = nil }
        }
        pending = pending.filter { $0.value.connection != id }
        held.removeAll { $0.connection == id }
    }

    public var connectionCount: Int { connections.count }
    public var storedMessageCount: Int { mailboxes.values.reduce(0) { $0 + $1.count } }
    public var pendingDeliveryCount: Int { pending.count }

    /// The topics a connection is subscribed to.
    public func topics(of id: ConnectionID) -> Set<String> { Set(connections[id].map { Array($0.topics.keys) } ?? []) }

    // MARK: Frames in

    /// Handles one text frame from a connection: a request (answered) or the acknowledgement of a delivery.
    public mutating func receive(_ frame: [UInt8], from id: ConnectionID, now: Int64) -> [Action] {
        guard connections[id] != nil else { return [] }
        let json: JSON
        do {
            json = try JSON.parse(frame)
        } catch {
            return [.send(id, Self.error(id: .null, code: -32700, message: "parse error: \(error)"))]
        }
        guard case .object = json else {
            return [
                .send(
                    id,
                    Self.error(
                        id: .null, code: -32600,
                        message: "invalid request: the relay takes one JSON-RPC object per frame, got \(json.typeName)"
                    ))
            ]
        }
        let requestID = json["id"] ?? .null
        guard let method = json["method"]?.stringValue else {
            if requestID != .null { acknowledge(requestID, from: id, ok: json["error"] == nil) }
            return []
        }
        var actions: [Action] = []
        do {
            let result = try handle(
                method: method, params: json["params"] ?? .object([]), from: id, now: now, actions: &actions)
            if let result {
                actions.insert(.send(id, Self.result(id: requestID, result)), at: 0)
            }
        } catch {
            actions.insert(.send(id, Self.error(id: requestID, code: error.code, message: error.message)), at: 0)
        }
        return actions
    }

    /// Expires mailbox messages past their TTL, resends unacknowledged deliveries and releases delayed ones.
    public mutating func tick(now: Int64) -> [Action] {
        var actions: [Action] = []
        for (topic, stored) in mailboxes {
            let kept = stored.filter { $0.expiresAt > now }
            guard kept.count != stored.count else { continue }
            for gone in stored where gone.expiresAt <= now { mailboxBytes -= gone.message.utf8.count }
            mailboxes[topic] = kept.isEmpty ? nil : kept
        }
        for (deliveryID, entry) in pending.sorted(by: { $0.key < $1.key })
        where now - entry.sentAt >= limits.redeliveryInterval {
            pending[deliveryID] = nil
            connections[entry.connection]?.pending -= 1
            guard entry.attempts < limits.maxDeliveryAttempts,
                let stored = mailboxes[entry.topic]?.first(where: { $0.messageID == entry.messageID })
            else { continue }
            send(stored, to: entry.connection, attempts: entry.attempts + 1, now: now, actions: &actions)
        }
        let due = held.filter { ($0.releaseAt ?? .max) <= now }
        held.removeAll { ($0.releaseAt ?? .max) <= now }
        for entry in due { release(entry, now: now, actions: &actions) }
        return actions
    }

    // MARK: Methods

    struct Failure: Error {
        var code: Int
        var message: String
    }

    mutating func handle(
        method rawMethod: String, params: JSON, from id: ConnectionID, now: Int64, actions: inout [Action]
    ) throws(Failure) -> JSON? {
        // The relay's own crate still accepts the old `iridium_` names.
        let method = rawMethod.hasPrefix("iridium_") ? "irn_" + rawMethod.dropFirst(8) : rawMethod
        switch method {
        case "irn_publish":
            return try publish(params, method: method, from: id, now: now, actions: &actions) ? .bool(true) : nil
        case "irn_batchPublish":
            let messages = try Self.array(params, "messages", limit: limits.maxBatch)
            var answer = true
            for message in messages {
                answer = try publish(message, method: method, from: id, now: now, actions: &actions) && answer
            }
            return answer ? .bool(true) : nil
        case "irn_subscribe":
            return .string(try subscribe(Self.topic(params, "topic"), from: id, now: now, actions: &actions))
        case "irn_batchSubscribe":
            let topics = try Self.array(params, "topics", limit: limits.maxBatch).map { t throws(Failure) in
                try Self.topic(.object([("topic", t)]), "topic")
            }
            var ids: [JSON] = []
            for topic in topics { ids.append(.string(try subscribe(topic, from: id, now: now, actions: &actions))) }
            return .array(ids)
        case "irn_unsubscribe":
            unsubscribe(try Self.topic(params, "topic"), from: id)
            return .bool(true)
        case "irn_batchUnsubscribe":
            for item in try Self.array(params, "subscriptions", limit: limits.maxBatch) {
                unsubscribe(try Self.topic(item, "topic"), from: id)
            }
            return .bool(true)
        case "irn_fetchMessages":
            return fetch([try Self.topic(params, "topic")], from: id)
        case "irn_batchFetchMessages":
            let topics = try Self.array(params, "topics", limit: limits.maxBatch).map { t throws(Failure) in
                try Self.topic(.object([("topic", t)]), "topic")
            }
            return fetch(topics, from: id)
        case "wc_proposeSession":
            // Publish the proposal on the pairing topic (tag 1100, ttl 300, prompt) and subscribe the caller to it.
            let pairing = try Self.topic(params, "pairingTopic")
            let proposal = try Self.string(params, "sessionProposal")
            let publish = Self.publishParams(topic: pairing, message: proposal, tag: 1100, prompt: true, params)
            let answered = try self.publish(publish, method: method, from: id, now: now, actions: &actions)
            _ = try subscribe(pairing, from: id, now: now, actions: &actions)
            return answered ? .bool(true) : nil
        case "wc_approveSession":
            // The proposal response on the pairing topic (1101) and the settlement on the session topic (1102); the
            // caller is subscribed to the session topic.
            let pairing = try Self.topic(params, "pairingTopic")
            let session = try Self.topic(params, "sessionTopic")
            let response = try Self.string(params, "sessionProposalResponse")
            let settle = try Self.string(params, "sessionSettlementRequest")
            _ = try subscribe(session, from: id, now: now, actions: &actions)
            let first = try publish(
                Self.publishParams(topic: pairing, message: response, tag: 1101, prompt: false, params),
                method: method, from: id, now: now, actions: &actions)
            let second = try publish(
                Self.publishParams(topic: session, message: settle, tag: 1102, prompt: false, params),
                method: method, from: id, now: now, actions: &actions)
            return first && second ? .bool(true) : nil
        case "wc_createTopic":
            _ = try subscribe(Self.topic(params, "topic"), from: id, now: now, actions: &actions)
            return .bool(true)
        default:
            throw Failure(code: -32601, message: "method not found: \(rawMethod)")
        }
    }

    static func publishParams(topic: String, message: String, tag: Int64, prompt: Bool, _ params: JSON) -> JSON {
        var members: [(String, JSON)] = [
            ("topic", .string(topic)), ("message", .string(message)), ("ttl", .int(300)), ("tag", .int(tag)),
            ("prompt", .bool(prompt)),
        ]
        if let attestation = params["attestation"] { members.append(("attestation", attestation)) }
        return .object(members)
    }

    /// Stores and delivers one publish; false when a fault withholds the answer.
    mutating func publish(
        _ params: JSON, method: String, from id: ConnectionID, now: Int64, actions: inout [Action]
    ) throws(Failure) -> Bool {
        guard let clientID = connections[id]?.clientID else { return false }
        let topic = try Self.topic(params, "topic")
        let message = try Self.string(params, "message")
        let size = message.utf8.count
        guard size <= limits.maxMessageBytes else {
            throw Failure(
                code: -32600,
                message: "message is \(size) bytes: the limit is \(limits.maxMessageBytes) (maxMessageBytes)")
        }
        let ttl = try Self.integer(params, "ttl") ?? 300
        guard ttl > 0, ttl <= limits.maxTTL else {
            throw Failure(code: -32602, message: "TTL \(ttl) s out of range: 1 to \(limits.maxTTL) s (maxTTL)")
        }
        let tag = try Self.integer(params, "tag") ?? 0
        let prompt = params["prompt"]?.boolValue ?? false
        let messageID = RelayHash.messageID(message)
        record(
            PublishRecord(
                method: method, topic: topic, tag: tag, ttl: ttl, prompt: prompt, clientID: clientID,
                messageID: messageID, publishedAt: now))
        if tag == 1112, faults.loseSessionDeletes > 0 {
            faults.loseSessionDeletes -= 1
            return true
        }
        if mailboxes[topic]?.contains(where: { $0.messageID == messageID }) != true {
            let count = mailboxes[topic]?.count ?? 0
            guard count < limits.maxMessagesPerTopic else {
                throw Failure(
                    code: -32000,
                    message: "Mailbox limit exceeded: \(count) messages on this topic (maxMessagesPerTopic)")
            }
            guard mailboxBytes + size <= limits.maxMailboxBytes else {
                throw Failure(
                    code: -32000,
                    message:
                        "Mailbox limit exceeded: \(mailboxBytes) of \(limits.maxMailboxBytes) bytes stored (maxMailboxBytes)"
                )
            }
            let stored = Stored(
                topic: topic, message: message, messageID: messageID, publishedAt: now,
                expiresAt: now + ttl * 1_000, tag: tag, publisher: clientID, attestation: params["attestation"])
            mailboxes[topic, default: []].append(stored)
            mailboxBytes += size
            for subscriber in (subscribers[topic] ?? []).sorted() where subscriber != id {
                deliver(stored, to: subscriber, now: now, actions: &actions)
            }
        }
        if faults.closeOnPublish > 0 {
            faults.closeOnPublish -= 1
            actions.append(.close(id, code: 1001, reason: "fault: connection closed after a publish"))
        }
        if faults.withholdPublishAcks > 0 {
            faults.withholdPublishAcks -= 1
            return false
        }
        return true
    }

    mutating func subscribe(_ topic: String, from id: ConnectionID, now: Int64, actions: inout [Action]) throws(Failure)
        -> String
    {
        guard let connection = connections[id] else { return "" }
        if let existing = connection.topics[topic] { return existing }
        guard connection.topics.count < limits.maxTopicsPerConnection else {
            throw Failure(
                code: -32000,
                message:
                    "subscription limit reached: \(limits.maxTopicsPerConnection) topics per connection (maxTopicsPerConnection)"
            )
        }
        let subscriptionID = RelayHash.subscriptionID(topic: topic, clientID: connection.clientID)
        connections[id]?.topics[topic] = subscriptionID
        subscribers[topic, default: []].insert(id)
        let waiting = pending.values.filter { $0.connection == id && $0.topic == topic }.map(\.messageID)
        for stored in mailboxes[topic] ?? []
        where stored.publisher != connection.clientID && !stored.acknowledgedBy.contains(connection.clientID)
            && !waiting.contains(stored.messageID)
        {
            deliver(stored, to: id, now: now, actions: &actions)
        }
        return subscriptionID
    }

    mutating func unsubscribe(_ topic: String, from id: ConnectionID) {
        guard connections[id]?.topics.removeValue(forKey: topic) != nil else { return }
        subscribers[topic]?.remove(id)
        if subscribers[topic]?.isEmpty == true { subscribers[topic] = nil }
    }

    /// Stored messages of `topics` the caller has not acknowledged; fetching counts as acknowledging.
    mutating func fetch(_ topics: [String], from id: ConnectionID) -> JSON {
        guard let clientID = connections[id]?.clientID else { return .null }
        var messages: [JSON] = []
        for topic in topics {
            guard var stored = mailboxes[topic] else { continue }
            for i in stored.indices
            where stored[i].publisher != clientID && !stored[i].acknowledgedBy.contains(clientID) {
                messages.append(Self.data(stored[i]))
                stored[i].acknowledgedBy.insert(clientID)
            }
            mailboxes[topic] = stored
        }
        return .object([("messages", .array(messages)), ("hasMore", .bool(false))])
    }

    // MARK: Deliveries

    /// Sends a message to a subscriber, through the delivery faults.
    mutating func deliver(_ stored: Stored, to id: ConnectionID, now: Int64, actions: inout [Action]) {
        if faults.dropDeliveries > 0 {
            faults.dropDeliveries -= 1
            return
        }
        let entry = Held(connection: id, topic: stored.topic, messageID: stored.messageID, releaseAt: nil)
        if faults.delayDeliveries > 0 {
            faults.delayDeliveries -= 1
            held.append(
                Held(
                    connection: id, topic: stored.topic, messageID: stored.messageID,
                    releaseAt: now + faults.delayMilliseconds))
            return
        }
        if faults.reorderDeliveries > 0 {
            faults.reorderDeliveries -= 1
            held.append(entry)
            return
        }
        send(stored, to: id, attempts: 1, now: now, actions: &actions)
        if faults.duplicateDeliveries > 0 {
            faults.duplicateDeliveries -= 1
            send(stored, to: id, attempts: 1, now: now, actions: &actions)
        }
        // Deliveries held for reordering go out after the one that overtook them.
        let reordered = held.filter { $0.releaseAt == nil && $0.connection == id }
        held.removeAll { $0.releaseAt == nil && $0.connection == id }
        for entry in reordered { release(entry, now: now, actions: &actions) }
    }

    mutating func release(_ entry: Held, now: Int64, actions: inout [Action]) {
        guard let stored = mailboxes[entry.topic]?.first(where: { $0.messageID == entry.messageID }) else { return }
        send(stored, to: entry.connection, attempts: 1, now: now, actions: &actions)
    }

    /// Sends one `irn_subscription` and remembers it until acknowledged.
    mutating func send(_ stored: Stored, to id: ConnectionID, attempts: Int, now: Int64, actions: inout [Action]) {
        guard let connection = connections[id], let subscriptionID = connection.topics[stored.topic] else { return }
        guard connection.pending < limits.maxPendingPerConnection else {
            actions.append(
                .close(
                    id, code: 1008,
                    reason:
                        "client too slow: \(limits.maxPendingPerConnection) deliveries unacknowledged (maxPendingPerConnection)"
                ))
            return
        }
        let deliveryID = nextDeliveryID
        nextDeliveryID += 1
        pending[String(deliveryID)] = Pending(
            connection: id, topic: stored.topic, messageID: stored.messageID, attempts: attempts, sentAt: now)
        connections[id]?.pending += 1
        let request = JSON.object([
            ("id", .int(deliveryID)), ("jsonrpc", .string("2.0")), ("method", .string("irn_subscription")),
            ("params", .object([("id", .string(subscriptionID)), ("data", Self.data(stored))])),
        ])
        actions.append(.send(id, request.serialized))
    }

    mutating func acknowledge(_ requestID: JSON, from id: ConnectionID, ok: Bool) {
        let key = requestID.numberText ?? requestID.stringValue ?? ""
        guard let entry = pending[key], entry.connection == id else { return }
        pending[key] = nil
        connections[id]?.pending -= 1
        guard ok, let clientID = connections[id]?.clientID, var stored = mailboxes[entry.topic],
            let index = stored.firstIndex(where: { $0.messageID == entry.messageID })
        else { return }
        stored[index].acknowledgedBy.insert(clientID)
        mailboxes[entry.topic] = stored
    }

    mutating func record(_ entry: PublishRecord) {
        log.append(entry)
        if log.count > limits.logSize { log.removeFirst(log.count - limits.logSize) }
    }

    // MARK: Wire forms

    static func data(_ stored: Stored) -> JSON {
        var members: [(String, JSON)] = [
            ("topic", .string(stored.topic)), ("message", .string(stored.message)),
            ("publishedAt", .int(stored.publishedAt)), ("tag", .int(stored.tag)),
        ]
        if let attestation = stored.attestation { members.append(("attestation", attestation)) }
        return .object(members)
    }

    /// A JSON-RPC result; `id` is echoed as received (a 19-digit number keeps its text).
    static func result(id: JSON, _ result: JSON) -> String {
        JSON.object([("id", id), ("jsonrpc", .string("2.0")), ("result", result)]).serialized
    }

    static func error(id: JSON, code: Int, message: String) -> String {
        JSON.object([
            ("id", id), ("jsonrpc", .string("2.0")),
            ("error", .object([("code", .int(code)), ("message", .string(message))])),
        ]).serialized
    }

    static func topic(_ params: JSON, _ key: String) throws(Failure) -> String {
        let text = try string(params, key)
        guard text.utf8.count == 64, text.utf8.allSatisfy({ Hex.nibble($0) != nil }) else {
            throw Failure(code: -32600, message: "invalid \(key): must be 64 hex digits")
        }
        return text.lowercased()
    }

    static func string(_ params: JSON, _ key: String) throws(Failure) -> String {
        guard let value = params[key]?.stringValue else {
            throw Failure(code: -32602, message: "invalid params: \(key) must be a string")
        }
        return value
    }

    static func integer(_ params: JSON, _ key: String) throws(Failure) -> Int64? {
        guard let value = params[key], !value.isNull else { return nil }
        guard let text = value.numberText, let n = Int64(text) else {
            throw Failure(code: -32602, message: "invalid params: \(key) must be an integer within 64 bits")
        }
        return n
    }

    static func array(_ params: JSON, _ key: String, limit: Int) throws(Failure) -> [JSON] {
        guard let items = params[key]?.arrayValue else {
            throw Failure(code: -32602, message: "invalid params: \(key) must be an array")
        }
        guard items.count <= limit else {
            throw Failure(code: -32600, message: "batch of \(items.count): the limit is \(limit) (maxBatch)")
        }
        return items
    }
}
