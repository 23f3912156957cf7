import EthereumNode
import Foundation
import JSONCoding
import JSONRPC
import Logging
import SandnetServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Everything logged at warning level or above, for tests that check what a server said.
final class RecordedLog: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        var logger = Logger(label: "recorded") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            guard event.level >= .warning else { return }
            log.lines.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }
}

/// A clean stop is not an error (issue 37): tests that stopped their nodes filled the output with
/// `error sandnet: [HummingbirdCore] Server shutdown error: Already closed`.
@Suite struct ShutdownTests {
    @Test func cancellingTheServerTaskStopsCleanlyWithoutErrorLines() async throws {
        let log = RecordedLog()
        let node = try SandnetNode(configuration: NodeConfiguration())
        var configuration = ServerConfiguration()
        configuration.port = 0
        let server = NodeServer(node: node, configuration: configuration, logger: log.logger)
        let task = Task { try await server.run(handleSignals: false) }
        let port = try #require(await server.waitUntilListening())
        // A request served, with its keep-alive connection left open, as a client's would be.
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, _) = try await URLSession.shared.data(for: request)
        #expect(try JSON.parse([UInt8](data))["result"] == .string("0xaa36a7"))

        task.cancel()
        _ = await task.result
        #expect(log.lines.withLock { $0 } == [])
    }
}
