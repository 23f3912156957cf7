import JSONCoding

/// A handler for one method call. Returns the result, or throws an error the dispatcher maps.
public typealias RPCMethod = @Sendable (RPCParams) throws -> JSON

/// Where a transport may run a method: declared when the method is registered, so the method table and the transports
/// cannot disagree.
public enum RPCExecution: Sendable, Equatable {
    /// Answered from memory, taking no lock that is held across I/O (the ledger's, held while a block is sealed and
    /// written) and reading no store: a transport may run it on the calling task (Swift's cooperative pool).
    case inline
    /// May wait on a lock held across I/O or read the store (LevelDB): a transport runs it on threads of its own (the
    /// server's `NodeExecutor`), never on the cooperative pool. The default.
    case executor
}

/// JSON-RPC 2.0 request processing (jsonrpc.org/specification): single requests, batches, notifications,
/// any id type, and geth's error objects. Transport-free: bytes in, bytes out.
public struct RPCDispatcher: Sendable {
    /// The handlers by method name, as registered.
    public private(set) var methods: [String: RPCMethod] = [:]
    /// The methods registered ``RPCExecution/inline``.
    public private(set) var inlineMethods: Set<String> = []
    /// Largest batch accepted (geth's `--rpc.batch-request-limit`: 1,000); 0: no limit. A larger batch is answered
    /// as geth answers it: `[{"jsonrpc":"2.0","id":<first call's id or null>,"error":{"code":-32600,"message":"batch too large"}}]`.
    public var batchLimit = 1_000
    /// Largest total size, in bytes, of the results and errors of one batch (geth's `--rpc.batch-response-max-size`:
    /// 25,000,000); 0: no limit. Once a batch's answers pass it, every call still unanswered gets geth's
    /// `-32003 response too large`.
    public var batchResponseMaxSize = 25_000_000
    /// Called with errors that are not RPC-mapped before they are turned into -32603.
    public var onInternalError: (@Sendable (String, any Error) -> Void)?

    public init() {}

    /// Registers `method` under `name` (replacing any earlier registration, its execution included).
    public mutating func register(
        _ name: String, runs execution: RPCExecution = .executor, _ method: @escaping RPCMethod
    ) {
        methods[name] = method
        if execution == .inline { inlineMethods.insert(name) } else { inlineMethods.remove(name) }
    }

    /// Registers one handler under several names (Anvil's aliases).
    public mutating func register(
        _ names: [String], runs execution: RPCExecution = .executor, _ method: @escaping RPCMethod
    ) {
        for name in names { register(name, runs: execution, method) }
    }

    /// Registers a method that takes no parameters: extra ones are refused as geth's server refuses them for every
    /// method (-32602 `too many arguments, want at most 0`).
    public mutating func registerParameterless(
        _ names: String..., runs execution: RPCExecution = .executor, method: @escaping @Sendable () throws -> JSON
    ) {
        for name in names {
            register(name, runs: execution) { params in
                try params.atMost(0)
                return try method()
            }
        }
    }

    /// Registers every method of `other` with its execution; on a name clash `other`'s registration wins.
    public mutating func register(contentsOf other: RPCDispatcher) {
        for (name, method) in other.methods {
            register(name, runs: other.inlineMethods.contains(name) ? .inline : .executor, method)
        }
    }

    /// Whether a request or batch calling `names` may run on the calling task: every name registered
    /// ``RPCExecution/inline`` and none served by `overlay` (a connection's own methods run where the rest does).
    public func mayRunInline(_ names: [String], overlay: [String: RPCMethod] = [:]) -> Bool {
        !names.isEmpty && names.allSatisfy { inlineMethods.contains($0) && overlay[$0] == nil }
    }

    /// Handles one HTTP body or WebSocket message. Returns nil when nothing must be sent (only notifications).
    /// - Parameters:
    ///   - body: the JSON text of one request or a batch.
    ///   - overlay: methods of this connection only (a WebSocket's `eth_subscribe`), looked up before ``methods``.
    ///   - client: who sent it, for per-client limits (the faucet's per-IP cooldown).
    public func handle(_ body: [UInt8], overlay: [String: RPCMethod] = [:], client: RPCClient = RPCClient()) -> [UInt8]?
    {
        let document: JSON
        do {
            document = try JSON.parse(body)
        } catch {
            return Self.response(id: .null, error: .parseError(error.description)).bytes
        }
        return handle(document: document, overlay: overlay, client: client)
    }

