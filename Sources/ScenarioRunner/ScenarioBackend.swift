import DevNetwork
import EthereumLedger
import EthereumNode
import EthereumRPC
import EthereumTypes
import Foundation
import ICPAgent
import ICPIdentity
import ICPLedgerService
import JSONCoding
import JSONRPC
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The chain a scenario runs against: JSON-RPC calls, and moving the clock.
public protocol ScenarioBackend: Sendable {
    /// For reports: "in-process" or the URL.
    var label: String { get }
    /// True for a fresh in-process node that only this scenario uses.
    var isInProcess: Bool { get }
    /// Calls `method`; a JSON-RPC error is thrown as ``RPCError``, a transport failure as ``BackendError``.
    func call(_ method: String, _ params: [JSON]) async throws -> JSON
    /// Moves time forward for the next block (and, in-process, for the faucet's cooldown too).
    func advanceTime(seconds: UInt64) async throws
    /// Calls the ICP ledger canister as `identity` (a query or an update); a transport failure or an HTTP refusal
    /// throws ``BackendError``.
    func icpCall(method: String, arg: [UInt8], identity: KeyIdentity, query: Bool) async throws -> AgentReply
    /// Subscribes as `eth_subscribe` does; the notifications' results collect in the returned log as the node sends
    /// them. A backend that cannot receive notifications throws ``SubscriptionsUnavailable``.
    func subscribe(_ topic: SubscriptionTopic) async throws -> NotificationLog
}

/// The backend cannot receive notifications (an HTTP-only URL): `subscribe` steps are skipped with this reason.
public struct SubscriptionsUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The results of one subscription's notifications, in arrival order, kept until the scenario ends.
///
/// Limit: ``limit`` notifications per subscription; more fail the next check that reads the log (the count is
/// kept, so nothing is dropped silently).
public final class NotificationLog: Sendable {
    /// At most this many results are kept per subscription.
    public static let limit = 10_000

    private let state = Mutex<(results: [JSON], total: Int)>(([], 0))
    /// Keeps the in-process handler registered while the scenario holds the log.
    private let subscription: Mutex<EventSubscription?> = Mutex(nil)

    public init() {}

    public func append(_ result: JSON) {
        state.withLock {
            $0.total += 1
            if $0.results.count < Self.limit { $0.results.append(result) }
        }
    }

    /// The results received so far and how many arrived in all (more than `results.count` past ``limit``).
    public var received: (results: [JSON], total: Int) { state.withLock { $0 } }

    func keep(_ handle: EventSubscription) { subscription.withLock { $0 = handle } }

    /// Stops receiving.
    public func cancel() { subscription.withLock { $0.take() }?.cancel() }
}

/// The backend has no ICP ledger (a plain Ethereum node): ICP steps are skipped with this reason.
public struct ICPUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

extension ScenarioBackend {
    public func icpCall(method: String, arg: [UInt8], identity: KeyIdentity, query: Bool) async throws -> AgentReply {
        throw ICPUnavailable("\(label) has no ICP ledger")
    }

    public func subscribe(_ topic: SubscriptionTopic) async throws -> NotificationLog {
        throw SubscriptionsUnavailable(
            "subscribe steps need notifications; \(label) is reached over HTTP only, which has none "
                + "(run the scenario in-process)")
    }
}

/// The node could not be reached or answered with something that is not JSON-RPC.
public struct BackendError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A fresh ``DevelopmentNetwork`` for one scenario, called through its method table with no transport, on a clock
/// that moves only when the scenario says so: the same file and seed give the same chain.
public final class InProcessBackend: ScenarioBackend {
    /// The node and, next to the chain, the ICP ledger on its own clock (moved by `icpAdvanceTime`).
    public let network: DevelopmentNetwork
    let clock: ManualClock

    public var label: String { "in-process" }
    public var isInProcess: Bool { true }

    /// Genesis time of in-process chains; the clock starts 12 seconds later.
    public static let genesisTimestamp: UInt64 = 1_700_000_000

