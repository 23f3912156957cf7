import ByteCoding
import CBORCoding
import CryptoCore
import ICPAgent
import ICPIdentity
import ICPLedger
import ICPLedgerService
import Synchronization
import Testing

@testable import ICPReplica

final class TestClock: Sendable {
    let nanos: Mutex<UInt64>
    init(_ start: UInt64) { nanos = Mutex(start) }
    func withLock<T>(_ body: (inout UInt64) -> T) -> T { nanos.withLock { body(&$0) } }
}

/// A replica over an in-memory ledger with a clock the test moves.
final class ReplicaFixture: Sendable {
    static let start: UInt64 = 1_700_000_000_000_000_000
    let time = TestClock(ReplicaFixture.start)
    let replica: Replica
    let alice: KeyIdentity
    let bob: KeyIdentity

    init(configuration: Replica.Configuration = Replica.Configuration()) throws {
        alice = try KeyIdentity(ed25519PrivateKey: Array(repeating: 0x11, count: 32))
        bob = try KeyIdentity(secp256k1PrivateKey: Array(repeating: 0x22, count: 32))
        let minting = Account(owner: try Principal(text: "aaaaa-aa"))
        let ledger = LedgerCanister(
            configuration: LedgerConfiguration(mintingAccount: minting),
            initialBalances: [(AccountIdentifier(principal: alice.principal), Tokens(e8s: 1_000_000_000))],
            now: Self.start)
        let time = self.time
        replica = Replica(service: LedgerService(ledger: ledger), configuration: configuration) {
            time.withLock { $0 }
        }
    }

    var now: UInt64 { time.withLock { $0 } }
    func advance(seconds: UInt64) { time.withLock { $0 += seconds * 1_000_000_000 } }

    var ledgerID: String { LedgerService.canisterID.text }

    func queryBody(
        _ method: String, arg: [UInt8] = Array("DIDL\u{0}\u{0}".utf8), identity: KeyIdentity?, expiry: UInt64? = nil
    )
        throws -> [UInt8]
    {
        let sender = identity?.principal ?? .anonymous
        let content = AgentEnvelope.content(
            kind: .query, sender: sender, canisterID: LedgerService.canisterID, method: method, arg: arg,
            ingressExpiry: expiry ?? now + 120_000_000_000)
        return try AgentEnvelope.seal(content, identity: identity).body
    }

    func callBody(_ method: String, arg: [UInt8] = Array("DIDL\u{0}\u{0}".utf8), identity: KeyIdentity?) throws
        -> (requestID: [UInt8], body: [UInt8])
    {
        let content = AgentEnvelope.content(
            kind: .call, sender: identity?.principal ?? .anonymous, canisterID: LedgerService.canisterID,
            method: method, arg: arg, ingressExpiry: now + 120_000_000_000)
        return try AgentEnvelope.seal(content, identity: identity)
    }

    func readStateBody(paths: [[[UInt8]]], identity: KeyIdentity?) throws -> [UInt8] {
        let content = AgentEnvelope.readStateContent(
            sender: identity?.principal ?? .anonymous, paths: paths, ingressExpiry: now + 120_000_000_000)
        return try AgentEnvelope.seal(content, identity: identity).body
    }
}

func text(_ response: ReplicaResponse) -> String { String(decoding: response.body, as: UTF8.self) }

@Suite struct ReplicaEnvelopeTests {
    @Test func statusServesADERBLSRootKey() throws {
        let fixture = try ReplicaFixture()
        let response = fixture.replica.status()
        #expect(response.status == 200)
        #expect(response.contentType == "application/cbor")
        let value = try CBORDecoder().decode(response.body)
        let rootKey = try #require(value["root_key"]?.bytesValue)
        #expect(rootKey.count == DevelopmentKeys.blsDERPrefix.count + 96)
        #expect(Array(rootKey.prefix(DevelopmentKeys.blsDERPrefix.count)) == DevelopmentKeys.blsDERPrefix)
        #expect(value["replica_health_status"]?.textValue == "healthy")
    }

    @Test(arguments: [true, false]) func signedQueriesAreAcceptedFromBothKeyTypes(ed25519: Bool) throws {
        let fixture = try ReplicaFixture()
        let identity = ed25519 ? fixture.alice : fixture.bob
        let response = fixture.replica.query(
            effectiveCanister: fixture.ledgerID, body: try fixture.queryBody("icrc1_balance_of", identity: identity))
        #expect(response.status == 200, "\(text(response))")
        let value = try CBORDecoder().decode(response.body)
        #expect(value["status"]?.textValue != nil)
    }