    /// The names of the methods a parsed request or batch calls (a transport decides from them where to run it).
    public static func methodNames(in document: JSON) -> [String] {
        switch document {
        case .array(let items): return items.compactMap { $0["method"]?.stringValue }
        default: return document["method"]?.stringValue.map { [$0] } ?? []
        }
    }

    /// Handles one parsed request or batch, as ``handle(_:overlay:client:)`` handles its text.
    public func handle(document: JSON, overlay: [String: RPCMethod] = [:], client: RPCClient = RPCClient()) -> [UInt8]?
    {
        switch document {
        case .array(let items):
            // geth (rpc/handler.go handleBatch): an empty batch is one error object, not an array.
            guard !items.isEmpty else { return Self.response(id: .null, error: .emptyBatch).bytes }
            guard batchLimit == 0 || items.count <= batchLimit else {
                let firstCall = items.lazy.compactMap { item -> JSON? in
                    guard item["method"]?.stringValue != nil, let id = item["id"] else { return nil }
                    switch id {
                    case .string, .number, .null: return id
                    default: return nil
                    }
                }.first
                return JSON.array([Self.response(id: firstCall ?? .null, error: .batchTooLarge)]).bytes
            }
            var out: [UInt8] = [UInt8(ascii: "[")]
            var answered = 0
            var payloadBytes = 0
            var tooLarge = false
            for item in items {
                let response: JSON?
                if tooLarge {
                    response = Self.unansweredCall(item).map { Self.response(id: $0, error: .responseTooLarge) }
                } else {
                    response = handle(request: item, overlay: overlay, client: client)
                }
                guard let response else { continue }
                if answered > 0 { out.append(UInt8(ascii: ",")) }
                answered += 1
                payloadBytes += Self.write(response, to: &out)
                if batchResponseMaxSize > 0 && payloadBytes > batchResponseMaxSize { tooLarge = true }
            }
            out.append(UInt8(ascii: "]"))
            return answered == 0 ? nil : out
        default:
            return handle(request: document, overlay: overlay, client: client)?.bytes
        }
    }

    /// The id to answer for a batch item that is not run once the response limit is passed; nil for a
    /// notification (no answer). As in geth, an item that is not a valid request gets the same error with id null.
    static func unansweredCall(_ item: JSON) -> JSON? {
        guard case .object = item, item["jsonrpc"]?.stringValue == "2.0", item["method"]?.stringValue != nil else {
            return .null
        }
        return item["id"]
    }

    /// Appends a response object; returns the size of its `result` or `error` value (what geth counts).
    static func write(_ response: JSON, to out: inout [UInt8]) -> Int {
        guard case .object(let members) = response else {
            response.write(to: &out)
            return 0
        }
        var payload = 0
        out.append(UInt8(ascii: "{"))
        for (i, (key, value)) in members.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            let start = out.count
            value.write(to: &out)
            if key == "result" || key == "error" { payload += out.count - start }
        }
        out.append(UInt8(ascii: "}"))
        return payload
    }

    /// Handles one request object; nil for a notification.
    public func handle(request: JSON, overlay: [String: RPCMethod] = [:], client: RPCClient = RPCClient()) -> JSON? {
        guard case .object = request else { return Self.response(id: .null, error: .invalidRequest) }
        let id = request["id"]
        if let id {
            switch id {
            case .string, .number, .null: break
            default: return Self.response(id: .null, error: .invalidRequest)
            }
        }
        guard request["jsonrpc"]?.stringValue == "2.0", let method = request["method"]?.stringValue else {
            return Self.response(id: id ?? .null, error: .invalidRequest)
        }
        let params: [JSON]
        switch request["params"] {
        case nil, .null?: params = []
        case .array(let a)?: params = a
        default: return id.map { Self.response(id: $0, error: .invalidParams("non-array args")) }
        }
        let outcome: Result<JSON, RPCError>
        if let handler = overlay[method] ?? methods[method] {
            do {
                outcome = .success(try handler(RPCParams(params, client: client)))
            } catch let error as any RPCErrorConvertible {
                outcome = .failure(error.rpcError)
            } catch {
                onInternalError?(method, error)
                outcome = .failure(.internalError("\(error)"))
            }
        } else {
            outcome = .failure(.methodNotFound(method))
        }
        guard let id else { return nil }  // notification: no response, even on error
        switch outcome {
        case .success(let result): return .object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)])
        case .failure(let error): return Self.response(id: id, error: error)
        }
    }

    public static func response(id: JSON, error: RPCError) -> JSON {
        .object([("jsonrpc", .string("2.0")), ("id", id), ("error", error.json)])
    }
}
