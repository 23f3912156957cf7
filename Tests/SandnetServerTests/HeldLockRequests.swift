import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the cooperative-pool tests share: a lock held on a thread that is not the cooperative pool's, and many
/// requests sent at once that wait for it.
enum HeldLockRequests {
    /// Calls `lock` on a thread of its own and returns once that thread is inside it; the thread stays inside until
    /// the returned semaphore is signalled. `lock` takes the lock under test and runs its argument while holding it.
    static func hold(_ lock: @escaping @Sendable (_ whileHeld: () -> Void) -> Void) -> DispatchSemaphore {
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            lock {
                held.signal()
                release.wait()
            }
        }
        held.wait()
        return release
    }

    /// A session that opens up to 64 connections to one host, so that 64 requests are in flight at once.
    static func session() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }

    /// Sends `count` JSON POSTs to `url` at once, the i-th with `body(i)`; the task's value is each reply's status
    /// and body, in the order they completed.
    static func post(
        _ count: Int, to url: URL, with session: URLSession, body: @escaping @Sendable (Int) -> String
    ) -> Task<[(status: Int, body: Data)], any Error> {
        Task {
            try await withThrowingTaskGroup(of: (status: Int, body: Data).self) { group in
                for i in 0..<count {
                    group.addTask {
                        var request = URLRequest(url: url)
                        request.httpMethod = "POST"
                        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                        request.httpBody = Data(body(i).utf8)
                        let (data, response) = try await session.data(for: request)
                        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    /// The body of `GET /health` on `port`.
    static func health(port: Int, with session: URLSession) async throws -> String {
        let (data, _) = try await session.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        return String(decoding: data, as: UTF8.self)
    }
}
