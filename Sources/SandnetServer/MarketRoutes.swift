import Foundation
import Hummingbird
import JSONCoding
import MarketData
import NIOCore

/// The market simulator's HTTP routes: CoinGecko API v3 under `/coingecko/api/v3/` and Coinbase Exchange under
/// `/coinbase/products/{id}/…` (README, "Markets"). The clock is the chain's (``NodeParameters/chainTime``), so
/// `evm_increaseTime` and `evm_setTime` move the market. The answers are computed on the ``NodeExecutor``: reading
/// the clock takes the ledger's lock, and a year of candles is milliseconds of CPU.
extension NodeServer {
    func addMarketRoutes(to router: Router<NodeRequestContext>, market: MarketConfiguration) {
        let api = MarketAPI(market: Market(market))
        let executor = self.executor
        let node = self.node
        let coinGecko: @Sendable (Request, NodeRequestContext) async throws -> Response = { request, _ in
            let path = request.uri.path.split(separator: "/").dropFirst(3)
            let query = Self.query(request)
            let reply = try await executor.run {
                api.coinGecko(Array(path), query, now: Int64(node.parameters.chainTime))
            }
            return Self.marketResponse(reply)
        }
        router.get("/coingecko/api/v3/**", use: coinGecko)
        router.get("/coinbase/products/:product/candles") { request, context in
            let product = context.parameters.get("product") ?? ""
            let query = Self.query(request)
            let reply = try await executor.run { api.candles(product, query, now: Int64(node.parameters.chainTime)) }
            return Self.marketResponse(reply)
        }
        router.get("/coinbase/products/:product/ticker") { _, context in
            let product = context.parameters.get("product") ?? ""
            let reply = try await executor.run { api.ticker(product, now: Int64(node.parameters.chainTime)) }
            return Self.marketResponse(reply)
        }
    }

    /// The query parameters, the last value of each name winning.
    static func query(_ request: Request) -> [String: String] {
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        return query
    }

    static func marketResponse(_ reply: MarketReply) -> Response {
        json(reply.body.bytes, status: HTTPResponse.Status(code: reply.status))
    }
}
