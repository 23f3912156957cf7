import ByteCoding
import JSONCoding
import Testing
import WalletConnect

/// The Sign API flow (reference §3) between a dApp and a wallet through the relay's state machine, with the real
/// key agreement and envelopes: propose (wc_proposeSession) → approve (wc_approveSession: response + settle) →
/// settle acknowledged → a personal_sign request and its answer.
@Suite struct SignFlowTests {
    /// One peer's view: its connection and the messages the relay delivered to it.
    struct Peer {
        let id: RelayCore.ConnectionID
        var inbox: [(topic: String, message: String)] = []
    }

    static func send(_ relay: inout RelayCore, _ peers: inout [Peer], from index: Int, _ method: String, _ params: JSON)
        -> JSON?
    {
        let request = JSON.object([
            ("id", .number("1778341964282845123")), ("jsonrpc", .string("2.0")), ("method", .string(method)),
            ("params", params),
        ])
        var reply: JSON?
        for action in relay.receive(request.bytes, from: peers[index].id, now: 1_000) {
            guard case .send(let target, let text) = action, let json = try? JSON.parse(text) else { continue }
            guard let p = peers.firstIndex(where: { $0.id == target }) else { continue }
            if json["method"] == .string("irn_subscription"), let data = json["params"]?["data"],
                let topic = data["topic"]?.stringValue, let message = data["message"]?.stringValue
            {
                peers[p].inbox.append((topic, message))
                _ = relay.receive(
                    SignMessage.result(id: json["id"] ?? .null, .bool(true)).bytes, from: target, now: 1_000)
            } else if p == index {
                reply = json
            }
        }
        return reply
    }

