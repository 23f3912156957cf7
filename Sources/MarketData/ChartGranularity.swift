/// CoinGecko's granularity rules (https://docs.coingecko.com/reference/coins-id-market-chart,
/// …/coins-id-market-chart-range, …/coins-id-ohlc) and Coinbase Exchange's candle sizes, as pure functions.
public enum ChartGranularity {
    /// `market_chart` by `days`: 1 day → 5-minutely, 2–90 days → hourly, above 90 days (and `max`) → daily at
    /// 00:00 UTC.
    public static func chartStep(days: Int64) -> Int64 {
        days <= 1 ? 300 : days <= 90 ? 3_600 : 86_400
    }

    /// `market_chart/range` by span: up to 1 day ending within the last day → 5-minutely, other spans up to
    /// 90 days → hourly, longer → daily.
    public static func rangeStep(from: Int64, to: Int64, now: Int64) -> Int64 {
        let span = to - from
        if span <= 86_400 && to >= now - 86_400 { return 300 }
        return span <= 90 * 86_400 ? 3_600 : 86_400
    }

    /// `ohlc` candle body by `days` (1–2: 30 minutes, 3–30: 4 hours, 31 and more: 4 days) and the step the candle
    /// samples the path at (1 minute, 5 minutes, 1 hour): every chart point of the same range falls on a sample.
    public static func ohlcBody(days: Int64) -> (body: Int64, sample: Int64) {
        days <= 2 ? (1_800, 60) : days <= 30 ? (14_400, 300) : (345_600, 3_600)
    }

    /// Coinbase Exchange's granularities (seconds) and the step each candle samples the path at.
    public static let coinbaseSamples: [Int64: Int64] = [
        60: 15, 300: 60, 900: 60, 3_600: 300, 21_600: 900, 86_400: 3_600,
    ]

    /// Coinbase Exchange returns at most this many candles per request.
    public static let coinbaseMaxCandles: Int64 = 300
}

/// Chart points: Unix milliseconds and values, as CoinGecko's `[[ms, value], …]`.
public struct ChartSeries: Sendable, Equatable {
    public var prices: [(time: Int64, value: Double)] = []
    public var marketCaps: [(time: Int64, value: Double)] = []
    public var totalVolumes: [(time: Int64, value: Double)] = []

    public static func == (a: ChartSeries, b: ChartSeries) -> Bool {
        a.prices.elementsEqual(b.prices, by: ==) && a.marketCaps.elementsEqual(b.marketCaps, by: ==)
            && a.totalVolumes.elementsEqual(b.totalVolumes, by: ==)
    }
}

/// What `/coins/markets` and `/coins/{id}` show for one asset in one currency at one instant.
public struct CoinStats: Sendable {
    public var quote: Quote
    public var marketCap: Double
    public var volume24h: Double
    public var high24h: Double
    public var low24h: Double
    public var change24h: Double?
    /// Percentage changes over `1h`, `24h`, `7d`, `14d`, `30d`, `200d`, `1y` (nil where the history is shorter).
    public var changePercent: [String: Double]
    public var ath: Double
    public var athTime: Int64
    public var atl: Double
    public var atlTime: Int64
    /// Hourly prices of the last 7 days.
    public var sparkline7d: [Double]

    public static let windows: [(name: String, seconds: Int64)] = [
        ("1h", 3_600), ("24h", 86_400), ("7d", 604_800), ("14d", 1_209_600), ("30d", 2_592_000),
        ("200d", 17_280_000), ("1y", 31_536_000),
    ]
}

extension Market {
    /// Chart points at the multiples of `step` in [from, to], then `to` itself when `includeEnd` and it is not one
    /// (CoinGecko's last point is the latest price). Points in a gap are left out.
    /// - Precondition: `step` is a multiple of 15 and the caller bounds (to − from) / step.
    public func chart(
        asset: MarketAsset, currency: MarketCurrency, from: Int64, to: Int64, step: Int64, includeEnd: Bool
    ) -> ChartSeries {
        var series = ChartSeries()
        guard from <= to else { return series }
        let first = MarketClock.floorDivide(from + step - 1, step) * step
        var times: [Int64] = []
        var values: [Double?] = []
        var factors: [Double] = []
        if first <= to {
            let count = Int((to - first) / step) + 1
            values = prices(asset: asset, currency: currency, first: first, step: step, count: count)
            factors = volumeFactors(asset: asset, first: first, step: step, count: count)
            times = (0..<count).map { first + Int64($0) * step }
        }
        if includeEnd && times.last != to {
            times.append(to)
            values.append(prices(asset: asset, currency: currency, first: to, step: 1, count: 1)[0])
            factors.append(volumeFactors(asset: asset, first: to, step: 1, count: 1)[0])
        }
        for (k, t) in times.enumerated() {
            guard let price = values[k] else { continue }
            series.prices.append((t * 1_000, price))
            series.marketCaps.append((t * 1_000, price * asset.circulatingSupply))
            series.totalVolumes.append((t * 1_000, price * asset.dailyVolume * factors[k]))
        }
        return series
    }

    /// The figures of `/coins/markets` at `now`, with the history starting at `earliest`; nil when there is no
    /// price at all.
    public func stats(asset: MarketAsset, currency: MarketCurrency, now: Int64, earliest: Int64) -> CoinStats? {
        guard let current = quote(asset: asset, currency: currency, at: now) else { return nil }
        let day = chart(asset: asset, currency: currency, from: now - 86_400, to: now, step: 300, includeEnd: true)
        let dayPrices = day.prices.map(\.value) + [current.price]
        var changes: [String: Double] = [:]
        var change24h: Double?
        for window in CoinStats.windows where now - window.seconds >= earliest {
            guard let then = quote(asset: asset, currency: currency, at: now - window.seconds)?.price else {
                continue
            }
            changes[window.name] = (current.price - then) / then * 100
            if window.name == "24h" { change24h = current.price - then }
        }
        let history = chart(asset: asset, currency: currency, from: earliest, to: now, step: 86_400, includeEnd: true)
        var ath = (price: current.price, time: current.updatedAt)
        var atl = ath
        for point in history.prices {
            if point.value > ath.price { ath = (point.value, point.time / 1_000) }
            if point.value < atl.price { atl = (point.value, point.time / 1_000) }
        }
        let week = chart(
            asset: asset, currency: currency, from: now - 604_800, to: now, step: 3_600, includeEnd: false)
        let volume = volumeFactors(asset: asset, first: now, step: 1, count: 1)[0]
        return CoinStats(
            quote: current, marketCap: current.price * asset.circulatingSupply,
            volume24h: current.price * asset.dailyVolume * volume, high24h: dayPrices.max() ?? current.price,
            low24h: dayPrices.min() ?? current.price, change24h: change24h, changePercent: changes, ath: ath.price,
            athTime: ath.time, atl: atl.price, atlTime: atl.time, sparkline7d: week.prices.map(\.value))
    }
}
