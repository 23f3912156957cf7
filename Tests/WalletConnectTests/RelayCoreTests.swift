import JSONCoding
import Testing
import WalletConnect

/// The relay's state machine, frame in, frames out (no sockets): mailbox, exclude-sender, acknowledgement and
/// redelivery, TTLs, the composite session methods, limits and faults.
@Suite struct RelayCoreTests {
    static let topicA = String(repeating: "a", count: 64)
    static let topicB = String(repeating: "b", count: 64)

    static func request(_ id: String, _ method: String, _ params: String) -> [UInt8] {
        Array(#"{"id":\#(id),"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#.utf8)
    }

    static func frames(_ actions: [RelayCore.Action], to id: RelayCore.ConnectionID) -> [JSON] {
        actions.compactMap {
            guard case .send(let target, let text) = $0, target == id else { return nil }
            return try? JSON.parse(text)
        }
    }

    static func publish(_ topic: String, _ message: String, tag: Int = 1108, ttl: Int = 300) -> String {
        #"{"topic":"\#(topic)","message":"\#(message)","ttl":\#(ttl),"tag":\#(tag),"prompt":true}"#
    }

    @Test func mailboxDeliversToALateSubscriberButNeverBackToTheSender() throws {
        var relay = RelayCore()
        let dapp = relay.connect(clientID: "did:key:dapp")
        let wallet = relay.connect(clientID: "did:key:wallet")
        // The dApp subscribes and publishes before any wallet listens (the proposal).
        _ = relay.receive(Self.request("1", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: dapp, now: 0)
        let published = relay.receive(
            Self.request("1778341964282845123", "irn_publish", Self.publish(Self.topicA, "AAEC", tag: 1100)),
            from: dapp, now: 1_000)
        // The 19-digit id comes back as written (above 2^53), and nothing goes back to the sender.
        #expect(published == [.send(dapp, #"{"id":1778341964282845123,"jsonrpc":"2.0","result":true}"#)])
        let subscribed = relay.receive(
            Self.request(#""s1""#, "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: wallet, now: 2_000)
        let frames = Self.frames(subscribed, to: wallet)
        #expect(frames.count == 2)
        #expect(frames[0]["id"] == .string("s1"))
        #expect(
            frames[0]["result"] == .string(RelayHash.subscriptionID(topic: Self.topicA, clientID: "did:key:wallet")))
        #expect(frames[1]["method"] == .string("irn_subscription"))
        #expect(frames[1]["params"]?["data"]?["message"] == .string("AAEC"))
        #expect(frames[1]["params"]?["data"]?["tag"] == .number("1100"))
        #expect(frames[1]["params"]?["data"]?["publishedAt"] == .number("1000"))
        #expect(relay.log.map(\.tag) == [1100])
    }

    @Test func unacknowledgedDeliveriesAreResentThenDroppedAndAcknowledgedOnesNeverReturn() throws {
        var limits = RelayLimits()
        limits.redeliveryInterval = 5_000
        limits.maxDeliveryAttempts = 2
        var relay = RelayCore(limits: limits)
        let dapp = relay.connect(clientID: "dapp")
        let wallet = relay.connect(clientID: "wallet")
        _ = relay.receive(Self.request("1", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: wallet, now: 0)
        let live = Self.frames(
            relay.receive(Self.request("2", "irn_publish", Self.publish(Self.topicA, "m1")), from: dapp, now: 0),
            to: wallet)
        #expect(live.count == 1)
        #expect(relay.tick(now: 4_999).isEmpty)
        let resent = Self.frames(relay.tick(now: 5_000), to: wallet)
        #expect(resent.count == 1)
        #expect(resent[0]["params"]?["data"]?["message"] == .string("m1"))
        #expect(resent[0]["id"] != live[0]["id"])
        #expect(relay.tick(now: 10_000).isEmpty)  // two attempts in all
        #expect(relay.pendingDeliveryCount == 0)
        // A reconnect of the same client gets it again from the mailbox; once acknowledged, never again.
        relay.disconnect(wallet)
        let again = relay.connect(clientID: "wallet")
        let replay = Self.frames(
            relay.receive(
                Self.request("3", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: again, now: 11_000),
            to: again)
        #expect(replay.count == 2)
        let ackID = replay[1]["id"]?.numberText ?? ""
        _ = relay.receive(Array(#"{"id":\#(ackID),"jsonrpc":"2.0","result":true}"#.utf8), from: again, now: 11_001)
        #expect(relay.pendingDeliveryCount == 0)
        relay.disconnect(again)
        let third = relay.connect(clientID: "wallet")
        #expect(
            Self.frames(
                relay.receive(
                    Self.request("4", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: third, now: 12_000),
                to: third
            ).count == 1)
    }

    @Test func messagesExpireWithTheirTTLAndDuplicatesAreStoredOnce() {
        var relay = RelayCore()
        let dapp = relay.connect(clientID: "dapp")
        _ = relay.receive(Self.request("1", "irn_publish", Self.publish(Self.topicA, "m", ttl: 30)), from: dapp, now: 0)
        _ = relay.receive(Self.request("2", "irn_publish", Self.publish(Self.topicA, "m", ttl: 30)), from: dapp, now: 1)
        #expect(relay.storedMessageCount == 1)
        #expect(relay.mailboxBytes == 1)
        _ = relay.tick(now: 29_999)
        #expect(relay.storedMessageCount == 1)
        _ = relay.tick(now: 30_000)
        #expect(relay.storedMessageCount == 0)
        #expect(relay.mailboxBytes == 0)
    }

    @Test func compositeMethodsPublishWithTheSpecTagsAndSubscribeTheCaller() {
        var relay = RelayCore()
        let dapp = relay.connect(clientID: "dapp")
        let wallet = relay.connect(clientID: "wallet")
        let propose = relay.receive(
            Self.request(
                "1", "wc_proposeSession",
                #"{"pairingTopic":"\#(Self.topicA)","sessionProposal":"cHJvcG9zYWw=","correlationId":42}"#),
            from: dapp, now: 0)
        #expect(Self.frames(propose, to: dapp).first?["result"] == .bool(true))
        #expect(relay.topics(of: dapp) == [Self.topicA])
        _ = relay.receive(Self.request("2", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: wallet, now: 1)
        let approve = relay.receive(
            Self.request(
                "3", "wc_approveSession",
                #"{"pairingTopic":"\#(Self.topicA)","sessionTopic":"\#(Self.topicB)","sessionProposalResponse":"cmVzcA==","sessionSettlementRequest":"c2V0dGxl"}"#
            ), from: wallet, now: 2)
        #expect(relay.topics(of: wallet) == [Self.topicA, Self.topicB])
        let toDapp = Self.frames(approve, to: dapp)
        #expect(toDapp.map { $0["params"]?["data"]?["tag"] } == [.number("1101")])
        #expect(relay.log.map(\.tag) == [1100, 1101, 1102])
        #expect(relay.log.map(\.prompt) == [true, false, false])
        #expect(relay.log.map(\.ttl) == [300, 300, 300])
    }

    @Test func badInputIsAnsweredWithErrorsNamingTheLimit() {
        var limits = RelayLimits()
        limits.maxMessageBytes = 8
        limits.maxTopicsPerConnection = 1
        limits.maxBatch = 2
        var relay = RelayCore(limits: limits)
        let c = relay.connect(clientID: "c")
        func error(_ frame: [UInt8]) -> String? {
            Self.frames(relay.receive(frame, from: c, now: 0), to: c).first?["error"]?["message"]?.stringValue
        }
        #expect(error(Array("not json".utf8))?.hasPrefix("parse error") == true)
        #expect(
            error(Array("[1,2]".utf8)) == "invalid request: the relay takes one JSON-RPC object per frame, got array")
        #expect(
            error(Self.request("1", "irn_publish", #"{"topic":"xyz","message":"m"}"#))
                == "invalid topic: must be 64 hex digits")
        #expect(
            error(Self.request("1", "irn_publish", Self.publish(Self.topicA, "123456789")))
                == "message is 9 bytes: the limit is 8 (maxMessageBytes)")
        #expect(
            error(Self.request("1", "irn_publish", Self.publish(Self.topicA, "m", ttl: 0)))
                == "TTL 0 s out of range: 1 to 2592000 s (maxTTL)")
        _ = relay.receive(Self.request("1", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: c, now: 0)
        #expect(
            error(Self.request("1", "irn_subscribe", #"{"topic":"\#(Self.topicB)"}"#))
                == "subscription limit reached: 1 topics per connection (maxTopicsPerConnection)")
        #expect(
            error(
                Self.request(
                    "1", "irn_batchSubscribe", #"{"topics":["\#(Self.topicA)","\#(Self.topicA)","\#(Self.topicA)"]}"#))
                == "batch of 3: the limit is 2 (maxBatch)")
        #expect(error(Self.request("1", "irn_nope", "{}")) == "method not found: irn_nope")
        #expect(
            error(
                Self.request(
                    "1", "irn_publish", #"{"topic":"\#(Self.topicA)","message":"m","ttl":99999999999999999999}"#))
                == "invalid params: ttl must be an integer within 64 bits")
    }

    @Test func faultsDropDuplicateReorderDelayAndWithholdAcks() {
        var relay = RelayCore()
        let dapp = relay.connect(clientID: "dapp")
        let wallet = relay.connect(clientID: "wallet")
        _ = relay.receive(Self.request("1", "irn_subscribe", #"{"topic":"\#(Self.topicA)"}"#), from: wallet, now: 0)
        func messages(_ actions: [RelayCore.Action]) -> [String] {
            Self.frames(actions, to: wallet).compactMap { $0["params"]?["data"]?["message"]?.stringValue }
        }
        relay.faults.dropDeliveries = 1
        #expect(
            messages(
                relay.receive(Self.request("2", "irn_publish", Self.publish(Self.topicA, "m1")), from: dapp, now: 0))
                == [])
        relay.faults.duplicateDeliveries = 1
        #expect(
            messages(
                relay.receive(Self.request("3", "irn_publish", Self.publish(Self.topicA, "m2")), from: dapp, now: 0))
                == ["m2", "m2"])
        relay.faults.reorderDeliveries = 1
        #expect(
            messages(
                relay.receive(Self.request("4", "irn_publish", Self.publish(Self.topicA, "m3")), from: dapp, now: 0))
                == [])
        #expect(
            messages(
                relay.receive(Self.request("5", "irn_publish", Self.publish(Self.topicA, "m4")), from: dapp, now: 0))
                == ["m4", "m3"])
        relay.faults.delayDeliveries = 1
        relay.faults.delayMilliseconds = 700
        #expect(
            messages(
                relay.receive(Self.request("6", "irn_publish", Self.publish(Self.topicA, "m5")), from: dapp, now: 0))
                == [])
        #expect(messages(relay.tick(now: 699)) == [])
        #expect(messages(relay.tick(now: 700)) == ["m5"])
        relay.faults.withholdPublishAcks = 1
        let withheld = relay.receive(
            Self.request("7", "irn_publish", Self.publish(Self.topicA, "m6")), from: dapp, now: 0)
        #expect(Self.frames(withheld, to: dapp).isEmpty)
        #expect(messages(withheld) == ["m6"])
        relay.faults.loseSessionDeletes = 1
        let lost = relay.receive(
            Self.request("8", "irn_publish", Self.publish(Self.topicA, "del", tag: 1112)), from: dapp, now: 0)
        #expect(messages(lost) == [])
        #expect(Self.frames(lost, to: dapp).first?["result"] == .bool(true))
        #expect(relay.faults.isEmpty)
    }

    @Test func fetchReturnsWhatTheClientHasNotSeen() {
        var relay = RelayCore()
        let dapp = relay.connect(clientID: "dapp")
        let wallet = relay.connect(clientID: "wallet")
        _ = relay.receive(Self.request("1", "irn_publish", Self.publish(Self.topicA, "m1")), from: dapp, now: 5)
        let fetched = Self.frames(
            relay.receive(
                Self.request("2", "irn_batchFetchMessages", #"{"topics":["\#(Self.topicA)"]}"#), from: wallet, now: 6),
            to: wallet)
        #expect(fetched.first?["result"]?["messages"]?.arrayValue?.count == 1)
        #expect(fetched.first?["result"]?["hasMore"] == .bool(false))
        let again = Self.frames(
            relay.receive(
                Self.request("3", "irn_fetchMessages", #"{"topic":"\#(Self.topicA)"}"#), from: wallet, now: 7),
            to: wallet)
        #expect(again.first?["result"]?["messages"] == .array([]))
    }
}

@Suite struct RelayAdmissionTests {
    @Test func modesAndProjectIDs() throws {
        let token = RelayJWTTests.token
        let permissive = RelayAdmission()
        #expect(
            try permissive.admit(token: token, projectID: nil, anonymousID: "anon", now: 1_656_910_100)
                == "did:key:z6MkodHZwneVRShtaLf8JKYkxpDGp1vGZnpGmdBpX8M2exxH")
        #expect(try permissive.admit(token: nil, projectID: "x", anonymousID: "anon", now: 0) == "anon")
        #expect(throws: RelayAdmission.Refusal(reason: "invalid relay JWT: expired at 1656996497 (now 1700000000)")) {
            try permissive.admit(token: token, projectID: nil, anonymousID: "anon", now: 1_700_000_000)
        }
        let strict = RelayAdmission(mode: .strict, audiences: ["wss://relay.walletconnect.org"], projectIDs: ["p1"])
        #expect(throws: RelayAdmission.Refusal(reason: "project id p2 is not configured on this relay")) {
            try strict.admit(token: token, projectID: "p2", anonymousID: "anon", now: 1_656_910_100)
        }
        #expect(throws: RelayAdmission.Refusal(reason: "no client JWT (Authorization: Bearer or ?auth=)")) {
            try strict.admit(token: nil, projectID: "p1", anonymousID: "anon", now: 1_656_910_100)
        }
        #expect(throws: (any Error).self) {
            try strict.admit(token: token, projectID: "p1", anonymousID: "anon", now: 1_656_910_100)
        }
    }
}
