import Hummingbird
import JSONCoding
import JSONRPC
import NIOCore
import ProviderFaults
import Synchronization

/// The live fault schedule of a server, shared by its middleware and its `sandnet_*Faults` methods.
///
/// Lock order: the schedule's mutex is a leaf (held only inside ``FaultSchedule/decide(path:client:calls:batch:)``,
/// never across an await).
public final class FaultController: Sendable {
    let schedule: Mutex<FaultSchedule>
    /// Waits for a delay (latency, timeout). Tests inject one that records and returns at once.
    let sleeper: @Sendable (Duration) async throws -> Void

    public init(
        _ schedule: FaultSchedule = FaultSchedule(),
        sleeper: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.schedule = Mutex(schedule)
        self.sleeper = sleeper
    }

    /// The schedule now, with its counters.
    public var current: FaultSchedule { schedule.withLock { $0 } }

    public func replace(with new: FaultSchedule) { schedule.withLock { $0 = new } }

    func decide(path: String, client: String?, calls: [FaultSchedule.Call], batch: Bool) -> FaultSchedule.Decision? {
        schedule.withLock { schedule in
            schedule.isEmpty ? nil : schedule.decide(path: path, client: client, calls: calls, batch: batch)
        }
    }

    /// The fate of one Etherscan API request (nil: no rules).
    func decideEtherscan(path: String, client: String?, method: String) -> FaultSchedule.Decision? {
        schedule.withLock { schedule in
            schedule.isEmpty ? nil : schedule.decideEtherscan(path: path, client: client, method: method)
        }
    }

    /// Whether a WebSocket message severs its connection (`websocket-disconnect`); the fault methods never do.
    func severs(path: String, client: String?, message: [UInt8]) -> Bool {
        guard let (calls, _) = FaultSchedule.calls(of: message) else { return false }
        if !calls.isEmpty, calls.allSatisfy({ $0.method.map(Self.exempt.contains) ?? false }) { return false }
        return schedule.withLock { $0.isEmpty ? false : $0.severs(path: path, client: client, calls: calls) }
    }

    /// Development methods, never faulted: `sandnet_setFaults(config)` replaces the schedule (README, "Provider
    /// faults"), `sandnet_getFaults` returns it with its counters, `sandnet_clearFaults` removes every rule.
    public var methods: [String: RPCMethod] {
        [
            "sandnet_setFaults": { [self] params in
                try params.atMost(1)
                let config = try params.required(0) { $0 }
                do throws(FaultConfigurationError) {
                    replace(with: try FaultSchedule(json: config))
                } catch {
                    throw RPCError.invalidParams("invalid argument 0: \(error.description)")
                }
                return .bool(true)
            },
            "sandnet_getFaults": { [self] params in
                try params.atMost(0)
                return current.json
            },
            "sandnet_clearFaults": { [self] params in
                try params.atMost(0)
                replace(with: FaultSchedule(seed: current.seed))
                return .bool(true)
            },
        ]
    }

    /// Methods a fault never hits.
    static let exempt: Set<String> = ["sandnet_setFaults", "sandnet_getFaults", "sandnet_clearFaults"]
}

/// Applies a ``FaultController``'s schedule to JSON-RPC POSTs: waits, answers in a provider's words instead of
/// the node, or serves a batch in part with some calls replaced. Requests no rule watches pass untouched, and
/// with no rules the body is not even read here.
public struct ProviderFaultMiddleware<Context: RemoteAddressRequestContext>: RouterMiddleware {
    let controller: FaultController
    /// The server's request-body limit (the same 413 answer the node gives).
    let bodyLimit: Int