    @Test func anonymousQueryAsIcPySendsItWithExplicitNullsAndNoTag() throws {
        let fixture = try ReplicaFixture()
        let content = AgentEnvelope.content(
            kind: .query, sender: .anonymous, canisterID: LedgerService.canisterID, method: "icrc1_balance_of",
            arg: [], ingressExpiry: fixture.now + 60_000_000_000)
        let body = CBOREncoder.encode(.map(["content": content, "sender_pubkey": .null, "sender_sig": .null]))
        let response = fixture.replica.query(effectiveCanister: fixture.ledgerID, body: body)
        #expect(response.status == 200, "\(text(response))")
    }

    @Test func queryResponsesCarryAVerifiableNodeSignature() throws {
        let fixture = try ReplicaFixture()
        let content = AgentEnvelope.content(
            kind: .query, sender: .anonymous, canisterID: LedgerService.canisterID, method: "no_such_method",
            arg: [], ingressExpiry: fixture.now + 60_000_000_000)
        let sealed = try AgentEnvelope.seal(content, identity: nil)
        let response = fixture.replica.query(effectiveCanister: fixture.ledgerID, body: sealed.body)
        let value = try CBORDecoder().decode(response.body)
        let signature = try #require(value["signatures"]?.arrayValue?.first)
        var signed: [CBORMapEntry] = []
        for entry in try #require(value.mapEntries) where entry.key != .text("signatures") { signed.append(entry) }
        signed.append(CBORMapEntry(key: .text("timestamp"), value: try #require(signature["timestamp"])))
        signed.append(CBORMapEntry(key: .text("request_id"), value: .bytes(sealed.requestID)))
        let hash = try RequestID.hashOfMap(.map(signed))
        let keys = fixture.replica.configuration.keys
        #expect(signature["identity"]?.bytesValue == keys.nodeID.bytes)
        #expect(
            keys.nodePublicKey.verify(
                signature: try #require(signature["signature"]?.bytesValue),
                message: DevelopmentKeys.responseDomain + hash))
    }

    @Test func aTamperedSignatureIsRefusedWith400() throws {
        let fixture = try ReplicaFixture()
        var body = try fixture.queryBody("icrc1_balance_of", identity: fixture.alice)
        // The signature is the last 64 bytes of the envelope as AgentEnvelope writes it.
        body[body.count - 1] ^= 0x01
        let response = fixture.replica.query(effectiveCanister: fixture.ledgerID, body: body)
        #expect(response.status == 400)
        #expect(
            text(response).hasPrefix(
                "Invalid signature: Invalid basic signature: ed25519 signature could not be verified"))
    }

    @Test func aSenderThatIsNotThePublicKeysPrincipalIsRefused() throws {
        let fixture = try ReplicaFixture()
        let content = AgentEnvelope.content(
            kind: .query, sender: fixture.bob.principal, canisterID: LedgerService.canisterID, method: "x", arg: [],
            ingressExpiry: fixture.now + 60_000_000_000)
        let body = try AgentEnvelope.seal(content, identity: fixture.alice).body
        let response = fixture.replica.query(effectiveCanister: fixture.ledgerID, body: body)
        #expect(response.status == 400)
        #expect(text(response).contains("does not match the public key"))
    }

    @Test func anAnonymousSenderWithASignatureIsRefused() throws {
        let fixture = try ReplicaFixture()
        let content = AgentEnvelope.content(
            kind: .query, sender: .anonymous, canisterID: LedgerService.canisterID, method: "x", arg: [],
            ingressExpiry: fixture.now + 60_000_000_000)
        let id = try RequestID.of(content: content)
        let body = CBOREncoder.encode(
            .map([
                "content": content, "sender_pubkey": .bytes(fixture.alice.publicKey.der),
                "sender_sig": .bytes(try fixture.alice.signRequest(id: id)),
            ]))
        let response = fixture.replica.query(effectiveCanister: fixture.ledgerID, body: body)
        #expect(response.status == 400)
    }