    @Test func proposeApproveSettleAndPersonalSign() throws {
        var relay = RelayCore()
        var peers = [Peer(id: relay.connect(clientID: "dapp")), Peer(id: relay.connect(clientID: "wallet"))]
        let dapp = 0
        let wallet = 1

        // dApp: a pairing and a proposal with its key X.
        let pairing = PairingURI.random(now: 1_000)
        let (dappPrivate, dappPublic) = SessionCrypto.newKeyPair()
        let proposal = SignMessage.request(
            id: 1_700_000_000_000_001, method: "wc_sessionPropose",
            params: SignMessage.proposal(
                publicKey: Hex.encode(dappPublic),
                metadata: SignMessage.metadata(
                    name: "dApp", description: "test", url: "https://dapp.example", icons: []),
                requiredNamespaces: .object([]),
                optionalNamespaces: SignMessage.eip155Namespace(
                    chainIDs: [11_155_111], addresses: [], methods: ["personal_sign"], events: ["chainChanged"]),
                expiryTimestamp: 1_300))
        let proposed = Self.send(
            &relay, &peers, from: dapp, "wc_proposeSession",
            .object([
                ("pairingTopic", .string(pairing.topic)),
                ("sessionProposal", .string(try SignMessage.seal(proposal, symKey: pairing.symKey))),
            ]))
        #expect(proposed?["id"] == .number("1778341964282845123"))
        #expect(proposed?["result"] == .bool(true))

        // Wallet: pairs with the URI text, subscribes, and finds the proposal in the mailbox.
        let uri = try PairingURI(parsing: pairing.text, now: 1_000)
        _ = Self.send(&relay, &peers, from: wallet, "irn_subscribe", .object([("topic", .string(uri.topic))]))
        let received = try #require(peers[wallet].inbox.first)
        let opened = try SignMessage.open(received.message, symKey: uri.symKey)
        #expect(opened["method"] == .string("wc_sessionPropose"))
        let proposerKey = try Hex.decode(try #require(opened["params"]?["proposer"]?["publicKey"]?.stringValue))

        // Wallet approves: key Y, session key and topic, response on the pairing topic, settle on the session topic.
        let (walletPrivate, walletPublic) = SessionCrypto.newKeyPair()
        let sessionKey = try SessionCrypto.symmetricKey(privateKey: walletPrivate, peerPublicKey: proposerKey)
        let sessionTopic = SessionCrypto.topic(symKey: sessionKey)
        let response = SignMessage.result(
            id: opened["id"] ?? .null,
            .object([
                ("relay", .object([("protocol", .string("irn"))])),
                ("responderPublicKey", .string(Hex.encode(walletPublic))),
            ]))
        let address = "0x" + String(repeating: "ab", count: 20)
        let settle = SignMessage.request(
            id: 1_700_000_000_000_002, method: "wc_sessionSettle",
            params: SignMessage.settlement(
                publicKey: Hex.encode(walletPublic),
                metadata: SignMessage.metadata(
                    name: "Wallet", description: "emulator", url: "https://w.example", icons: []),
                namespaces: SignMessage.eip155Namespace(
                    chainIDs: [11_155_111], addresses: [address], methods: ["personal_sign"], events: ["chainChanged"]),
                expiry: 1_000 + 7 * 86_400))
        _ = Self.send(
            &relay, &peers, from: wallet, "wc_approveSession",
            .object([
                ("pairingTopic", .string(uri.topic)), ("sessionTopic", .string(sessionTopic)),
                ("sessionProposalResponse", .string(try SignMessage.seal(response, symKey: uri.symKey))),
                ("sessionSettlementRequest", .string(try SignMessage.seal(settle, symKey: sessionKey))),
            ]))

        // dApp: the response arrives live on the pairing topic; it derives the same key and topic.
        let answer = try SignMessage.open(try #require(peers[dapp].inbox.last).message, symKey: pairing.symKey)
        let responder = try Hex.decode(try #require(answer["result"]?["responderPublicKey"]?.stringValue))
        let dappKey = try SessionCrypto.symmetricKey(privateKey: dappPrivate, peerPublicKey: responder)
        #expect(dappKey == sessionKey)
        _ = Self.send(&relay, &peers, from: dapp, "irn_subscribe", .object([("topic", .string(sessionTopic))]))
        let settled = try SignMessage.open(try #require(peers[dapp].inbox.last).message, symKey: dappKey)
        #expect(settled["method"] == .string("wc_sessionSettle"))
        #expect(
            settled["params"]?["namespaces"]?["eip155"]?["accounts"]
                == .array([.string("eip155:11155111:\(address)")]))
        let ack = SignMessage.result(id: settled["id"] ?? .null, .bool(true))
        _ = Self.send(
            &relay, &peers, from: dapp, "irn_publish",
            .object([
                ("topic", .string(sessionTopic)), ("message", .string(try SignMessage.seal(ack, symKey: dappKey))),
                ("ttl", .int(300)), ("tag", .int(1103)),
            ]))
        #expect(try SignMessage.open(try #require(peers[wallet].inbox.last).message, symKey: sessionKey) == ack)

        // A personal_sign request and its answer (the wallet emulator signs with a dev key; here a fixed value).
        let request = SignMessage.request(
            id: 1_700_000_000_000_003, method: "wc_sessionRequest",
            params: .object([
                (
                    "request",
                    .object([
                        ("method", .string("personal_sign")),
                        ("params", .array([.string("0x68656c6c6f"), .string(address)])),
                    ])
                ), ("chainId", .string("eip155:11155111")),
            ]))
        _ = Self.send(
            &relay, &peers, from: dapp, "irn_publish",
            .object([
                ("topic", .string(sessionTopic)), ("message", .string(try SignMessage.seal(request, symKey: dappKey))),
                ("ttl", .int(300)), ("tag", .int(1108)), ("prompt", .bool(true)),
            ]))
        let asked = try SignMessage.open(try #require(peers[wallet].inbox.last).message, symKey: sessionKey)
        #expect(asked["params"]?["request"]?["method"] == .string("personal_sign"))
        let signature = JSON.string("0x" + String(repeating: "1", count: 130))
        _ = Self.send(
            &relay, &peers, from: wallet, "irn_publish",
            .object([
                ("topic", .string(sessionTopic)),
                (
                    "message",
                    .string(
                        try SignMessage.seal(
                            SignMessage.result(id: asked["id"] ?? .null, signature), symKey: sessionKey))
                ),
                ("ttl", .int(300)), ("tag", .int(1109)),
            ]))
        let result = try SignMessage.open(try #require(peers[dapp].inbox.last).message, symKey: dappKey)
        #expect(result["id"] == .number("1700000000000003"))
        #expect(result["result"] == signature)
        #expect(relay.log.map(\.tag) == [1100, 1101, 1102, 1103, 1108, 1109])
    }
}
