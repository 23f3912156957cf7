import ABICoding
import ByteCoding
import EthereumRPC
import EthereumTypes
import JSONCoding
import Yams

/// `subscribe:` — what a wallet's live view listens to (`eth_subscribe`); the step's id names the subscription.
public struct SubscribeSpec: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case newHeads, newPendingTransactions, logs
    }

    public var kind: Kind
    /// `logs` only: the emitting contract, a token symbol (`USDC`), an account name or an address (template).
    public var address: String?
    /// `logs` only: per position, nil (`null` in YAML) matches anything; an event name (`Transfer`, `Approval`), an
    /// account name (its address as a 32-byte topic) or a hex topic (a 20-byte address is padded).
    public var topics: [Template?]
}

/// `subscription:` — what a `subscribe` step's subscription has received so far.
public struct SubscriptionCheck: Sendable {
    /// What the last notification's result must be.
    public enum Last: Sendable {
        /// The whole result as text (`newPendingTransactions`: a transaction hash).
        case value(Template)
        /// Fields of an object result (a header, a log); `topics` compared entry by entry, the count too.
        case fields([FieldCheck], topics: [Template]?)
    }

    /// The id of the `subscribe` step.
    public var subscription: String
    public var count: [Clause]
    public var last: Last?

    /// Notification fields compared as numbers (the rest as text, hex case-insensitively).
    static let numberFields: Set<String> = FieldCheck.blockNumberFields.union([
        "blockNumber", "logIndex", "transactionIndex",
    ])

    /// `topics` entries by event name: the ERC-20 events the default tokens emit.
    static let eventTopics: [String: String] = [
        "Transfer": "Transfer(address,address,uint256)", "Approval": "Approval(address,address,uint256)",
    ]
}

extension ScenarioBuilder {
    func subscribeStep(_ node: Node, _ what: String, id: String?) throws(ScenarioFormatError) -> SubscribeSpec {
        guard id != nil else {
            throw reader.error("\(what) needs an 'id': checks name the subscription by it", at: node)
        }
        let kinds = SubscribeSpec.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        func kind(_ node: Node) throws(ScenarioFormatError) -> SubscribeSpec.Kind {
            let text = try reader.scalar(node, what)
            guard let kind = SubscribeSpec.Kind(rawValue: text) else {
                throw reader.error("unknown subscription '\(text)'; expected one of: \(kinds)", at: node)
            }
            return kind
        }
        if case .scalar = node { return SubscribeSpec(kind: try kind(node), address: nil, topics: []) }
        let fields = try reader.mapping(node, what)
        try reader.allow(fields, ["to", "address", "topics"], in: what)
        var spec = SubscribeSpec(
            kind: try kind(try reader.required(fields, "to", in: what, at: node)), address: nil, topics: [])
        for f in fields where f.key == "address" || f.key == "topics" {
            guard spec.kind == .logs else {
                throw reader.error(
                    "'\(f.key)' filters logs; a \(spec.kind.rawValue) subscription takes none", at: f.keyNode)
            }
            if f.key == "address" {
                let template = try reader.template(f.value, "\(what) address")
                try checkReferences(template)
                spec.address = template.text
            } else {
                guard case .sequence(let items) = f.value else {
                    throw reader.error("expected a list of topics (null for any) for \(what) topics", at: f.value)
                }
                for item in items {
                    if case .scalar(let s) = item, ["null", "~", ""].contains(s.string) {
                        spec.topics.append(nil)
                    } else {
                        let template = try template(item, "\(what) topics")
                        spec.topics.append(template)
                    }
                }
            }
        }
        return spec
    }

