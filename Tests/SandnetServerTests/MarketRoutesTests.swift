import EthereumNode
import Foundation
import JSONCoding
import SandnetServer
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The market routes over HTTP on 127.0.0.1, with the node's clock fixed (and moved by evm_increaseTime).
@Suite(.serialized) struct MarketRoutesTests {
    static let now: UInt64 = 1_790_000_123

    func get(_ node: RunningNode, _ path: String) async throws -> (Int, JSON) {
        let url = URL(string: "http://127.0.0.1:\(node.port)\(path)")!
        let (data, response) = try await URLSession.shared.data(from: url)
        return ((response as! HTTPURLResponse).statusCode, try JSON.parse([UInt8](data)))
    }

    func start() async throws -> RunningNode {
        try await RunningNode.start(clock: { Self.now })
    }

    @Test func coinGeckoRoutes() async throws {
        let node = try await start()
        defer { node.stop() }
        let (status, ping) = try await get(node, "/coingecko/api/v3/ping")
        #expect(status == 200 && ping["gecko_says"]?.stringValue == "(V3) To the Moon!")
        let (_, price) = try await get(
            node,
            "/coingecko/api/v3/simple/price?ids=bitcoin,ethereum,nope&vs_currencies=usd,jpy&include_24hr_change=true&include_last_updated_at=true"
        )
        #expect(price["bitcoin"]?["usd"]?.numberText != nil)
        #expect(price["bitcoin"]?["usd_24h_change"]?.numberText != nil)
        #expect(price["ethereum"]?["last_updated_at"]?.numberText == String(Self.now))
        #expect(price["nope"] == nil)
        let (_, day) = try await get(node, "/coingecko/api/v3/coins/bitcoin/market_chart?vs_currency=usd&days=1")
        let points = day["prices"]?.arrayValue ?? []
        #expect(points.count == 289)
        #expect(points.last?.arrayValue?.first?.numberText == String(Self.now * 1_000))
        #expect(points.last?.arrayValue?[1].numberText == price["bitcoin"]?["usd"]?.numberText)
        let (_, year) = try await get(node, "/coingecko/api/v3/coins/bitcoin/market_chart?vs_currency=usd&days=365")
        #expect((year["prices"]?.arrayValue?.count ?? 0) == 366)
        let (_, ohlc) = try await get(node, "/coingecko/api/v3/coins/bitcoin/ohlc?vs_currency=usd&days=1")
        #expect((ohlc.arrayValue?.count ?? 0) >= 47)
        let (_, markets) = try await get(
            node, "/coingecko/api/v3/coins/markets?vs_currency=eur&sparkline=true&price_change_percentage=1h,7d")
        #expect(markets.arrayValue?.count == 6)
        #expect(markets.arrayValue?.first?["sparkline_in_7d"]?["price"]?.arrayValue?.count == 168)
        #expect(markets.arrayValue?.first?["price_change_percentage_7d_in_currency"]?.numberText != nil)
    }

    @Test(
        arguments: [
            ("/coingecko/api/v3/coins/nope/market_chart?vs_currency=usd&days=1", 404, "coin not found"),
            ("/coingecko/api/v3/coins/bitcoin/market_chart?vs_currency=xyz&days=1", 400, "invalid vs_currency"),
            ("/coingecko/api/v3/coins/bitcoin/market_chart?vs_currency=usd&days=0", 400, nil),
            ("/coingecko/api/v3/coins/bitcoin/market_chart?vs_currency=usd&days=-5", 400, nil),
            ("/coingecko/api/v3/coins/bitcoin/ohlc?vs_currency=usd&days=abc", 400, nil),
            ("/coingecko/api/v3/coins/markets?vs_currency=usd&per_page=100000000", 400, nil),
        ] as [(String, Int, String?)])
    func badInput(path: String, status: Int, text: String?) async throws {
        let node = try await start()
        defer { node.stop() }
        let (code, body) = try await get(node, path)
        #expect(code == status)
        #expect(body["error"]?.stringValue != nil)
        if let text { #expect(body["error"]?.stringValue == text) }
    }

    /// `days` of 10^9 or max is the whole history (daily points), never an unbounded answer; a reversed range is empty.
    @Test func boundedAnswers() async throws {
        let node = try await start()
        defer { node.stop() }
        for days in ["1000000000", "max", "99999999999999999999999"] {
            let (status, body) = try await get(
                node, "/coingecko/api/v3/coins/ethereum/market_chart?vs_currency=usd&days=\(days)")
            #expect(status == 200)
            #expect(body["prices"]?.arrayValue?.count == 366)
        }
        let (status, reversed) = try await get(
            node,
            "/coingecko/api/v3/coins/ethereum/market_chart/range?vs_currency=usd&from=\(Self.now)&to=\(Self.now - 86_400)"
        )
        #expect(status == 200 && reversed["prices"]?.arrayValue?.isEmpty == true)
    }

    @Test func coinbaseCandlesAndTicker() async throws {
        let node = try await start()
        defer { node.stop() }
        let (status, candles) = try await get(node, "/coinbase/products/BTC-USD/candles?granularity=3600")
        #expect(status == 200)
        let rows = candles.arrayValue ?? []
        #expect(rows.count == 300)
        #expect(rows.first?.arrayValue?.count == 6)
        // Newest first, one hour apart, the newest complete before the clock.
        let times = rows.compactMap { $0.arrayValue?.first?.numberText.flatMap { Int64($0) } }
        #expect(times.first == Int64(Self.now) / 3_600 * 3_600 - 3_600)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 - $1 == 3_600 })
        let (bad, error) = try await get(node, "/coinbase/products/BTC-USD/candles?granularity=120")
        #expect(bad == 400 && error["message"]?.stringValue == "Unsupported granularity")
        let (tooMany, tooManyBody) = try await get(
            node, "/coinbase/products/BTC-USD/candles?granularity=60&start=1789000000&end=1790000000")
        #expect(tooMany == 400)
        #expect(tooManyBody["message"]?.stringValue?.hasPrefix("granularity too small") == true)
        let (missing, missingBody) = try await get(node, "/coinbase/products/DOGE-USD/ticker")
        #expect(missing == 404 && missingBody["message"]?.stringValue == "NotFound")
        let (_, ticker) = try await get(node, "/coinbase/products/ETH-EUR/ticker")
        #expect(ticker["price"]?.stringValue != nil)
    }

    /// The market follows the chain's clock: evm_increaseTime moves the latest chart point.
    @Test func timeTravelMovesTheMarket() async throws {
        let node = try await start()
        defer { node.stop() }
        let path = "/coingecko/api/v3/simple/price?ids=bitcoin&vs_currencies=usd&include_last_updated_at=true"
        let (_, before) = try await get(node, path)
        _ = try await node.rpc("evm_increaseTime", [.int(86_400)])
        let (_, after) = try await get(node, path)
        #expect(before["bitcoin"]?["last_updated_at"]?.numberText == String(Self.now))
        #expect(after["bitcoin"]?["last_updated_at"]?.numberText == String(Self.now + 86_400))
        #expect(before["bitcoin"]?["usd"] != after["bitcoin"]?["usd"])
    }
}
