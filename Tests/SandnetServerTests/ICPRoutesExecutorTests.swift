import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The ICP routes run on the server's node threads (issue 17): while the replica's state is held exclusively (as a
/// call holds it), ICP requests waiting for it occupy none of Swift's cooperative threads, so other connections are
/// still served. When the routes ran on the cooperative pool, two such requests on a 2-core machine (64 anywhere)
/// blocked every cooperative thread and `/health` hung (checked against main's routes: the run hung until killed
/// after 300 s; the time limit cannot fire then, as it needs a cooperative thread too).
@Suite(.serialized) struct ICPRoutesExecutorTests {
    @Test(.timeLimit(.minutes(5)))  // a hang guard only: a passing run takes well under a second
    func icpRequestsWaitingForTheReplicaDoNotStallOtherConnections() async throws {
        let running = try await RunningNode.startNetwork()
        defer { running.stop() }
        let replica = try #require(running.server.replica)
        // Hold the replica's state exclusively, as a call does.
        let release = HeldLockRequests.hold { whileHeld in replica.withService { _ in whileHeld() } }
        let session = HeldLockRequests.session()
        let url = URL(string: "http://127.0.0.1:\(running.port)/api/icp/claim")!
        let waiting = HeldLockRequests.post(64, to: url, with: session) { _ in #"{"account":"2vxsx-fae"}"# }
        // Every claim waits for the replica; the server still answers another connection.
        #expect(try await HeldLockRequests.health(port: running.port, with: session) == "ok")
        release.signal()
        let statuses = try await waiting.value.map(\.status)
        #expect(statuses.count == 64)
        #expect(statuses.contains(200))
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 429 })
    }
}
