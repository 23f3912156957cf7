import Foundation
import MarketData
import Testing

@Suite struct MarketPathTests {
    let market = Market(MarketConfiguration())

    /// Committed values (IEEE-754 bit patterns) of the default seed: a change of a draw, of the math or of the order
    /// of operations shows here, and Linux and macOS must both meet them.
    @Test(
        arguments: [
            ("bitcoin", "usd", 1_717_200_000, 0x40f5_0ef7_aaae_07ca as UInt64),
            ("bitcoin", "usd", 1_735_689_600, 0x40f6_f300_0000_0004),
            ("bitcoin", "usd", 1_795_867_200, 0x40d4_db51_b21c_2a58),
            ("bitcoin", "jpy", 1_717_200_000, 0x4167_f01c_0a9d_cfd8),
            ("bitcoin", "jpy", 1_795_867_200, 0x4146_d153_c700_ac74),
            ("ethereum", "usd", 1_717_200_000, 0x40a1_f883_5852_31eb),
            ("ethereum", "usd", 1_795_867_200, 0x40ad_c5d1_b230_db4e),
            ("ethereum", "jpy", 1_795_867_200, 0x4120_4937_108c_847e),
            ("usd-coin", "usd", 1_717_200_000, 0x3fef_f941_29fb_34d8),
            ("usd-coin", "usd", 1_735_689_600, 0x3ff0_0000_0000_0000),
            ("usd-coin", "usd", 1_795_867_200, 0x3ff0_1098_798b_9bf6),
            ("usd-coin", "jpy", 1_795_867_200, 0x4061_9344_1617_7c26),
        ] as [(String, String, Int64, UInt64)])
    func committedValues(asset: String, currency: String, time: Int64, bits: UInt64) {
        let value = market.prices(
            asset: market.asset(asset)!, currency: market.currency(currency)!, first: time, step: 1, count: 1)[0]
        #expect(value?.bitPattern == bits, "\(asset)/\(currency) at \(time): \(value ?? .nan)")
    }

    /// An instant has one price whichever series asks for it: a single quote, 5-minute, hourly and daily series
    /// (before and after the anchor, across block boundaries).
    @Test(arguments: [1_700_006_400, 1_735_689_600, 1_764_288_000] as [Int64])
    func onePricePerInstant(day: Int64) {
        let asset = market.asset("ethereum")!
        let eur = market.currency("eur")!
        let fine = market.prices(asset: asset, currency: eur, first: day - 86_400, step: 300, count: 600)
        let hourly = market.prices(asset: asset, currency: eur, first: day - 86_400, step: 3_600, count: 48)
        let daily = market.prices(asset: asset, currency: eur, first: day - 86_400 * 40, step: 86_400, count: 42)
        for k in 0..<48 { #expect(hourly[k]!.bitPattern == fine[12 * k]!.bitPattern) }
        #expect(daily[40]!.bitPattern == fine[288]!.bitPattern)
        let single = market.prices(asset: asset, currency: eur, first: day, step: 1, count: 1)[0]!
        #expect(single.bitPattern == fine[288]!.bitPattern)
        #expect(market.quote(asset: asset, currency: eur, at: day)?.price == single)
    }

    @Test func seedsDiffer() {
        var other = MarketConfiguration()
        other.seed = 1
        let b = Market(other)
        let t: Int64 = 1_767_225_600
        let x = market.prices(
            asset: market.asset("bitcoin")!, currency: market.currency("usd")!, first: t, step: 1, count: 1)
        let y = b.prices(asset: b.asset("bitcoin")!, currency: b.currency("usd")!, first: t, step: 1, count: 1)
        #expect(x[0] != y[0])
    }

    /// Ten years of daily EUR rates move with about the configured 8 % a year.
    @Test func realizedVolatility() {
        let v = market.prices(
            asset: market.asset("usd-coin")!, currency: market.currency("eur")!, first: 1_600_041_600, step: 86_400,
            count: 3_650
        ).map { $0! }
        let r = (1..<v.count).map { Foundation.log(v[$0] / v[$0 - 1]) }
        let mean = r.reduce(0, +) / Double(r.count)
        let sd = (r.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(r.count)).squareRoot()
        #expect(abs(sd * 365.0.squareRoot() - 0.08) < 0.01)
        #expect(v.allSatisfy { $0 > 0.5 && $0 < 2 })
    }

    @Test func mathAgreesWithLibm() {
        var x = -700.0
        while x < 700 {
            let e = DeterministicMath.exp(x)
            #expect(abs(e / Foundation.exp(x) - 1) < 4e-16, "exp(\(x))")
            let y = abs(x) + 1e-300
            #expect(abs(DeterministicMath.log(y) - Foundation.log(y)) <= 4e-16 * max(1, abs(Foundation.log(y))))
            x += 0.731
        }
        #expect(DeterministicMath.exp(0) == 1)
        #expect(DeterministicMath.log(1) == 0)
    }
}

@Suite struct MarketAggregationTests {
    let market = Market(MarketConfiguration())

