import Foundation
import JSONCoding
import MarketData

/// One answer of the market routes: status, JSON body and extra headers.
struct MarketReply: Error, Sendable {
    var status: Int
    var body: JSON

    static func ok(_ body: JSON) -> MarketReply { MarketReply(status: 200, body: body) }

    /// CoinGecko's flat error shape, `{"error": "…"}`.
    static func coinGeckoError(_ text: String, status: Int = 400) -> MarketReply {
        MarketReply(status: status, body: .object([("error", .string(text))]))
    }

    /// Coinbase Exchange's error shape, `{"message": "…"}`.
    static func coinbaseError(_ text: String, status: Int = 400) -> MarketReply {
        MarketReply(status: status, body: .object([("message", .string(text))]))
    }
}

/// The CoinGecko API v3 and Coinbase Exchange answers over a ``Market`` at one instant of the chain's clock. Pure:
/// the route layer passes the path segments, the query and the clock; nothing here does I/O.
///
/// Every answer is bounded: charts reach back at most ``MarketConfiguration/historyDays`` (≤ 3,650 daily points),
/// `per_page` at most 250, Coinbase at most 300 candles.
struct MarketAPI: Sendable {
    let market: Market

    /// Unix seconds where charts begin (`days=max`) when the clock reads `now`.
    func earliest(_ now: Int64) -> Int64 { max(0, now - Int64(market.configuration.historyDays) * 86_400) }

    // MARK: CoinGecko

    func coinGecko(_ path: [Substring], _ query: [String: String], now: Int64) -> MarketReply {
        switch path.count {
        case 1 where path[0] == "ping":
            return .ok(.object([("gecko_says", .string("(V3) To the Moon!"))]))
        case 2 where path[0] == "simple" && path[1] == "price":
            return simplePrice(query, now: now)
        case 2 where path[0] == "simple" && path[1] == "supported_vs_currencies":
            return .ok(.array(market.configuration.currencies.map { .string($0.code) }))
        case 2 where path[0] == "coins" && path[1] == "list":
            return coinsList(query)
        case 2 where path[0] == "coins" && path[1] == "markets":
            return coinsMarkets(query, now: now)
        case 2 where path[0] == "coins":
            return coin(String(path[1]), query, now: now)
        case 3 where path[0] == "coins" && path[2] == "market_chart":
            return marketChart(String(path[1]), query, now: now)
        case 4 where path[0] == "coins" && path[2] == "market_chart" && path[3] == "range":
            return marketChartRange(String(path[1]), query, now: now)
        case 3 where path[0] == "coins" && path[2] == "ohlc":
            return ohlc(String(path[1]), query, now: now)
        default:
            return .coinGeckoError(
                "Incorrect path. Please check https://www.coingecko.com/api/documentation", status: 404)
        }
    }

    static func flag(_ query: [String: String], _ name: String) -> Bool { query[name]?.lowercased() == "true" }