    /// Creates the node with the scenario's `node:` settings applied.
    public init(configuration: NodeConfiguration) throws {
        let clock = ManualClock(start: configuration.chain.genesisTimestamp + 12)
        self.clock = clock
        let icpStart = (configuration.chain.genesisTimestamp + 12) * 1_000_000_000
        var icp = DevelopmentNetwork.ICPConfiguration()
        icp.identities = 0
        icp.balance = .init(e8s: 0)
        network = try DevelopmentNetwork(
            configuration: .init(ethereum: configuration, icp: icp), clock: { clock.now }, icpClock: { icpStart })
    }

    public func icpCall(method: String, arg: [UInt8], identity: KeyIdentity, query: Bool) async throws -> AgentReply {
        guard let replica = network.icp?.replica else { throw ICPUnavailable("\(label) has no ICP ledger") }
        switch replica.call(method: method, arg: arg, caller: identity.principal, kind: query ? .query : .update) {
        case .reply(let bytes): return .replied(bytes)
        case .reject(let code, let message, let errorCode):
            return .rejected(code: code.rawValue, message: message, errorCode: errorCode)
        }
    }

    public func call(_ method: String, _ params: [JSON]) async throws -> JSON {
        try callNow(method, params)
    }

    /// Registers a handler on the node's ``EventHub``: the node publishes while it handles the call that causes the
    /// event (a mined block, an accepted transaction), so a step's notifications are in the log when the step returns.
    public func subscribe(_ topic: SubscriptionTopic) async throws -> NotificationLog {
        let log = NotificationLog()
        log.keep(
            network.node.events.subscribe { event in
                var header: JSON?
                for result in topic.results(for: event, header: &header) { log.append(result) }
            })
        return log
    }

    /// The synchronous path: the node's handlers are synchronous, so nothing awaits.
    func callNow(_ method: String, _ params: [JSON]) throws -> JSON {
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        guard let response = network.dispatcher.handle(request: request) else { throw BackendError("no response") }
        return try Self.unwrap(response)
    }

    public func advanceTime(seconds: UInt64) async throws {
        guard clock.advance(seconds) else {
            throw BackendError("advancing the clock \(seconds) s passes 2^64-1 seconds since the epoch")
        }
    }

    /// The result of a JSON-RPC response, or its error thrown as ``RPCError``.
    static func unwrap(_ response: JSON) throws -> JSON {
        if let error = response["error"] {
            let code =
                error["code"].flatMap { value -> Int? in
                    if case .number(let n) = value { return Int(n) }
                    return nil
                } ?? -32603
            throw RPCError(code: code, message: error["message"]?.stringValue ?? "unknown error", data: error["data"])
        }
        guard let result = response["result"] else { throw BackendError("response has neither result nor error") }
        return result
    }
}

/// A clock the scenario moves by hand.
final class ManualClock: Sendable {
    private let value: Mutex<UInt64>

    init(start: UInt64) { value = Mutex(start) }

    var now: UInt64 { value.withLock { $0 } }

    /// Moves the clock `seconds` forward; false (and unmoved) when that passes 2^64-1.
    func advance(_ seconds: UInt64) -> Bool {
        value.withLock {
            let (later, overflow) = $0.addingReportingOverflow(seconds)
            if !overflow { $0 = later }
            return !overflow
        }
    }
}

/// Any JSON-RPC endpoint over HTTP: another Sandnet, Anvil, Hardhat, geth.
///
/// Like the wallets' transports (viem's `http()` retries 3 times, ethers v6 retries throttled requests), a call
/// answered HTTP 429 is sent again, up to ``maxRetries`` times, after the answer's `Retry-After` seconds (at most
/// ``maxRetryWait``) or else viem's backoff, 150 ms × 2^attempt.
public final class HTTPBackend: ScenarioBackend {
    public let url: URL
    let session: URLSession
    let nextID = Mutex(1)
    /// Resends of a call answered HTTP 429 (0: the 429's error is the call's answer).
    public let maxRetries: Int
    /// Longest `Retry-After` honoured, in seconds.
    public static let maxRetryWait: UInt64 = 10
    private let retryCount = Mutex(0)

    /// Calls resent after an HTTP 429 so far.
    public var retries: Int { retryCount.withLock { $0 } }

    public var label: String { url.absoluteString }
    public var isInProcess: Bool { false }

