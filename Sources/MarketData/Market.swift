/// The simulated market: one seeded path per asset, per currency rate and per volume factor, read at any instant.
/// A pure value (no clock, no I/O): every answer is a function of the configuration and the instants asked for, so
/// a chart, a candle and a quote of the same instant agree exactly.
public struct Market: Sendable {
    public let configuration: MarketConfiguration
    let prices: [String: PricePath]
    let volumes: [String: PricePath]
    let rates: [String: PricePath]

    public init(_ configuration: MarketConfiguration) {
        self.configuration = configuration
        var prices: [String: PricePath] = [:]
        var volumes: [String: PricePath] = [:]
        for asset in configuration.assets {
            let stream = Self.stream(asset.id)
            let shape: PricePath.Shape =
                asset.pegged
                ? .bridge
                : .diffusion(
                    volatility: asset.volatility, jumpsPerYear: asset.jumpsPerYear, jumpSize: asset.jumpSize,
                    regimes: true)
            prices[asset.id] = PricePath(
                seed: configuration.seed, stream: stream, logAnchor: DeterministicMath.log(asset.anchorPriceUSD),
                shape: shape, forcedRegime: configuration.regime)
            volumes[asset.id] = PricePath(
                seed: configuration.seed, stream: stream ^ 0x766F_6C75_6D65, logAnchor: 0, shape: .bridge)
        }
        var rates: [String: PricePath] = [:]
        for currency in configuration.currencies where currency.volatility > 0 || currency.anchorRate != 1 {
            rates[currency.code] = PricePath(
                seed: configuration.seed, stream: Self.stream("fiat:" + currency.code),
                logAnchor: DeterministicMath.log(currency.anchorRate),
                shape: .diffusion(volatility: currency.volatility, jumpsPerYear: 0, jumpSize: 0, regimes: false))
        }
        self.prices = prices
        self.volumes = volumes
        self.rates = rates
    }