    @Test func expiriesInThePastOrTooFarAheadAreRefused() throws {
        let fixture = try ReplicaFixture()
        for expiry in [fixture.now - 1, fixture.now + 331_000_000_000] {
            let response = fixture.replica.query(
                effectiveCanister: fixture.ledgerID,
                body: try fixture.queryBody("icrc1_fee", identity: fixture.alice, expiry: expiry))
            #expect(response.status == 400)
            #expect(
                text(response).hasPrefix("Invalid request expiry: Specified ingress_expiry not within expected range"))
        }
        let edge = fixture.replica.query(
            effectiveCanister: fixture.ledgerID,
            body: try fixture.queryBody("icrc1_fee", identity: fixture.alice, expiry: fixture.now + 330_000_000_000))
        #expect(edge.status == 200)
    }

    @Test func aCanisterOtherThanTheOneInTheURLIsRefused() throws {
        let fixture = try ReplicaFixture()
        let response = fixture.replica.query(
            effectiveCanister: "aaaaa-aa", body: try fixture.queryBody("icrc1_fee", identity: nil))
        #expect(response.status == 400)
        #expect(text(response).contains("does not match effective canister id in URL aaaaa-aa"))
        let garbage = fixture.replica.query(effectiveCanister: "not-a-principal", body: [])
        #expect(garbage.status == 404)
    }

    @Test func malformedBodiesGetAClear400() throws {
        let fixture = try ReplicaFixture()
        let cases: [[UInt8]] = [
            [], [0xff], CBOREncoder.encode(.array([])), CBOREncoder.encode(.map(["content": .unsigned(1)])),
            CBOREncoder.encode(.map(["content": .map(["request_type": .text("call")])])),
        ]
        for body in cases {
            let response = fixture.replica.query(effectiveCanister: fixture.ledgerID, body: body)
            #expect(response.status == 400)
            #expect(text(response).hasPrefix("Could not parse body as query request: "))
        }
    }

    @Test func aDelegationChainIsVerifiedLinkByLink() throws {
        let fixture = try ReplicaFixture()
        let session = try KeyIdentity(secp256k1PrivateKey: Array(repeating: 0x33, count: 32))
        func body(expiration: UInt64, signer: KeyIdentity) throws -> [UInt8] {
            let content = AgentEnvelope.content(
                kind: .query, sender: fixture.alice.principal, canisterID: LedgerService.canisterID,
                method: "icrc1_fee", arg: [], ingressExpiry: fixture.now + 60_000_000_000)
            let id = try RequestID.of(content: content)
            let delegation = CBORValue.map([
                "pubkey": .bytes(session.publicKey.der), "expiration": .unsigned(expiration),
            ])
            let delegationSignature = try signer.sign(Envelope.delegationDomain + RequestID.hashOfMap(delegation))
            return CBOREncoder.encode(
                .map([
                    "content": content, "sender_pubkey": .bytes(fixture.alice.publicKey.der),
                    "sender_sig": .bytes(try session.signRequest(id: id)),
                    "sender_delegation": .array([
                        .map(["delegation": delegation, "signature": .bytes(delegationSignature)])
                    ]),
                ]))
        }
        let good = fixture.replica.query(
            effectiveCanister: fixture.ledgerID, body: try body(expiration: fixture.now + 1_000, signer: fixture.alice))
        #expect(good.status == 200, "\(text(good))")
        let expired = fixture.replica.query(
            effectiveCanister: fixture.ledgerID, body: try body(expiration: fixture.now - 1, signer: fixture.alice))
        #expect(expired.status == 400)
        #expect(text(expired).hasPrefix("Invalid delegation expiry"))
        let forged = fixture.replica.query(
            effectiveCanister: fixture.ledgerID, body: try body(expiration: fixture.now + 1_000, signer: fixture.bob))
        #expect(forged.status == 400)
        #expect(text(forged).hasPrefix("Invalid delegation"))
    }
}

@Suite struct ReplicaStateTests {
    @Test func aCallIsAcceptedAndItsStatusIsCertifiedForItsSenderOnly() throws {
        let fixture = try ReplicaFixture()
        let (requestID, body) = try fixture.callBody("no_such_method", identity: fixture.alice)
        let accepted = fixture.replica.call(effectiveCanister: fixture.ledgerID, body: body, synchronous: false)
        #expect(accepted.status == 202)
        #expect(accepted.body.isEmpty)
        let paths: [[[UInt8]]] = [[Array("request_status".utf8), requestID]]
        let read = fixture.replica.readState(
            effectiveCanister: fixture.ledgerID, body: try fixture.readStateBody(paths: paths, identity: fixture.alice))
        #expect(read.status == 200, "\(text(read))")
        let reply = try #require(try AgentReply.fromReadState(read.body, requestID: requestID))
        guard case .rejected(let code, _, _) = reply else {
            Issue.record("expected a reject for an unknown method, got \(reply)")
            return
        }
        #expect(code == 3 || code == 5)
        let tree = try AgentReply.certifiedTree(read.body)
        guard case .found(let time) = tree.lookup("time") else {
            Issue.record("no /time in the certificate")
            return
        }
        #expect(time == LEB128.unsigned(fixture.now))
        let other = fixture.replica.readState(
            effectiveCanister: fixture.ledgerID, body: try fixture.readStateBody(paths: paths, identity: fixture.bob))
        #expect(other.status == 403)
    }