    public init(url: URL, timeout: TimeInterval = 30, maxRetries: Int = 3) {
        self.url = url
        self.maxRetries = max(maxRetries, 0)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    public func call(_ method: String, _ params: [JSON]) async throws -> JSON {
        let id = nextID.withLock { value -> Int in
            defer { value += 1 }
            return value
        }
        let body = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .int(id)), ("method", .string(method)), ("params", .array(params)),
        ])
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.bytes)
        var (data, status, retryAfter) = try await sendReadingRetryAfter(request)
        var attempt = 0
        while status == 429, attempt < maxRetries {
            let wait = retryAfter.map { min($0, Self.maxRetryWait) * 1_000 } ?? (150 << UInt64(attempt))
            try await Task.sleep(for: .milliseconds(wait))
            attempt += 1
            retryCount.withLock { $0 += 1 }
            (data, status, retryAfter) = try await sendReadingRetryAfter(request)
        }
        let response: JSON
        do {
            response = try JSON.parse([UInt8](data))
        } catch {
            let text = String(decoding: data.prefix(200), as: UTF8.self)
            throw BackendError("\(url.absoluteString) answered HTTP \(status) with no JSON-RPC response: \(text)")
        }
        return try InProcessBackend.unwrap(response)
    }

    func send(_ request: URLRequest) async throws -> (Data, Int) {
        let (data, status, _) = try await sendReadingRetryAfter(request)
        return (data, status)
    }

    /// The body, the HTTP status and the `Retry-After` seconds (when given as a number).
    func sendReadingRetryAfter(_ request: URLRequest) async throws -> (Data, Int, UInt64?) {
        let url = self.url
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(
                        throwing: BackendError("cannot reach \(url.absoluteString): \(error.localizedDescription)"))
                    return
                }
                let http = response as? HTTPURLResponse
                let retryAfter = http?.value(forHTTPHeaderField: "Retry-After").flatMap {
                    UInt64($0.trimmingCharacters(in: .whitespaces))
                }
                continuation.resume(returning: (data ?? Data(), http?.statusCode ?? 0, retryAfter))
            }
            task.resume()
        }
    }

    public func advanceTime(seconds: UInt64) async throws {
        _ = try await call("evm_increaseTime", [.string("0x" + String(seconds, radix: 16))])
    }

    /// ICP calls go to the IC HTTP interface on the same origin (Sandnet serves both on one port).
    public func icpCall(method: String, arg: [UInt8], identity: KeyIdentity, query: Bool) async throws -> AgentReply {
        let base = url
        let clock: @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1_000_000_000) }
        let agent = Agent(identity: identity, clock: clock) {
            [self] path, body in
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
            components?.path = path
            guard let target = components?.url else { throw BackendError("cannot build a URL from \(base)") }
            var request = URLRequest(url: target)
            if let body {
                request.httpMethod = "POST"
                request.setValue("application/cbor", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body)
            }
            let (data, status) = try await send(request)
            if status == 404 || status == 405 {
                throw ICPUnavailable(
                    "\(base.absoluteString) does not serve the IC HTTP interface (HTTP \(status) for \(path))")
            }
            return (status, [UInt8](data))
        }
        do {
            return
                query
                ? try await agent.query(canister: LedgerService.canisterID, method: method, arg: arg)
                : try await agent.update(canister: LedgerService.canisterID, method: method, arg: arg)
        } catch let error as AgentError {
            throw BackendError("\(url.absoluteString) (IC HTTP interface): \(error.message)")
        }
    }
}

extension NodeConfiguration {
    /// The in-process configuration for a scenario's `node:` settings (amounts already evaluated).
    static func forScenario(_ settings: NodeSettings) -> NodeConfiguration {
        var configuration = NodeConfiguration()
        configuration.chain.genesisTimestamp = InProcessBackend.genesisTimestamp
        if let chainID = settings.chainID { configuration.chain.chainID = chainID }
        if let cooldown = settings.faucetCooldown { configuration.faucetCooldown = cooldown }
        if let amount = settings.faucetAmount { configuration.faucetAmount = amount }
        if let gasLimit = settings.gasLimit { configuration.chain.gasLimit = gasLimit }
        if let fee = settings.genesisBaseFee { configuration.chain.genesisBaseFee = fee }
        return configuration
    }
}
