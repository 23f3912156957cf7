import Foundation
import Hummingbird
import ICPReplica
import JSONCoding
import JSONRPC
import NIOCore

/// The Internet Computer's HTTP interface (v2, plus the v3/v4 forms newer agents use) and the ICP faucet, served
/// on the node's port next to JSON-RPC. The routes only move bytes; ``Replica`` does the work.
extension NodeServer {
    func addICPRoutes(to router: Router<NodeRequestContext>, replica: Replica) {
        let limit = configuration.maxRequestBytes
        router.get("/api/v2/status") { _, _ in Self.reply(replica.status()) }
        for version in ["v2", "v3"] {
            router.post("/api/\(version)/canister/:canister/query") { request, context in
                guard let (canister, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(replica.query(effectiveCanister: canister, body: body))
            }
            router.post("/api/\(version)/canister/:canister/read_state") { request, context in
                guard let (canister, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(replica.readState(effectiveCanister: canister, body: body))
            }
            router.post("/api/\(version)/subnet/:subnet/read_state") { request, context in
                guard let (_, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(replica.readState(effectiveCanister: nil, body: body))
            }
        }
        for version in ["v2", "v3", "v4"] {
            router.post("/api/\(version)/canister/:canister/call") { request, context in
                guard let (canister, body) = try await Self.cborInput(request, context, limit: limit) else {
                    return Self.reply(.error(.tooLarge(limit: limit)))
                }
                return Self.reply(replica.call(effectiveCanister: canister, body: body, synchronous: version != "v2"))
            }
        }
        router.post("/api/icp/claim") { request, _ -> Response in
            var request = request
            guard let body = try? await request.collectBody(upTo: 4_096) else {
                return Self.message("request body too large", status: .contentTooLarge)
            }
            guard let json = try? JSON.parse(Array(buffer: body)), case .object(let members) = json,
                members.allSatisfy({ $0.0 == "account" || $0.0 == "e8s" }), let account = json["account"]?.stringValue
            else {
                return Self.message(
                    "invalid request body: expected {\"account\": \"<principal | ICRC-1 account | account id>\"}",
                    status: .badRequest)
            }
            var e8s: UInt64?
            if let amount = json["e8s"] {
                guard case .number(let text) = amount, let n = UInt64(text) else {
                    return Self.message("e8s must be a whole number", status: .badRequest)
                }
                e8s = n
            }
            do {
                let result = try replica.faucet(account: account, e8s: e8s)
                return Self.json(
                    JSON.object([
                        ("account", .string(result.account.hex)), ("blockIndex", .int(result.blockIndex)),
                        ("e8s", .string(String(result.e8s))),
                    ]).bytes, status: .ok)
            } catch {
                return Self.message("\(error)", status: .badRequest)
            }
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