    /// A stable stream number for a name (FNV-1a over its UTF-8), so adding an asset does not move the others.
    static func stream(_ name: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in name.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    public func asset(_ id: String) -> MarketAsset? { configuration.assets.first { $0.id == id } }

    public func currency(_ code: String) -> MarketCurrency? { configuration.currencies.first { $0.code == code } }

    /// The asset whose symbol is `symbol`, any case (Coinbase's `BTC` in `BTC-USD`).
    public func asset(symbol: String) -> MarketAsset? {
        let symbol = symbol.lowercased()
        return configuration.assets.first { $0.symbol == symbol }
    }

    /// Prices of `asset` in `currency` at `first`, `first + step`, … (`count` instants, Unix seconds); nil where a
    /// gap event leaves no data. Events applied (a stale feed repeats the price at its start).
    /// - Precondition: `asset` and `currency` are the market's; `step` ≥ 1.
    public func prices(asset: MarketAsset, currency: MarketCurrency, first: Int64, step: Int64, count: Int)
        -> [Double?]
    {
        let base = basePrices(asset: asset, currency: currency, first: first, step: step, count: count)
        let events = configuration.events.filter { $0.applies(to: asset.id) }
        if events.isEmpty { return base }
        let last = first + Int64(max(count - 1, 0)) * step
        var stale: [Int64: Double] = [:]
        for event in events where event.kind == .stale && event.start <= last && event.start + event.duration > first {
            let at = event.start
            stale[at] =
                factor(events, at) * basePrices(asset: asset, currency: currency, first: at, step: 1, count: 1)[0]!
        }
        var out: [Double?] = []
        out.reserveCapacity(count)
        for (k, value) in base.enumerated() {
            let t = first + Int64(k) * step
            if events.contains(where: { $0.kind == .gap && $0.covers(t) }) {
                out.append(nil)
            } else if let event = events.last(where: { $0.kind == .stale && $0.covers(t) }) {
                out.append(stale[event.start])
            } else {
                out.append(value.map { $0 * factor(events, t) })
            }
        }
        return out
    }

    /// The multiplier the crash, spike and outlier events put on the price at `t`.
    func factor(_ events: [MarketEvent], _ t: Int64) -> Double {
        var logFactor = 0.0
        for event in events {
            let size = DeterministicMath.log(1 + event.change)
            switch event.kind {
            case .crash where t >= event.start:
                logFactor += size * min(1, Double(t - event.start) / Double(event.duration))
            case .spike where event.covers(t):
                let phase = 2 * Double(t - event.start) / Double(event.duration) - 1
                logFactor += size * (1 - (phase < 0 ? -phase : phase))
            case .outlier where event.covers(t):
                logFactor += size
            default:
                break
            }
        }
        return logFactor == 0 ? 1 : DeterministicMath.exp(logFactor)
    }

    /// The path's prices, no events.
    func basePrices(asset: MarketAsset, currency: MarketCurrency, first: Int64, step: Int64, count: Int) -> [Double?] {
        guard let path = prices[asset.id] else { return Array(repeating: nil, count: count) }
        let logs = ticks(first: first, step: step, count: count) { path.values(first: $0, stride: $1, count: $2) }
        var fx: [Double]?
        if let rate = rates[currency.code] {
            fx = ticks(first: first, step: step, count: count) { rate.values(first: $0, stride: $1, count: $2) }
        }
        let anchor = asset.anchorPriceUSD
        return logs.indices.map { k -> Double? in
            let usd =
                asset.pegged ? anchor * (1 + 0.002 * Self.clamp(logs[k], 3)) : DeterministicMath.exp(logs[k])
            guard let fx else { return usd }
            return usd * DeterministicMath.exp(fx[k])
        }
    }

    /// Volume factors (0.125…1.875) at the instants, from the asset's volume path.
    public func volumeFactors(asset: MarketAsset, first: Int64, step: Int64, count: Int) -> [Double] {
        guard let path = volumes[asset.id] else { return Array(repeating: 1, count: count) }
        let d = ticks(first: first, step: step, count: count) { path.values(first: $0, stride: $1, count: $2) }
        return d.map { 1 + 0.35 * Self.clamp($0, 2.5) }
    }

    /// Runs `read` over the ticks of the instants: in one strided pass when `step` is a multiple of 15 s (every
    /// chart and candle step), else instant by instant.
    func ticks(first: Int64, step: Int64, count: Int, _ read: (Int64, Int64, Int) -> [Double]) -> [Double] {
        if step % 15 == 0 { return read(MarketClock.tick(at: first), step / 15 * 4, count) }
        return (0..<count).map { read(MarketClock.tick(at: first + Int64($0) * step), 1, 1)[0] }
    }

    static func clamp(_ x: Double, _ bound: Double) -> Double { min(max(x, -bound), bound) }

    /// The quote at `t`: the price and the instant it was last updated (a stale feed's start; in a gap, the last
    /// price before it). nil before the path has any price (a gap reaching back further than the history).
    public func quote(asset: MarketAsset, currency: MarketCurrency, at t: Int64) -> Quote? {
        var at = t
        for _ in 0...configuration.events.count {
            if let price = prices(asset: asset, currency: currency, first: at, step: 1, count: 1)[0] {
                let stale = configuration.events.last {
                    $0.kind == .stale && $0.applies(to: asset.id) && $0.covers(at)
                }
                return Quote(price: price, updatedAt: stale?.start ?? at)
            }
            guard
                let gap = configuration.events.first(where: {
                    $0.kind == .gap && $0.applies(to: asset.id) && $0.covers(at)
                })
            else { return nil }
            at = gap.start - 1
        }
        return nil
    }

    /// OHLC candles of `body` seconds from `start` (aligned by the caller), `count` of them, each aggregating the
    /// prices every `sample` seconds from its start to its end inclusive (so a candle's close is the next one's
    /// open and the chart point at that instant). A candle with no price (all in a gap) is left out.
    /// - Precondition: `body` is a multiple of `sample`.
    public func candles(
        asset: MarketAsset, currency: MarketCurrency, start: Int64, body: Int64, count: Int, sample: Int64
    ) -> [Candle] {
        guard count > 0 else { return [] }
        let per = Int(body / sample)
        let points = prices(asset: asset, currency: currency, first: start, step: sample, count: count * per + 1)
        let factors = volumeFactors(asset: asset, first: start, step: body, count: count)
        var candles: [Candle] = []
        candles.reserveCapacity(count)
        for k in 0..<count {
            var candle: Candle?
            for value in points[(k * per)...(k * per + per)] {
                guard let value else { continue }
                if candle == nil {
                    candle = Candle(
                        start: start + Int64(k) * body, end: start + Int64(k + 1) * body, open: value, high: value,
                        low: value, close: value, volume: 0)
                }
                candle!.high = max(candle!.high, value)
                candle!.low = min(candle!.low, value)
                candle!.close = value
            }
            guard var candle else { continue }
            candle.volume = asset.dailyVolume * factors[k] * Double(body) / 86_400
            candles.append(candle)
        }
        return candles
    }
}

/// A price and the Unix second it was last updated.
public struct Quote: Sendable, Equatable {
    public var price: Double
    public var updatedAt: Int64
}

/// One OHLC candle over [start, end] in Unix seconds; volume in units of the asset.
public struct Candle: Sendable, Equatable {
    public var start: Int64
    public var end: Int64
    public var open: Double
    public var high: Double
    public var low: Double
    public var close: Double
    public var volume: Double
}
