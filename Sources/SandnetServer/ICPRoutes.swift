import DevNetwork
import Foundation
import Hummingbird
import ICPRPC
import ICPReplica
import JSONCoding
import NIOCore

/// The Internet Computer's HTTP interface (v2, plus the v3/v4 forms newer agents use) and the ICP faucet, served
/// on the node's port next to JSON-RPC. The routes only move bytes; ``Replica`` and ``ICPFaucet`` do the work, on
/// the server's ``NodeExecutor`` as the Ethereum node's calls do: a query is CPU-bound (CBOR, request id, Candid, an
/// Ed25519 signature), so on Swift's cooperative pool it would hold up the tasks that serve every connection's I/O.
/// Queries run concurrently with each other (``Replica`` takes its state with a shared lock for them).
extension NodeServer {
    func addICPRoutes(to router: Router<NodeRequestContext>, icp: DevelopmentNetwork.ICP) {
        let replica = icp.replica
        let faucet = icp.faucet
        let limit = configuration.maxRequestBytes
        let executor = self.executor
        router.get("/api/v2/status") { _, _ in Self.reply(replica.status()) }
        for version in ["v2", "v3"] {
            router.post("/api/\(version)/canister/:canister/query") { request, context in
                guard let (canister, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(try await executor.run { replica.query(effectiveCanister: canister, body: body) })
            }
            router.post("/api/\(version)/canister/:canister/read_state") { request, context in
                guard let (canister, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(
                    try await executor.run { replica.readState(effectiveCanister: canister, body: body) })
            }
            router.post("/api/\(version)/subnet/:subnet/read_state") { request, context in
                guard let (_, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(try await executor.run { replica.readState(effectiveCanister: nil, body: body) })
            }
        }
        for version in ["v2", "v3", "v4"] {
            router.post("/api/\(version)/canister/:canister/call") { request, context in
                guard let (canister, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                let synchronous = version != "v2"
                return Self.reply(
                    try await executor.run {
                        replica.call(effectiveCanister: canister, body: body, synchronous: synchronous)
                    })
            }
        }
        router.post("/api/icp/claim") { request, _ -> Response in
            var request = request
            guard let body = try? await request.collectBody(upTo: 4_096) else {
                return Self.message("request body too large", status: .contentTooLarge)
            }
            let bytes = Array(buffer: body)
            let reply = try await executor.run { faucet.claim(httpBody: bytes) }
            return Self.json(reply.body.bytes, status: HTTPResponse.Status(code: reply.status))
        }
    }

    /// The `:canister` path parameter and the body, or nil when the body is over `limit`.
    static func cborInput(_ request: Request, _ context: NodeRequestContext, limit: Int) async throws
        -> (String, [UInt8])?
    {
        var request = request
        guard let body = try? await request.collectBody(upTo: limit) else { return nil }
        let canister = context.parameters.get("canister") ?? ""
        return (canister, Array(buffer: body))
    }

    static func reply(_ response: ReplicaResponse) -> Response {
        Response(
            status: HTTPResponse.Status(code: response.status), headers: [.contentType: response.contentType],
            body: .init(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}
