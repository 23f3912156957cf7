import JSONCoding

/// A JSON-RPC 2.0 error object. Codes and texts follow go-ethereum (`rpc/errors.go`), which clients parse.
public struct RPCError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var message: String
    public var data: JSON?

    public init(code: Int, message: String, data: JSON? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(code): \(message)" }

    public static func parseError(_ detail: String) -> RPCError { RPCError(code: -32700, message: "parse error") }
    public static let invalidRequest = RPCError(code: -32600, message: "invalid request")
    /// geth `rpc/handler.go`: an empty batch.
    public static let emptyBatch = RPCError(code: -32600, message: "empty batch")
    /// geth `rpc/errors.go` `errMsgBatchTooLarge`: more calls than the batch limit.
    public static let batchTooLarge = RPCError(code: -32600, message: "batch too large")
    /// geth `rpc/errors.go` `errcodeResponseTooLarge`: a batch's answers passed the response size limit.
    public static let responseTooLarge = RPCError(code: -32003, message: "response too large")
    public static func methodNotFound(_ method: String) -> RPCError {
        RPCError(code: -32601, message: "the method \(method) does not exist/is not available")
    }
    public static func invalidParams(_ message: String) -> RPCError { RPCError(code: -32602, message: message) }
    public static func internalError(_ message: String) -> RPCError { RPCError(code: -32603, message: message) }
    /// geth's code for transaction and state errors, with geth's message.
    public static func server(_ message: String, data: JSON? = nil) -> RPCError {
        RPCError(code: -32000, message: message, data: data)
    }

    var json: JSON {
        var members: [(String, JSON)] = [("code", .int(code)), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }
}

/// Domain errors map themselves to JSON-RPC errors in one place each; anything else becomes -32603.
public protocol RPCErrorConvertible: Error {
    var rpcError: RPCError { get }
}

extension RPCError: RPCErrorConvertible {
    public var rpcError: RPCError { self }
}