    @Test func certificatesAreSignedOverTheStateRootWithTheDevelopmentKey() throws {
        let fixture = try ReplicaFixture()
        let read = fixture.replica.readState(
            effectiveCanister: fixture.ledgerID,
            body: try fixture.readStateBody(paths: [[Array("time".utf8)]], identity: nil))
        let outer = try CBORDecoder().decode(read.body)
        let certificate = try CBORDecoder().decode(try #require(outer["certificate"]?.bytesValue))
        let tree = try HashTree(cbor: try #require(certificate["tree"]))
        let signature = try #require(certificate["signature"]?.bytesValue)
        #expect(signature.count == 48)
        #expect(signature == fixture.replica.configuration.keys.signStateRoot(tree.rootHash))
    }

    @Test func synchronousCallsReturnTheCertificateAtOnce() throws {
        let fixture = try ReplicaFixture()
        let (requestID, body) = try fixture.callBody("no_such_method", identity: fixture.bob)
        let response = fixture.replica.call(effectiveCanister: fixture.ledgerID, body: body, synchronous: true)
        #expect(response.status == 200)
        let value = try CBORDecoder().decode(response.body)
        #expect(value["status"]?.textValue == "replied")
        let certificate = try #require(value["certificate"]?.bytesValue)
        let wrapped = CBOREncoder.encode(.map(["certificate": .bytes(certificate)]))
        #expect(try AgentReply.fromReadState(wrapped, requestID: requestID) != nil)
    }

    @Test func metadataAndSubnetKeyAreReadable() throws {
        let fixture = try ReplicaFixture()
        let keys = fixture.replica.configuration.keys
        let paths: [[[UInt8]]] = [
            [
                Array("canister".utf8), LedgerService.canisterID.bytes, Array("metadata".utf8),
                Array("candid:service".utf8),
            ],
            [Array("subnet".utf8), fixture.replica.configuration.subnetID.bytes, Array("public_key".utf8)],
        ]
        let read = fixture.replica.readState(
            effectiveCanister: fixture.ledgerID, body: try fixture.readStateBody(paths: paths, identity: nil))
        let tree = try AgentReply.certifiedTree(read.body)
        #expect(tree.lookup(paths[0]) == .found(Array(LedgerService.candidInterface.utf8)))
        #expect(tree.lookup(paths[1]) == .found(keys.rootKey))
        let subnet = [Array("subnet".utf8), fixture.replica.configuration.subnetID.bytes]
        #expect(
            tree.lookup(subnet + [Array("node".utf8), keys.nodeID.bytes, Array("public_key".utf8)])
                == .found(keys.nodePublicKey.der))
        let ranges = CBOREncoder.encode(
            .array([.array([.bytes(Replica.canisterRange.lower), .bytes(Replica.canisterRange.upper)])]))
        #expect(tree.lookup(subnet + [Array("canister_ranges".utf8)]) == .found(ranges))
        // The ranges cover the ledger's id.
        let ledger = LedgerService.canisterID.bytes
        #expect(!ledger.lexicographicallyPrecedes(Replica.canisterRange.lower))
        #expect(!Replica.canisterRange.upper.lexicographicallyPrecedes(ledger))
    }

    @Test func statusesArePrunedAfterExpiryPlusRetention() throws {
        let fixture = try ReplicaFixture()
        let (requestID, body) = try fixture.callBody("no_such_method", identity: fixture.alice)
        _ = fixture.replica.call(effectiveCanister: fixture.ledgerID, body: body, synchronous: false)
        #expect(fixture.replica.requestStatus(requestID) != nil)
        fixture.advance(seconds: 120 + 301)
        let (_, next) = try fixture.callBody("no_such_method", identity: fixture.alice)
        _ = fixture.replica.call(effectiveCanister: fixture.ledgerID, body: next, synchronous: false)
        #expect(fixture.replica.requestStatus(requestID) == nil)
    }

    @Test func stateTreeLabelsAreSortedAndLookupsWork() {
        var tree = StateTree.node([:])
        for label in ["time", "canister", "subnet", "request_status", "a", "zz"] {
            tree.insert([Array(label.utf8), [1]], .leaf(Array(label.utf8)))
        }
        let hashTree = tree.hashTree
        for label in ["time", "canister", "subnet", "request_status", "a", "zz"] {
            #expect(hashTree.lookup([Array(label.utf8), [1]]) == .found(Array(label.utf8)))
        }
        #expect(hashTree.lookup([Array("b".utf8)]) == .absent)
    }
}
