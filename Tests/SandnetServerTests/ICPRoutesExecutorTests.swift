import Dispatch
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
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Hold the replica's state exclusively on a thread that is not the cooperative pool's.
        Thread.detachNewThread {
            replica.withService { _ in
                held.signal()
                release.wait()
            }
        }
        held.wait()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        let session = URLSession(configuration: configuration)
        let url = URL(string: "http://127.0.0.1:\(running.port)/api/icp/claim")!
        let waiting = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        var request = URLRequest(url: url)
                        request.httpMethod = "POST"
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        request.httpBody = Data(#"{"account":"2vxsx-fae"}"#.utf8)
                        let (_, response) = try await session.data(for: request)
                        return (response as? HTTPURLResponse)?.statusCode ?? 0
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        // Every claim waits for the replica; the server still answers another connection.
        let (health, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(running.port)/health")!)
        #expect(String(decoding: health, as: UTF8.self) == "ok")
        release.signal()
        let statuses = try await waiting.value
        #expect(statuses.count == 64)
        #expect(statuses.contains(200))
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 429 })
    }
}
