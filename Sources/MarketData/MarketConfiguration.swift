/// A named market mood: how volatile a stretch of the path is and where it drifts. The path picks one per block
/// of ``PricePath/blockTicks`` ticks (about 22.8 days) from the seed, or holds one everywhere
/// (``MarketConfiguration/regime``).
public enum MarketRegime: String, CaseIterable, Sendable {
    case calm, volatile, crash, pump, sideways

    /// Multiplies the asset's volatility.
    var volatilityScale: Double {
        switch self {
        case .calm: 0.7
        case .volatile: 1.8
        case .crash: 1.6
        case .pump: 1.2
        case .sideways: 0.35
        }
    }

    /// Log-drift per year (0: the median path stays level).
    var driftPerYear: Double {
        switch self {
        case .calm, .volatile, .sideways: 0
        case .crash: -2.5
        case .pump: 2.5
        }
    }

    /// Multiplies the asset's jump rate.
    var jumpScale: Double {
        switch self {
        case .calm: 0.5
        case .volatile: 2
        case .crash: 3
        case .pump: 1.5
        case .sideways: 0.25
        }
    }

    /// Mean log size of a jump.
    var jumpMean: Double {
        switch self {
        case .crash: -0.04
        case .pump: 0.03
        default: 0
        }
    }

    /// The seeded schedule's draw: calm 40 %, volatile 20 %, sideways 20 %, pump 10 %, crash 10 %.
    static func drawn(_ u: Double) -> MarketRegime {
        switch u {
        case ..<0.4: .calm
        case ..<0.6: .volatile
        case ..<0.8: .sideways
        case ..<0.9: .pump
        default: .crash
        }
    }
}

/// One traded asset: its CoinGecko id, symbol and name, and the parameters of its path.
public struct MarketAsset: Sendable, Equatable {
    /// CoinGecko's id (`bitcoin`), used in every CoinGecko route.
    public var id: String
    /// Lower-case ticker (`btc`); Coinbase products are its upper case with the currency's (`BTC-USD`).
    public var symbol: String
    public var name: String
    /// The price in US dollars at ``PricePath/anchorTime`` (2025-01-01T00:00:00Z).
    public var anchorPriceUSD: Double
    /// Annual volatility of the log price (0.6: 60 %).
    public var volatility: Double
    /// Merton jumps per year (before the regime's scale) and the standard deviation of their log size.
    public var jumpsPerYear: Double
    public var jumpSize: Double
    /// A stablecoin: the price stays within ±0.6 % of 1 USD (a bridge around the peg, no drift, no jumps) unless an
    /// event moves it.
    public var pegged: Bool
    public var circulatingSupply: Double
    public var totalSupply: Double?
    public var maxSupply: Double?
    /// Traded per day, in units of the asset (before the volume path's factor of 0.125…1.875).
    public var dailyVolume: Double

    public init(
        id: String, symbol: String, name: String, anchorPriceUSD: Double, volatility: Double, jumpsPerYear: Double,
        jumpSize: Double, pegged: Bool = false, circulatingSupply: Double, totalSupply: Double? = nil,
        maxSupply: Double? = nil, dailyVolume: Double
    ) {
        self.id = id
        self.symbol = symbol
        self.name = name
        self.anchorPriceUSD = anchorPriceUSD
        self.volatility = volatility
        self.jumpsPerYear = jumpsPerYear
        self.jumpSize = jumpSize
        self.pegged = pegged
        self.circulatingSupply = circulatingSupply
        self.totalSupply = totalSupply
        self.maxSupply = maxSupply
        self.dailyVolume = dailyVolume
    }

    /// BTC, ETH, ICP, LINK, USDC and USDT, with prices near their levels on 2025-01-01.
    public static let defaults: [MarketAsset] = [
        MarketAsset(
            id: "bitcoin", symbol: "btc", name: "Bitcoin", anchorPriceUSD: 94_000, volatility: 0.55, jumpsPerYear: 6,
            jumpSize: 0.05, circulatingSupply: 19_800_000, totalSupply: 19_800_000, maxSupply: 21_000_000,
            dailyVolume: 350_000),
        MarketAsset(
            id: "ethereum", symbol: "eth", name: "Ethereum", anchorPriceUSD: 3_350, volatility: 0.7, jumpsPerYear: 8,
            jumpSize: 0.06, circulatingSupply: 120_500_000, totalSupply: 120_500_000, dailyVolume: 5_500_000),
        MarketAsset(
            id: "internet-computer", symbol: "icp", name: "Internet Computer", anchorPriceUSD: 10.3, volatility: 0.9,
            jumpsPerYear: 10, jumpSize: 0.08, circulatingSupply: 475_000_000, totalSupply: 520_000_000,
            dailyVolume: 12_000_000),
        MarketAsset(
            id: "chainlink", symbol: "link", name: "Chainlink", anchorPriceUSD: 20.6, volatility: 0.85,
            jumpsPerYear: 10, jumpSize: 0.07, circulatingSupply: 638_000_000, totalSupply: 1_000_000_000,
            maxSupply: 1_000_000_000, dailyVolume: 25_000_000),
        MarketAsset(
            id: "usd-coin", symbol: "usdc", name: "USDC", anchorPriceUSD: 1, volatility: 0, jumpsPerYear: 0,
            jumpSize: 0, pegged: true, circulatingSupply: 44_000_000_000, totalSupply: 44_000_000_000,
            dailyVolume: 6_000_000_000),
        MarketAsset(
            id: "tether", symbol: "usdt", name: "Tether", anchorPriceUSD: 1, volatility: 0, jumpsPerYear: 0,
            jumpSize: 0, pegged: true, circulatingSupply: 137_000_000_000, totalSupply: 137_000_000_000,
            dailyVolume: 60_000_000_000),
    ]
}

/// A fiat currency the market is quoted in: units per US dollar at ``PricePath/anchorTime``, moving as a calm path.
public struct MarketCurrency: Sendable, Equatable {
    /// Lower-case code, as CoinGecko's `vs_currency` (`usd`).
    public var code: String
    public var anchorRate: Double
    public var volatility: Double

    public init(code: String, anchorRate: Double, volatility: Double) {
        self.code = code
        self.anchorRate = anchorRate
        self.volatility = volatility
    }

    /// USD (fixed at 1), EUR and JPY (8 % and 10 % a year).
    public static let defaults: [MarketCurrency] = [
        MarketCurrency(code: "usd", anchorRate: 1, volatility: 0),
        MarketCurrency(code: "eur", anchorRate: 0.966, volatility: 0.08),
        MarketCurrency(code: "jpy", anchorRate: 157.2, volatility: 0.1),
    ]
}

/// What the market simulator serves: which assets in which currencies, from which seed, with which events.
public struct MarketConfiguration: Sendable, Equatable {
    /// The same seed gives the same prices at the same instants, on every run and platform.
    public var seed: UInt64 = 0
    public var assets: [MarketAsset] = MarketAsset.defaults
    public var currencies: [MarketCurrency] = MarketCurrency.defaults
    /// One regime everywhere instead of the seeded schedule; nil: the schedule.
    public var regime: MarketRegime?
    /// Scripted events (a crash, a spike, a stale feed, a gap, an outlier tick), at most ``maxEvents``.
    public var events: [MarketEvent] = []
    /// How far back from the clock charts reach (`days=max`): ``historyDaysRange``, 365 by default.
    public var historyDays = 365

    public static let historyDaysRange = 1...3_650
    public static let maxEvents = 1_000

    public init() {}
}