    static func list(_ text: String?) -> [String] {
        (text ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// `precision`: `full` or 0…18 decimals for prices; absent: full.
    static func precision(_ query: [String: String]) -> Result<Int?, MarketReply> {
        guard let text = query["precision"], text != "full" else { return .success(nil) }
        guard let digits = Int(text), (0...18).contains(digits) else {
            return .failure(.coinGeckoError("invalid precision: full or 0 to 18"))
        }
        return .success(digits)
    }

    static func number(_ value: Double, _ digits: Int? = nil) -> JSON {
        guard value.isFinite else { return .null }
        if let digits { return .number(String(format: "%.\(digits)f", value)) }
        return .number("\(value)")
    }

    static func optionalNumber(_ value: Double?) -> JSON { value.map { number($0) } ?? .null }

    /// ISO 8601 with milliseconds, as CoinGecko's `last_updated`.
    static func iso(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    func asset(_ id: String) -> MarketAsset? { market.asset(id.lowercased()) }

    /// `vs_currency`: the currency, or CoinGecko's error.
    func currency(_ query: [String: String]) -> Result<MarketCurrency, MarketReply> {
        guard let code = query["vs_currency"], !code.isEmpty else {
            return .failure(.coinGeckoError("Missing parameter vs_currency"))
        }
        guard let currency = market.currency(code.lowercased()) else {
            return .failure(.coinGeckoError("invalid vs_currency"))
        }
        return .success(currency)
    }

    /// `days`: a whole number from 1, or `max`; more than the history means the history (nil: `max`).
    static func days(_ query: [String: String]) -> Result<Int64?, MarketReply> {
        guard let text = query["days"], !text.isEmpty else {
            return .failure(.coinGeckoError("Missing parameter days"))
        }
        if text.lowercased() == "max" { return .success(nil) }
        if let days = Int64(text), days >= 1 { return .success(days) }
        if text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), text.contains(where: { $0 != "0" }) {
            return .success(nil)  // a whole number past Int64: the whole history, as any days beyond it
        }
        return .failure(.coinGeckoError("invalid days: a whole number of at least 1, or max"))
    }

    func simplePrice(_ query: [String: String], now: Int64) -> MarketReply {
        let ids = Self.list(query["ids"])
        guard !ids.isEmpty else { return .coinGeckoError("Missing parameter ids") }
        let codes = Self.list(query["vs_currencies"])
        guard !codes.isEmpty else { return .coinGeckoError("Missing parameter vs_currencies") }
        let digits: Int?
        switch Self.precision(query) {
        case .success(let value): digits = value
        case .failure(let reply): return reply
        }
        var members: [(String, JSON)] = []
        var seen = Set<String>()
        for id in ids where !seen.contains(id) {
            seen.insert(id)
            guard let asset = market.asset(id) else { continue }
            var fields: [(String, JSON)] = []
            var updated: Int64?
            for code in codes {
                guard let currency = market.currency(code),
                    let quote = market.quote(asset: asset, currency: currency, at: now)
                else { continue }
                updated = max(updated ?? quote.updatedAt, quote.updatedAt)
                fields.append((code, Self.number(quote.price, digits)))
                if Self.flag(query, "include_market_cap") {
                    fields.append((code + "_market_cap", Self.number(quote.price * asset.circulatingSupply)))
                }
                if Self.flag(query, "include_24hr_vol") {
                    let factor = market.volumeFactors(asset: asset, first: now, step: 1, count: 1)[0]
                    fields.append((code + "_24h_vol", Self.number(quote.price * asset.dailyVolume * factor)))
                }
                if Self.flag(query, "include_24hr_change") {
                    let then = market.quote(asset: asset, currency: currency, at: now - 86_400)?.price
                    fields.append(
                        (code + "_24h_change", Self.optionalNumber(then.map { (quote.price - $0) / $0 * 100 })))
                }
            }
            if Self.flag(query, "include_last_updated_at"), let updated {
                fields.append(("last_updated_at", .int(updated)))
            }
            members.append((asset.id, .object(fields)))
        }
        return .ok(.object(members))
    }

    func coinsList(_ query: [String: String]) -> MarketReply {
        let platforms = Self.flag(query, "include_platform")
        return .ok(
            .array(
                market.configuration.assets.map { asset in
                    var fields: [(String, JSON)] = [
                        ("id", .string(asset.id)), ("symbol", .string(asset.symbol)), ("name", .string(asset.name)),
                    ]
                    if platforms { fields.append(("platforms", .object([]))) }
                    return .object(fields)
                }))
    }

    /// Market-cap ranks (1 = largest) in US dollars at `now`.
    func ranks(now: Int64) -> [String: Int] {
        guard let usd = market.currency("usd") ?? market.configuration.currencies.first else { return [:] }
        let caps = market.configuration.assets.map { asset in
            (asset.id, (market.quote(asset: asset, currency: usd, at: now)?.price ?? 0) * asset.circulatingSupply)
        }
        var ranks: [String: Int] = [:]
        for (index, entry) in caps.sorted(by: { $0.1 > $1.1 }).enumerated() { ranks[entry.0] = index + 1 }
        return ranks
    }

    static let maxPerPage = 250

    func coinsMarkets(_ query: [String: String], now: Int64) -> MarketReply {
        let currency: MarketCurrency
        switch self.currency(query) {
        case .success(let value): currency = value
        case .failure(let reply): return reply
        }
        var perPage = 100
        if let text = query["per_page"] {
            guard let value = Int(text), (1...Self.maxPerPage).contains(value) else {
                return .coinGeckoError("invalid per_page: 1 to \(Self.maxPerPage)")
            }
            perPage = value
        }
        var page = 1
        if let text = query["page"] {
            guard let value = Int(text), value >= 1 else { return .coinGeckoError("invalid page: 1 or more") }
            page = value
        }
        let ids = Set(Self.list(query["ids"]))
        let windows = Self.list(query["price_change_percentage"])
        let known = Set(CoinStats.windows.map(\.name))
        if let bad = windows.first(where: { !known.contains($0) }) {
            return .coinGeckoError("invalid price_change_percentage '\(bad)': 1h, 24h, 7d, 14d, 30d, 200d, 1y")
        }
        let ranks = ranks(now: now)
        let earliest = earliest(now)
        var rows: [(asset: MarketAsset, stats: CoinStats)] = []
        for asset in market.configuration.assets where ids.isEmpty || ids.contains(asset.id) {
            guard let stats = market.stats(asset: asset, currency: currency, now: now, earliest: earliest) else {
                continue
            }
            rows.append((asset, stats))
        }
        switch query["order"] ?? "market_cap_desc" {
        case "market_cap_desc": rows.sort { ranks[$0.asset.id] ?? 0 < ranks[$1.asset.id] ?? 0 }
        case "market_cap_asc": rows.sort { ranks[$0.asset.id] ?? 0 > ranks[$1.asset.id] ?? 0 }
        case "volume_desc": rows.sort { $0.stats.volume24h > $1.stats.volume24h }
        case "volume_asc": rows.sort { $0.stats.volume24h < $1.stats.volume24h }
        case "id_asc": rows.sort { $0.asset.id < $1.asset.id }
        case "id_desc": rows.sort { $0.asset.id > $1.asset.id }
        default:
            return .coinGeckoError(
                "invalid order: market_cap_desc, market_cap_asc, volume_desc, volume_asc, id_asc or id_desc")
        }
        let start = (page - 1).multipliedReportingOverflow(by: perPage)
        guard !start.overflow, start.partialValue < rows.count else { return .ok(.array([])) }
        let slice = rows[start.partialValue..<min(rows.count, start.partialValue + perPage)]
        let sparkline = Self.flag(query, "sparkline")
        return .ok(
            .array(
                slice.map { row in
                    marketRow(row.asset, row.stats, rank: ranks[row.asset.id], sparkline: sparkline, windows: windows)
                }))
    }

    func marketRow(_ asset: MarketAsset, _ s: CoinStats, rank: Int?, sparkline: Bool, windows: [String]) -> JSON {
        let price = s.quote.price
        let capChange = s.change24h.map { $0 * asset.circulatingSupply }
        var fields: [(String, JSON)] = [
            ("id", .string(asset.id)), ("symbol", .string(asset.symbol)), ("name", .string(asset.name)),
            ("image", .string("https://sandnet.invalid/coins/\(asset.id).png")),
            ("current_price", Self.number(price)), ("market_cap", Self.number(s.marketCap)),
            ("market_cap_rank", rank.map { .int($0) } ?? .null),
            ("fully_diluted_valuation", Self.optionalNumber((asset.maxSupply ?? asset.totalSupply).map { $0 * price })),
            ("total_volume", Self.number(s.volume24h)), ("high_24h", Self.number(s.high24h)),
            ("low_24h", Self.number(s.low24h)), ("price_change_24h", Self.optionalNumber(s.change24h)),
            ("price_change_percentage_24h", Self.optionalNumber(s.changePercent["24h"])),
            ("market_cap_change_24h", Self.optionalNumber(capChange)),
            ("market_cap_change_percentage_24h", Self.optionalNumber(s.changePercent["24h"])),
            ("circulating_supply", Self.number(asset.circulatingSupply)),
            ("total_supply", Self.optionalNumber(asset.totalSupply)),
            ("max_supply", Self.optionalNumber(asset.maxSupply)),
            ("ath", Self.number(s.ath)), ("ath_change_percentage", Self.number((price - s.ath) / s.ath * 100)),
            ("ath_date", .string(Self.iso(s.athTime))), ("atl", Self.number(s.atl)),
            ("atl_change_percentage", Self.number((price - s.atl) / s.atl * 100)),
            ("atl_date", .string(Self.iso(s.atlTime))), ("roi", .null),
            ("last_updated", .string(Self.iso(s.quote.updatedAt))),
        ]
        if sparkline {
            fields.append(("sparkline_in_7d", .object([("price", .array(s.sparkline7d.map { Self.number($0) }))])))
        }
        for window in windows {
            fields.append(
                ("price_change_percentage_\(window)_in_currency", Self.optionalNumber(s.changePercent[window])))
        }
        return .object(fields)
    }

    func coin(_ id: String, _ query: [String: String], now: Int64) -> MarketReply {
        guard let asset = asset(id) else { return .coinGeckoError("coin not found", status: 404) }
        let ranks = ranks(now: now)
        let earliest = earliest(now)
        var fields: [(String, JSON)] = [
            ("id", .string(asset.id)), ("symbol", .string(asset.symbol)), ("name", .string(asset.name)),
            ("web_slug", .string(asset.id)), ("asset_platform_id", .null), ("platforms", .object([])),
            ("categories", .array([])), ("description", .object([("en", .string(""))])),
            (
                "image",
                .object(
                    ["thumb", "small", "large"].map { ($0, .string("https://sandnet.invalid/coins/\(asset.id).png")) })
            ),
            ("market_cap_rank", ranks[asset.id].map { .int($0) } ?? .null),
        ]
        var updated = now
        if query["market_data"]?.lowercased() != "false" {
            var perCurrency: [(MarketCurrency, CoinStats)] = []
            for currency in market.configuration.currencies {
                if let stats = market.stats(asset: asset, currency: currency, now: now, earliest: earliest) {
                    perCurrency.append((currency, stats))
                }
            }
            func byCurrency(_ value: (CoinStats) -> JSON) -> JSON {
                .object(perCurrency.map { ($0.0.code, value($0.1)) })
            }
            let usd = perCurrency.first { $0.0.code == "usd" }?.1 ?? perCurrency.first?.1
            updated = usd?.quote.updatedAt ?? now
            var data: [(String, JSON)] = [
                ("current_price", byCurrency { Self.number($0.quote.price) }),
                ("ath", byCurrency { Self.number($0.ath) }),
                ("ath_change_percentage", byCurrency { Self.number(($0.quote.price - $0.ath) / $0.ath * 100) }),
                ("ath_date", byCurrency { .string(Self.iso($0.athTime)) }),
                ("atl", byCurrency { Self.number($0.atl) }),
                ("atl_change_percentage", byCurrency { Self.number(($0.quote.price - $0.atl) / $0.atl * 100) }),
                ("atl_date", byCurrency { .string(Self.iso($0.atlTime)) }),
                ("market_cap", byCurrency { Self.number($0.marketCap) }),
                ("market_cap_rank", ranks[asset.id].map { .int($0) } ?? .null),
                ("total_volume", byCurrency { Self.number($0.volume24h) }),
                ("high_24h", byCurrency { Self.number($0.high24h) }),
                ("low_24h", byCurrency { Self.number($0.low24h) }),
                ("price_change_24h", Self.optionalNumber(usd?.change24h)),
            ]
            for window in CoinStats.windows.map(\.name) where window != "1h" {
                data.append(("price_change_percentage_\(window)", Self.optionalNumber(usd?.changePercent[window])))
            }
            data.append(("price_change_24h_in_currency", byCurrency { Self.optionalNumber($0.change24h) }))
            for window in CoinStats.windows.map(\.name) {
                data.append(
                    (
                        "price_change_percentage_\(window)_in_currency",
                        byCurrency { Self.optionalNumber($0.changePercent[window]) }
                    ))
            }
            data += [
                ("total_supply", Self.optionalNumber(asset.totalSupply)),
                ("max_supply", Self.optionalNumber(asset.maxSupply)),
                ("circulating_supply", Self.number(asset.circulatingSupply)),
            ]
            if Self.flag(query, "sparkline"), let usd {
                data.append(("sparkline_7d", .object([("price", .array(usd.sparkline7d.map { Self.number($0) }))])))
            }
            data.append(("last_updated", .string(Self.iso(updated))))
            fields.append(("market_data", .object(data)))
        }
        fields.append(("last_updated", .string(Self.iso(updated))))
        return .ok(.object(fields))
    }

    static func pairs(_ points: [(time: Int64, value: Double)], _ digits: Int? = nil) -> JSON {
        .array(points.map { .array([.int($0.time), number($0.value, digits)]) })
    }

    static func chartBody(_ series: ChartSeries, _ digits: Int?) -> JSON {
        .object([
            ("prices", pairs(series.prices, digits)), ("market_caps", pairs(series.marketCaps)),
            ("total_volumes", pairs(series.totalVolumes)),
        ])
    }

    func marketChart(_ id: String, _ query: [String: String], now: Int64) -> MarketReply {
        guard let asset = asset(id) else { return .coinGeckoError("coin not found", status: 404) }
        let currency: MarketCurrency
        switch self.currency(query) {
        case .success(let value): currency = value
        case .failure(let reply): return reply
        }
        let days: Int64?
        switch Self.days(query) {
        case .success(let value): days = value
        case .failure(let reply): return reply
        }
        let digits: Int?
        switch Self.precision(query) {
        case .success(let value): digits = value
        case .failure(let reply): return reply
        }
        let history = Int64(market.configuration.historyDays)
        let span = min(days ?? history, history)
        var step = days == nil ? 86_400 : ChartGranularity.chartStep(days: span)
        switch query["interval"]?.lowercased() {
        case nil, "": break
        case "daily": step = 86_400
        case "hourly":
            guard span <= 100 else { return .coinGeckoError("invalid interval: hourly data is for days up to 100") }
            step = 3_600
        default: return .coinGeckoError("invalid interval: daily or hourly")
        }
        let from = max(now - span * 86_400, earliest(now))
        let series = market.chart(asset: asset, currency: currency, from: from, to: now, step: step, includeEnd: true)
        return .ok(Self.chartBody(series, digits))
    }

    /// `from`/`to`: Unix seconds (a decimal fraction is dropped) or an ISO date `YYYY-MM-DD` or
    /// `YYYY-MM-DDTHH:MM`, UTC.
    static func instant(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        if let value = Double(text), value.isFinite, abs(value) < 1e15 { return Int64(value.rounded(.down)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970) }
        }
        return nil
    }

    func marketChartRange(_ id: String, _ query: [String: String], now: Int64) -> MarketReply {
        guard let asset = asset(id) else { return .coinGeckoError("coin not found", status: 404) }
        let currency: MarketCurrency
        switch self.currency(query) {
        case .success(let value): currency = value
        case .failure(let reply): return reply
        }
        let digits: Int?
        switch Self.precision(query) {
        case .success(let value): digits = value
        case .failure(let reply): return reply
        }
        guard let fromText = query["from"], !fromText.isEmpty else { return .coinGeckoError("Missing parameter from") }
        guard let toText = query["to"], !toText.isEmpty else { return .coinGeckoError("Missing parameter to") }
        guard let requestedFrom = Self.instant(fromText) else {
            return .coinGeckoError("invalid from: Unix seconds or YYYY-MM-DD[THH:MM]")
        }
        guard let requestedTo = Self.instant(toText) else {
            return .coinGeckoError("invalid to: Unix seconds or YYYY-MM-DD[THH:MM]")
        }
        let step = ChartGranularity.rangeStep(from: requestedFrom, to: requestedTo, now: now)
        let from = max(requestedFrom, earliest(now))
        let to = min(requestedTo, now)
        let series = market.chart(asset: asset, currency: currency, from: from, to: to, step: step, includeEnd: false)
        return .ok(Self.chartBody(series, digits))
    }

    func ohlc(_ id: String, _ query: [String: String], now: Int64) -> MarketReply {
        guard let asset = asset(id) else { return .coinGeckoError("coin not found", status: 404) }
        let currency: MarketCurrency
        switch self.currency(query) {
        case .success(let value): currency = value
        case .failure(let reply): return reply
        }
        let days: Int64?
        switch Self.days(query) {
        case .success(let value): days = value
        case .failure(let reply): return reply
        }
        let digits: Int?
        switch Self.precision(query) {
        case .success(let value): digits = value
        case .failure(let reply): return reply
        }
        let history = Int64(market.configuration.historyDays)
        let span = min(days ?? history, history)
        let (body, sample) = ChartGranularity.ohlcBody(days: days ?? 365)
        let from = max(now - span * 86_400, earliest(now))
        var start = MarketClock.floorDivide(from, body) * body
        if start < earliest(now) { start += body }
        let end = MarketClock.floorDivide(now, body) * body
        let count = end > start ? Int((end - start) / body) : 0
        let candles = market.candles(
            asset: asset, currency: currency, start: start, body: body, count: count, sample: sample)
        return .ok(
            .array(
                candles.map { c in
                    .array([
                        .int(c.end * 1_000), Self.number(c.open, digits), Self.number(c.high, digits),
                        Self.number(c.low, digits), Self.number(c.close, digits),
                    ])
                }))
    }

    // MARK: Coinbase Exchange

    /// `BTC-USD`: the asset and the currency, or Coinbase's 404.
    func product(_ id: String) -> Result<(MarketAsset, MarketCurrency), MarketReply> {
        let parts = id.split(separator: "-")
        guard parts.count == 2, let asset = market.asset(symbol: String(parts[0])),
            let currency = market.currency(parts[1].lowercased())
        else { return .failure(.coinbaseError("NotFound", status: 404)) }
        return .success((asset, currency))
    }

    /// Coinbase's `start`/`end`: ISO 8601 (`2026-01-01T00:00:00Z`, fractional seconds allowed) or Unix seconds.
    static func coinbaseInstant(_ text: String) -> Int64? {
        if let seconds = Int64(text) { return seconds }
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate],
        ] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return Int64(date.timeIntervalSince1970) }
        }
        return instant(text)
    }

    func candles(_ id: String, _ query: [String: String], now: Int64) -> MarketReply {
        let asset: MarketAsset
        let currency: MarketCurrency
        switch product(id) {
        case .success(let value): (asset, currency) = value
        case .failure(let reply): return reply
        }
        guard let text = query["granularity"], let granularity = Int64(text),
            let sample = ChartGranularity.coinbaseSamples[granularity]
        else { return .coinbaseError("Unsupported granularity") }
        let limit = ChartGranularity.coinbaseMaxCandles
        var start: Int64
        var end: Int64
        if let startText = query["start"], let endText = query["end"] {
            guard let s = Self.coinbaseInstant(startText) else { return .coinbaseError("Invalid start") }
            guard let e = Self.coinbaseInstant(endText) else { return .coinbaseError("Invalid end") }
            guard s <= e else { return .coinbaseError("start must be before end") }
            // Compare by division so that no client's numbers can overflow.
            guard (e / granularity) - (s / granularity) <= limit else {
                return .coinbaseError(
                    "granularity too small for the requested time range. Count of aggregations requested exceeds \(limit)"
                )
            }
            (start, end) = (s, e)
        } else {
            end = now
            start = now - limit * granularity
        }
        start = max(MarketClock.floorDivide(start, granularity) * granularity, earliest(now))
        start = MarketClock.floorDivide(start + granularity - 1, granularity) * granularity
        // Complete buckets only: a bucket [t, t + g) is served once t + g has passed.
        let lastStart =
            min(MarketClock.floorDivide(end, granularity), MarketClock.floorDivide(now, granularity) - 1)
            * granularity
        let count = lastStart >= start ? Int((lastStart - start) / granularity) + 1 : 0
        let candles = market.candles(
            asset: asset, currency: currency, start: start, body: granularity, count: count, sample: sample)
        return .ok(
            .array(
                candles.reversed().map { c in
                    .array([
                        .int(c.start), Self.number(c.low), Self.number(c.high), Self.number(c.open),
                        Self.number(c.close), Self.number(c.volume),
                    ])
                }))
    }

    /// A price as Coinbase prints it: a decimal string (2 decimals from 100, 4 from 1, else 6).
    static func coinbasePrice(_ value: Double) -> String {
        String(format: value >= 100 ? "%.2f" : value >= 1 ? "%.4f" : "%.6f", value)
    }

    func ticker(_ id: String, now: Int64) -> MarketReply {
        let asset: MarketAsset
        let currency: MarketCurrency
        switch product(id) {
        case .success(let value): (asset, currency) = value
        case .failure(let reply): return reply
        }
        guard let quote = market.quote(asset: asset, currency: currency, at: now) else {
            return .coinbaseError("NotFound", status: 404)
        }
        let spread = quote.price * 0.0001
        let factor = market.volumeFactors(asset: asset, first: now, step: 1, count: 1)[0]
        return .ok(
            .object([
                ("ask", .string(Self.coinbasePrice(quote.price + spread))),
                ("bid", .string(Self.coinbasePrice(quote.price - spread))),
                ("volume", .string(String(format: "%.8f", asset.dailyVolume * factor))),
                ("trade_id", .int(max(0, MarketClock.tick(at: quote.updatedAt)))),
                ("price", .string(Self.coinbasePrice(quote.price))),
                ("size", .string("0.01000000")),
                ("time", .string(Self.iso(quote.updatedAt))),
                ("rfq_volume", .string("0.000000")),
            ]))
    }
}