    public init(controller: FaultController, bodyLimit: Int) {
        self.controller = controller
        self.bodyLimit = bodyLimit
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.method == .post, !controller.current.isEmpty else { return try await next(request, context) }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: bodyLimit)
        } catch {
            let error = RPCError(code: -32600, message: "request body too large: limit is \(bodyLimit) bytes")
            return Self.response(
                FaultResponse(
                    status: 413, headers: [("Content-Type", "application/json")],
                    body: RPCDispatcher.response(id: .null, error: error).bytes))
        }
        let bytes = Array(buffer: body)
        guard let (calls, batch) = FaultSchedule.calls(of: bytes) else { return try await next(request, context) }
        // Not JSON-RPC (the faucet's `{"address": …}`): never faulted.
        guard calls.contains(where: { $0.method != nil }) else { return try await next(request, context) }
        let exempt = calls.map { $0.method.map(FaultController.exempt.contains) ?? false }
        if !calls.isEmpty, exempt.allSatisfy({ $0 }) { return try await next(request, context) }
        if batch, exempt.contains(true), case .array(let items)? = try? JSON.parse(bytes), items.count == calls.count {
            return try await mixedBatch(
                items, calls: calls, exempt: exempt, request: request, context: context, next: next)
        }
        guard
            let decision = controller.decide(
                path: request.uri.path, client: context.remoteAddress?.ipAddress, calls: calls, batch: batch)
        else { return try await next(request, context) }
        if decision.delay > .zero { try await controller.sleeper(decision.delay) }
        if let response = decision.response { return Self.response(response) }
        guard batch, !decision.replaced.isEmpty, case .array(let items) = try JSON.parse(bytes) else {
            return try await next(request, context)
        }
        // Serve the calls that were not replaced, then put the replacements back in their places.
        let kept = items.indices.filter { decision.replaced[$0] == nil }
        request.body = .init(buffer: ByteBuffer(bytes: JSON.array(kept.map { items[$0] }).bytes))
        let served = try await next(request, context)
        let collector = BodyCollector()
        try await served.body.write(CollectingWriter(collector: collector))
        let answers = (try? JSON.parse(collector.bytes))?.arrayValue ?? []
        var byID: [JSON: [JSON]] = [:]
        for answer in answers { byID[answer["id"] ?? .null, default: []].append(answer) }
        var merged: [JSON] = []
        for index in items.indices {
            if let replacement = decision.replaced[index] {
                merged.append(replacement)
            } else if let id = items[index]["id"], var list = byID[id], !list.isEmpty {
                merged.append(list.removeFirst())
                byID[id] = list
            }
        }
        return Self.response(
            FaultResponse(status: 200, headers: [("Content-Type", "application/json")], body: JSON.array(merged).bytes))
    }

    /// A batch holding fault methods and other calls (issue 38: the whole batch got the fault's error page and the
    /// fault method did not run). The fault methods run first, never faulted; the other calls then meet the schedule
    /// as those methods left it: served, replaced in part, or answered whole in the fault's own shape.
    func mixedBatch(
        _ items: [JSON], calls: [FaultSchedule.Call], exempt: [Bool], request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var answers: [Int: JSON] = [:]
        let first = items.indices.filter { exempt[$0] }
        try await Self.serve(first, of: items, into: &answers, request: request, context: context, next: next)
        let rest = items.indices.filter { !exempt[$0] }
        if let decision = controller.decide(
            path: request.uri.path, client: context.remoteAddress?.ipAddress, calls: rest.map { calls[$0] },
            batch: true)
        {
            if decision.delay > .zero { try await controller.sleeper(decision.delay) }
            if let response = decision.response { return Self.response(response) }
            var kept: [Int] = []
            for (position, index) in rest.enumerated() {
                if let replacement = decision.replaced[position] {
                    answers[index] = replacement
                } else {
                    kept.append(index)
                }
            }
            try await Self.serve(kept, of: items, into: &answers, request: request, context: context, next: next)
        } else {
            try await Self.serve(rest, of: items, into: &answers, request: request, context: context, next: next)
        }
        let merged = items.indices.compactMap { answers[$0] }
        return Self.response(
            FaultResponse(status: 200, headers: [("Content-Type", "application/json")], body: JSON.array(merged).bytes))
    }

    /// Serves `indices` of a batch as one batch and files each answer under its call's index (matched by id, in
    /// order; notifications get none).
    static func serve(
        _ indices: [Int], of items: [JSON], into answers: inout [Int: JSON], request: Request, context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws {
        guard !indices.isEmpty else { return }
        var request = request
        request.body = .init(buffer: ByteBuffer(bytes: JSON.array(indices.map { items[$0] }).bytes))
        let served = try await next(request, context)
        let collector = BodyCollector()
        try await served.body.write(CollectingWriter(collector: collector))
        var byID: [JSON: [JSON]] = [:]
        for answer in (try? JSON.parse(collector.bytes))?.arrayValue ?? [] {
            byID[answer["id"] ?? .null, default: []].append(answer)
        }
        for index in indices {
            if let id = items[index]["id"], var list = byID[id], !list.isEmpty {
                answers[index] = list.removeFirst()
                byID[id] = list
            }
        }
    }

    static func response(_ fault: FaultResponse) -> Response {
        var headers = HTTPFields()
        for (name, value) in fault.headers {
            // HTTPField itself is not re-exported by Hummingbird; HTTPFields.Element is that type.
            if let field = HTTPFields.Element.Name(name) {
                headers.append(HTTPFields.Element(name: field, value: value))
            }
        }
        return Response(
            status: HTTPResponse.Status(code: fault.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(bytes: fault.body)))
    }
}

/// The bytes a response body writes (one task writes, then reads: no sharing).
final class BodyCollector {
    var bytes: [UInt8] = []
}

struct CollectingWriter: ResponseBodyWriter {
    let collector: BodyCollector

    mutating func write(_ buffer: ByteBuffer) async throws { collector.bytes += Array(buffer: buffer) }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
