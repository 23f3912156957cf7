import JSONCoding

/// A handler for one method call. Returns the result, or throws an error the dispatcher maps.
public typealias RPCMethod = @Sendable (RPCParams) throws -> JSON

/// JSON-RPC 2.0 request processing (jsonrpc.org/specification): single requests, batches, notifications,
/// any id type, and geth's error objects. Transport-free: bytes in, bytes out.
public struct RPCDispatcher: Sendable {
    public var methods: [String: RPCMethod] = [:]
    /// Largest batch accepted (geth: 1,000).
    public var batchLimit = 1_000
    /// Called with errors that are not RPC-mapped before they are turned into -32603.
    public var onInternalError: (@Sendable (String, any Error) -> Void)?

    public init() {}

    public mutating func register(_ name: String, _ method: @escaping RPCMethod) { methods[name] = method }

    /// Registers one handler under several names (Anvil's aliases).
    public mutating func register(_ names: [String], _ method: @escaping RPCMethod) {
        for name in names { methods[name] = method }
    }

    /// Handles one HTTP body. Returns nil when nothing must be sent (only notifications).
    public func handle(_ body: [UInt8]) -> [UInt8]? {
        let document: JSON
        do {
            document = try JSON.parse(body)
        } catch {
            return Self.response(id: .null, error: .parseError(error.description)).bytes
        }
        switch document {
        case .array(let items):
            guard !items.isEmpty else { return Self.response(id: .null, error: .invalidRequest).bytes }
            guard items.count <= batchLimit else {
                return Self.response(id: .null, error: RPCError(code: -32600, message: "batch too large")).bytes
            }
            var responses: [JSON] = []
            responses.reserveCapacity(items.count)
            for item in items {
                if let response = handle(request: item) { responses.append(response) }
            }
            return responses.isEmpty ? nil : JSON.array(responses).bytes
        default:
            return handle(request: document)?.bytes
        }
    }

    /// Handles one request object; nil for a notification.
    public func handle(request: JSON) -> JSON? {
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
        if let handler = methods[method] {
            do {
                outcome = .success(try handler(RPCParams(params)))
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
