import BLS12381
import ByteCoding
import CBORCoding
import ICPAgent
import ICPIdentity
import Testing

@testable import ICPReplica

/// Certificates carry the BLS12-381 signature of their tree's root under the key `/api/v2/status` serves.
@Suite struct CertificateSigningTests {
    static let timePath: [[[UInt8]]] = [[Array("time".utf8)]]

    func certificate(_ fixture: ReplicaFixture, paths: [[[UInt8]]] = timePath, identity: KeyIdentity? = nil) throws
        -> (root: [UInt8], signature: [UInt8], time: [UInt8]?)
    {
        let read = fixture.replica.readState(
            effectiveCanister: fixture.ledgerID, body: try fixture.readStateBody(paths: paths, identity: identity))
        #expect(read.status == 200)
        let outer = try CBORDecoder().decode(read.body)
        let certificate = try CBORDecoder().decode(try #require(outer["certificate"]?.bytesValue))
        let tree = try HashTree(cbor: try #require(certificate["tree"]))
        var time: [UInt8]?
        if case .found(let value) = tree.lookup("time") { time = value }
        return (tree.rootHash, try #require(certificate["signature"]?.bytesValue), time)
    }

    /// The key is SHA-256(0x01 ‖ seed) mod r, computed here by BLS12381 directly (not through the replica's signer
    /// and its cache); the status endpoint serves it as the 133-byte DER the agents expect.
    @Test func theSignatureIsTheBLSSignatureOfTheRootUnderTheStatusRootKey() throws {
        let fixture = try ReplicaFixture()
        let key = SecretKey(seed: [0x01] + DevelopmentKeys.standardSeed)
        let (root, signature, _) = try certificate(fixture)
        #expect(signature == key.sign([0x0D] + Array("ic-state-root".utf8) + root))
        let status = try CBORDecoder().decode(fixture.replica.status().body)
        let rootKey = try #require(status["root_key"]?.bytesValue)
        #expect(rootKey.count == 133)
        #expect(
            Array(rootKey.prefix(37))
                == (try Hex.decode("308182301d060d2b0601040182dc7c0503010201060c2b0601040182dc7c05030201036100")))
        #expect(Array(rootKey.dropFirst(37)) == key.publicKey)
    }

    @Test func oneSignaturePerRootWithinATimeTick() throws {
        var configuration = Replica.Configuration()
        configuration.keys = DevelopmentKeys(seed: Array("signature cache test".utf8))
        let fixture = try ReplicaFixture(configuration: configuration)
        let keys = fixture.replica.configuration.keys
        let first = try certificate(fixture)
        let again = try certificate(fixture)
        #expect(again.signature == first.signature)
        #expect(keys.signaturesComputed == 1)
        // Half a tick later the certified time (and so the root) is the same.
        fixture.time.withLock { $0 += 500_000_000 }
        #expect(try certificate(fixture).root == first.root)
        #expect(keys.signaturesComputed == 1)
        // The next tick is a new root, signed once more.
        fixture.advance(seconds: 1)
        let next = try certificate(fixture)
        #expect(next.root != first.root)
        #expect(next.signature != first.signature)
        #expect(keys.signaturesComputed == 2)
        // A state change within the tick (a call's status) is a new root too.
        let (requestID, body) = try fixture.callBody("no_such_method", identity: fixture.alice)
        _ = fixture.replica.call(effectiveCanister: fixture.ledgerID, body: body, synchronous: false)
        _ = try certificate(fixture, paths: [[Array("request_status".utf8), requestID]], identity: fixture.alice)
        #expect(keys.signaturesComputed == 3)
    }

    @Test func certifiedTimeAdvancesInTicks() throws {
        let fixture = try ReplicaFixture()
        fixture.time.withLock { $0 += 999_999_999 }
        #expect(try certificate(fixture).time == LEB128.unsigned(ReplicaFixture.start))
        var configuration = Replica.Configuration()
        configuration.timeTick = 1
        let exact = try ReplicaFixture(configuration: configuration)
        exact.time.withLock { $0 += 123 }
        #expect(try certificate(exact).time == LEB128.unsigned(ReplicaFixture.start + 123))
    }

    /// The cache holds at most ``CertificateSigner/cacheLimit`` roots; an evicted root is signed again, identically.
    @Test func theCacheIsBounded() throws {
        let signer = CertificateSigner(
            secretKey: try SecretKey(bigEndian: [UInt8](repeating: 0, count: 31) + [2]), cacheLimit: 3)
        func root(_ index: Int) -> [UInt8] {
            [UInt8](repeating: 0, count: 28) + withUnsafeBytes(of: UInt32(index).bigEndian, Array.init)
        }
        let firstSignature = signer.signature(ofRoot: root(0))
        for index in 1...signer.cacheLimit { _ = signer.signature(ofRoot: root(index)) }
        #expect(signer.state.withLock { $0.signatures.count } == signer.cacheLimit)
        #expect(signer.signature(ofRoot: root(0)) == firstSignature)
        #expect(signer.signaturesComputed == signer.cacheLimit + 2)
    }
}