    /// `subscription: {of: id, count: …, last: …}`.
    func subscriptionCheck(_ node: Node, _ what: String) throws(ScenarioFormatError) -> SubscriptionCheck {
        let fields = try reader.mapping(node, what)
        let operators = Clause.Operator.allCases.map(\.rawValue).filter { $0 != "changedBy" }
        try reader.allow(fields, ["of", "count", "last"], in: what)
        let ofNode = try reader.required(fields, "of", in: what, at: node)
        let id = try reader.scalar(ofNode, "\(what) of")
        guard names.steps[id]?.keyword == "subscribe" else {
            throw reader.error(
                "'of' names the id of an earlier subscribe step; \(laterStep(id) ?? "there is none with id '\(id)'")",
                at: ofNode)
        }
        var check = SubscriptionCheck(subscription: id, count: [], last: nil)
        for f in fields {
            switch f.key {
            case "count":
                if case .scalar = f.value {
                    check.count = [
                        Clause(op: .equals, expression: try expression(f.value, "\(what) count"), sinceStep: nil)
                    ]
                } else {
                    let inner = try reader.mapping(f.value, "\(what) count")
                    try reader.allow(inner, operators, in: "\(what) count")
                    check.count = try clauses(inner, what: "\(what) count", allowChange: false, since: nil)
                }
            case "last":
                if case .scalar = f.value {
                    check.last = .value(try template(f.value, "\(what) last"))
                    continue
                }
                let inner = try reader.mapping(f.value, "\(what) last")
                var topics: [Template]?
                if let t = inner.first(where: { $0.key == "topics" }) {
                    guard case .sequence(let items) = t.value else {
                        throw reader.error("expected a list of topics for \(what) last.topics", at: t.value)
                    }
                    var list: [Template] = []
                    for item in items { list.append(try template(item, "\(what) last.topics")) }
                    topics = list
                }
                let others = inner.filter { $0.key != "topics" }
                let texts = Set(others.map(\.key)).subtracting(SubscriptionCheck.numberFields)
                let checks = try fieldChecks(
                    others, numbers: SubscriptionCheck.numberFields, texts: texts, what: "\(what) last")
                check.last = .fields(checks, topics: topics)
            default: break
            }
        }
        if check.count.isEmpty && check.last == nil {
            throw reader.error("\(what) needs 'count' or 'last'", at: node)
        }
        return check
    }
}

extension ScenarioExecution {
    func subscribeStep(_ spec: SubscribeSpec, id: String) async throws -> [String: String] {
        var filter: JSON?
        if spec.kind == .logs && (spec.address != nil || !spec.topics.isEmpty) {
            var members: [(String, JSON)] = []
            if let address = spec.address {
                let resolved = try resolve(Template(address, at: scenarioLocation))
                let contract: Address
                if let account = accounts[resolved] {
                    contract = account.address
                } else if let token = try? tokenAddress(resolved) {
                    contract = token
                } else {
                    contract = try self.address(resolved)
                }
                members.append(("address", .string(contract.description)))
            }
            if !spec.topics.isEmpty {
                let topics = try spec.topics.map { entry throws -> JSON in
                    guard let entry else { return .null }
                    return .string(try topic(entry))
                }
                members.append(("topics", .array(topics)))
            }
            filter = .object(members)
        }
        let subscription = try SubscriptionTopic(name: spec.kind.rawValue, filter: filter)
        do {
            subscriptions[id] = try await backend.subscribe(subscription)
        } catch let unavailable as SubscriptionsUnavailable {
            throw StepSkip(unavailable.reason)
        }
        return [:]
    }

    /// A topic: an event name, an account name (its address, padded), a 20-byte address (padded) or 32 bytes of hex.
    func topic(_ template: Template) throws -> String {
        let text = try resolve(template)
        if let signature = SubscriptionCheck.eventTopics[text] {
            return Hex.encodePrefixed(ABI.eventTopic(signature))
        }
        if let account = accounts[text] { return Self.paddedTopic(account.address) }
        if let address = try? Address(parsing: text) { return Self.paddedTopic(address) }
        return text.lowercased()
    }

    static func paddedTopic(_ address: Address) -> String {
        Hex.encodePrefixed(ABI.word(address))
    }

    func checkSubscription(_ check: SubscriptionCheck) async throws {
        guard let log = subscriptions[check.subscription] else {
            throw StepFailure("subscription '\(check.subscription)' was not made (its subscribe step did not run)")
        }
        let (results, total) = log.received
        if total > results.count {
            throw StepFailure(
                "subscription '\(check.subscription)' received \(total) notifications, more than the "
                    + "\(NotificationLog.limit) kept per subscription")
        }
        let subject = "subscription '\(check.subscription)'"
        for clause in check.count {
            try await compare(
                "notifications received by \(subject)", SignedAmount(UInt256(total)), clause, location: scenarioLocation
            )
        }
        guard let expected = check.last else { return }
        guard let last = results.last else {
            throw StepFailure("last notification of \(subject)", expected: "a notification", actual: "none")
        }
        switch expected {
        case .value(let template):
            let want = try resolve(template)
            let actual = last.stringValue ?? last.serialized
            if actual.lowercased() != want.lowercased() {
                throw StepFailure("last notification of \(subject)", expected: want, actual: actual)
            }
        case .fields(let fields, let topics):
            try await checkFields(fields, of: last, subject: "last notification of \(subject)", hash: nil)
            if let topics {
                let want = try topics.map(topic)
                let actual = (last["topics"]?.arrayValue ?? []).map { $0.stringValue?.lowercased() ?? $0.serialized }
                if want != actual {
                    throw StepFailure(
                        "topics of the last notification of \(subject)", expected: want.joined(separator: ", "),
                        actual: actual.isEmpty ? "none" : actual.joined(separator: ", "))
                }
            }
        }
    }

    var scenarioLocation: SourceLocation { SourceLocation(file: scenario.file, line: 1, column: 1) }
}