    @Test func coinGeckoGranularity() {
        #expect(ChartGranularity.chartStep(days: 1) == 300)
        #expect(ChartGranularity.chartStep(days: 2) == 3_600)
        #expect(ChartGranularity.chartStep(days: 90) == 3_600)
        #expect(ChartGranularity.chartStep(days: 91) == 86_400)
        #expect(ChartGranularity.ohlcBody(days: 1).body == 1_800)
        #expect(ChartGranularity.ohlcBody(days: 2).body == 1_800)
        #expect(ChartGranularity.ohlcBody(days: 3).body == 14_400)
        #expect(ChartGranularity.ohlcBody(days: 30).body == 14_400)
        #expect(ChartGranularity.ohlcBody(days: 31).body == 345_600)
        let now: Int64 = 1_790_000_000
        #expect(ChartGranularity.rangeStep(from: now - 86_400, to: now, now: now) == 300)
        #expect(ChartGranularity.rangeStep(from: now - 10 * 86_400, to: now - 9 * 86_400, now: now) == 3_600)
        #expect(ChartGranularity.rangeStep(from: now - 91 * 86_400, to: now, now: now) == 86_400)
    }

    @Test func chartPointsForOneDay() {
        let now: Int64 = 1_790_000_123
        let series = market.chart(
            asset: market.asset("bitcoin")!, currency: market.currency("usd")!, from: now - 86_400, to: now,
            step: 300, includeEnd: true)
        #expect(series.prices.count == 289)
        #expect(series.prices.last?.time == now * 1_000)
        #expect(series.prices.dropLast().allSatisfy { $0.time % 300_000 == 0 })
        #expect(series.marketCaps.count == 289 && series.totalVolumes.count == 289)
    }

    /// Candles aggregate the same path as the chart: each close is the chart point at its end, each chart point inside
    /// a candle lies within its low and high.
    @Test(arguments: [(1_800, 60, 300), (14_400, 300, 3_600), (345_600, 3_600, 86_400)] as [(Int64, Int64, Int64)])
    func candlesAgreeWithChartPoints(body: Int64, sample: Int64, chartStep: Int64) {
        let asset = market.asset("chainlink")!
        let usd = market.currency("usd")!
        let start: Int64 = 1_789_920_000 / body * body
        let candles = market.candles(asset: asset, currency: usd, start: start, body: body, count: 12, sample: sample)
        #expect(candles.count == 12)
        let points = market.chart(
            asset: asset, currency: usd, from: start, to: start + 12 * body, step: chartStep, includeEnd: false)
        for candle in candles {
            let inside = points.prices.filter { $0.time >= candle.start * 1_000 && $0.time <= candle.end * 1_000 }
            #expect(!inside.isEmpty)
            for point in inside { #expect(point.value >= candle.low && point.value <= candle.high) }
            #expect(inside.first { $0.time == candle.end * 1_000 }?.value == candle.close)
            #expect(inside.first { $0.time == candle.start * 1_000 }?.value == candle.open)
        }
        for k in 1..<candles.count { #expect(candles[k].open == candles[k - 1].close) }
    }

    @Test func scriptedEvents() throws {
        let t: Int64 = 1_790_000_100
        var configuration = MarketConfiguration()
        configuration.events = [
            try MarketEvent(parsing: "crash,at=\(t),asset=bitcoin", now: 0),
            try MarketEvent(parsing: "gap,at=\(t + 10_000),duration=600", now: 0),
            try MarketEvent(parsing: "stale,at=+20000,asset=ethereum", now: t),
            try MarketEvent(parsing: "outlier,at=\(t + 30_000),asset=chainlink", now: 0),
        ]
        let scripted = Market(configuration)
        let usd = market.currency("usd")!
        func both(_ id: String, _ at: Int64) -> (Double?, Double?) {
            (
                market.prices(asset: market.asset(id)!, currency: usd, first: at, step: 1, count: 1)[0],
                scripted.prices(asset: scripted.asset(id)!, currency: usd, first: at, step: 1, count: 1)[0]
            )
        }
        let before = both("bitcoin", t - 1)
        #expect(before.0 == before.1)
        let after = both("bitcoin", t + 3_600)
        #expect(abs(after.1! / after.0! - 0.7) < 1e-12)
        let later = both("bitcoin", t + 90_000)
        #expect(abs(later.1! / later.0! - 0.7) < 1e-12)
        #expect(both("ethereum", t + 10_100).1 == nil)
        let bitcoin = scripted.asset("bitcoin")!
        let quote = scripted.quote(asset: bitcoin, currency: usd, at: t + 10_100)
        #expect(quote?.updatedAt == t + 9_999)
        let stale = scripted.quote(asset: scripted.asset("ethereum")!, currency: usd, at: t + 21_000)
        #expect(stale?.updatedAt == t + 20_000)
        #expect(stale?.price == both("ethereum", t + 20_000).0)
        let outlier = both("chainlink", t + 30_100)
        #expect(abs(outlier.1! / outlier.0! - 10) < 1e-12)
    }

    @Test func eventInputErrors() {
        #expect(throws: MarketInputError.self) { try MarketEvent(parsing: "melt,at=1", now: 0) }
        #expect(throws: MarketInputError.self) { try MarketEvent(parsing: "crash", now: 0) }
        #expect(throws: MarketInputError.self) { try MarketEvent(parsing: "crash,at=1,change=-1", now: 0) }
        #expect(throws: MarketInputError.self) { try MarketEvent(parsing: "gap,at=1,duration=0", now: 0) }
        #expect(throws: MarketInputError.self) { try MarketEvent(parsing: "gap,at=99999999999999999999", now: 0) }
    }
}
