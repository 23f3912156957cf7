import ExplorerAPI
import Foundation
import Hummingbird
import JSONCoding
import JSONRPC
import MarketData
import NIOCore
import ProviderFaults

/// Etherscan's API on the node's port: `GET/POST /api` (v1 shape) and `/v2/api` (`chainid` required), answered by
/// ``EtherscanAPI`` on the ``NodeExecutor`` (history queries scan blocks). The `etherscan-*` provider faults
/// (README, "Provider faults") answer in Etherscan's words before the node is asked.
extension NodeServer {
    func addExplorerRoutes(to router: Router<NodeRequestContext>, dispatcher: RPCDispatcher) {
        let market = configuration.market.map { Market($0) }
        let api = EtherscanAPI(
            node: node, rpc: { [dispatcher] request in dispatcher.handle(request: request) },
            ethPrice: market.map { market in
                { @Sendable now in
                    guard let eth = market.asset("ethereum"), let btc = market.asset("bitcoin"),
                        let usd = market.currency("usd"),
                        let ethUSD = market.quote(asset: eth, currency: usd, at: Int64(now))?.price,
                        let btcUSD = market.quote(asset: btc, currency: usd, at: Int64(now))?.price, btcUSD > 0
                    else { return nil }
                    return (ethUSD, ethUSD / btcUSD)
                }
            })
        let executor = self.executor
        let faults = self.faults
        let limit = 1 << 16
        for (path, version) in [("/api", EtherscanAPI.Version.v1), ("/v2/api", .v2)] {
            let handler: @Sendable (Request, NodeRequestContext) async throws -> Response = { request, context in
                var query = EtherscanQuery(Self.query(request))
                if request.method == .post {
                    var request = request
                    switch await Self.readBody(&request, upTo: limit) {
                    case .body(let body):
                        query.merge(form: String(decoding: Array(buffer: body), as: UTF8.self))
                    case .tooLarge:
                        return Self.etherscan(.notOK("Error! Request body too large: limit is \(limit) bytes"))
                    case .malformed(let reason):
                        return Self.etherscan(.notOK("Error! Malformed HTTP body (\(reason))"))
                    }
                }
                if let fault = faults.decideEtherscan(
                    path: path, client: context.remoteAddress?.ipAddress,
                    method: "\(query["module"] ?? "").\(query["action"] ?? "")")
                {
                    if fault.delay > .zero { try await faults.sleeper(fault.delay) }
                    if let response = fault.response {
                        return ProviderFaultMiddleware<NodeRequestContext>.response(response)
                    }
                }
                let asked = query
                let answer = try await executor.run { api.answer(asked, version: version) }
                return Self.etherscan(answer)
            }
            router.get(RouterPath(path), use: handler)
            router.post(RouterPath(path), use: handler)
        }
    }

    static func etherscan(_ answer: EtherscanAnswer) -> Response { json(answer.json.bytes, status: .ok) }
}
