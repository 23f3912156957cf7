import JSONCoding

/// Who sent a request, as far as the transport knows (per-client limits, such as the faucet's, use it).
public struct RPCClient: Sendable, Equatable {
    /// The peer's IP address; nil for in-process callers.
    public var address: String?

    public init(address: String? = nil) { self.address = address }
}

/// Positional parameters with geth's argument error texts (`invalid argument N: …`).
public struct RPCParams: Sendable {
    public let values: [JSON]
    /// The sender of the request.
    public let client: RPCClient

    public init(_ values: [JSON], client: RPCClient = RPCClient()) {
        self.values = values
        self.client = client
    }

    public var count: Int { values.count }

    /// The value at `index`, or nil when absent or null.
    public subscript(index: Int) -> JSON? {
        guard index < values.count else { return nil }
        if case .null = values[index] { return nil }
        return values[index]
    }

    /// Rejects more than `count` arguments, as geth does.
    public func atMost(_ count: Int) throws(RPCError) {
        if values.count > count { throw .invalidParams("too many arguments, want at most \(count)") }
    }

    /// A required argument converted by `convert`; conversion failures become `invalid argument N: …`.
    public func required<T>(_ index: Int, _ convert: (JSON) throws -> T) throws(RPCError) -> T {
        guard let value = self[index] else { throw .invalidParams("missing value for required argument \(index)") }
        do { return try convert(value) } catch { throw .invalidParams("invalid argument \(index): \(error)") }
    }

    /// An optional argument converted by `convert`.
    public func optional<T>(_ index: Int, _ convert: (JSON) throws -> T) throws(RPCError) -> T? {
        guard let value = self[index] else { return nil }
        do { return try convert(value) } catch { throw .invalidParams("invalid argument \(index): \(error)") }
    }
}

/// A conversion failure described in Go's words.
public struct ArgumentError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
