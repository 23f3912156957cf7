import ByteCoding
import CBORCoding
import ICPIdentity

/// A minimal IC agent: signs requests with a key identity (or none: anonymous), sends them through an injected
/// transport, and reads replies. Updates use the asynchronous v2 `/call` and poll `/read_state` for the status, as
/// ic-py 1.0.1 and IcpKit do.
public struct Agent: Sendable {
    /// Sends a POST with a CBOR body (or a GET when the body is nil) to a path such as `/api/v2/status`; returns
    /// the HTTP status and body.
    public typealias Transport =
        @Sendable (_ path: String, _ body: [UInt8]?) async throws -> (status: Int, body: [UInt8])

    public var identity: KeyIdentity?
    public var transport: Transport
    /// Nanoseconds since the epoch.
    public var clock: @Sendable () -> UInt64
    /// Expiry of each request after the clock (4 minutes, within the replica's 5).
    public var ingressTTL: UInt64 = 240 * 1_000_000_000
    /// Read-state polls before an update gives up, and the pause between them in nanoseconds.
    public var maxPolls = 100
    public var pollInterval: UInt64 = 50_000_000

    public init(identity: KeyIdentity?, clock: @escaping @Sendable () -> UInt64, transport: @escaping Transport) {
        self.identity = identity
        self.clock = clock
        self.transport = transport
    }

    public var sender: Principal { identity?.principal ?? .anonymous }

    public func query(canister: Principal, method: String, arg: [UInt8]) async throws -> AgentReply {
        let content = AgentEnvelope.content(
            kind: .query, sender: sender, canisterID: canister, method: method, arg: arg,
            ingressExpiry: clock() + ingressTTL)
        let (_, body) = try AgentEnvelope.seal(content, identity: identity)
        let response = try await transport("/api/v2/canister/\(canister.text)/query", body)
        guard response.status == 200 else { throw Self.httpError(response) }
        return try AgentReply(queryResponse: response.body)
    }

    public func update(canister: Principal, method: String, arg: [UInt8]) async throws -> AgentReply {
        let content = AgentEnvelope.content(
            kind: .call, sender: sender, canisterID: canister, method: method, arg: arg,
            ingressExpiry: clock() + ingressTTL, nonce: BigEndian.bytes(clock()))
        let (requestID, body) = try AgentEnvelope.seal(content, identity: identity)
        let accepted = try await transport("/api/v2/canister/\(canister.text)/call", body)
        guard accepted.status == 202 || accepted.status == 200 else { throw Self.httpError(accepted) }
        let paths: [[[UInt8]]] = [[Array("request_status".utf8), requestID]]
        for _ in 0..<maxPolls {
            let read = AgentEnvelope.readStateContent(sender: sender, paths: paths, ingressExpiry: clock() + ingressTTL)
            let (_, readBody) = try AgentEnvelope.seal(read, identity: identity)
            let response = try await transport("/api/v2/canister/\(canister.text)/read_state", readBody)
            guard response.status == 200 else { throw Self.httpError(response) }
            if let reply = try AgentReply.fromReadState(response.body, requestID: requestID) { return reply }
            try await Task.sleep(nanoseconds: pollInterval)
        }
        throw AgentError("no reply after \(maxPolls) polls of the request status")
    }

    static func httpError(_ response: (status: Int, body: [UInt8])) -> AgentError {
        AgentError("HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
    }
}
