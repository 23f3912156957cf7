/// A scripted event on the path: it changes the prices served from `start` for `duration` seconds (a crash stays
/// down afterwards), for one asset or for all.
public struct MarketEvent: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable {
        /// The price falls by `change` (−0.30) in a straight line of log price over `duration` (3,600 s) and stays.
        case crash
        /// The price rises by `change` (+0.25) and comes back, a triangle over `duration` (600 s).
        case spike
        /// The feed freezes: every price in `duration` (3,600 s) is the one at `start`, last updated at `start`.
        case stale
        /// No data: chart points, candles and ticks in `duration` (3,600 s) are missing; a quote keeps the last one.
        case gap
        /// One bad print: prices in `duration` (300 s, one 5-minute chart point) are multiplied by 1 + `change` (10).
        case outlier

        var defaultDuration: Int64 {
            switch self {
            case .crash, .stale, .gap: 3_600
            case .spike: 600
            case .outlier: 300
            }
        }

        var defaultChange: Double {
            switch self {
            case .crash: -0.3
            case .spike: 0.25
            case .outlier: 9
            case .stale, .gap: 0
            }
        }
    }

    public var kind: Kind
    /// CoinGecko id of the asset; nil: every asset.
    public var assetID: String?
    /// Unix seconds.
    public var start: Int64
    public var duration: Int64
    /// Relative change (−0.3: −30 %), more than −1.
    public var change: Double

    public init(kind: Kind, assetID: String? = nil, start: Int64, duration: Int64? = nil, change: Double? = nil) {
        self.kind = kind
        self.assetID = assetID
        self.start = start
        self.duration = duration ?? kind.defaultDuration
        self.change = change ?? kind.defaultChange
    }

    /// Longest event: one year.
    public static let maxDuration: Int64 = 31_536_000

    /// Parses `KIND,at=TIME[,asset=ID][,duration=SECONDS][,change=FRACTION]`, TIME being Unix seconds or `+N`/`-N`
    /// seconds from `now` (the flag `--market-event` and `sandnet market series --event`).
    ///
    /// - Throws: ``MarketInputError`` naming the field and the limit.
    public init(parsing text: String, now: Int64) throws(MarketInputError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard let kind = Kind(rawValue: parts[0]) else {
            let known = Kind.allCases.map(\.rawValue).joined(separator: ", ")
            throw MarketInputError("unknown event kind '\(parts[0])': known kinds are \(known)")
        }
        var start: Int64?
        var asset: String?
        var duration: Int64?
        var change: Double?
        for part in parts.dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { throw MarketInputError("event field '\(part)' is not key=value") }
            switch pair[0] {
            case "at":
                let value = pair[1]
                if value.hasPrefix("+") || value.hasPrefix("-") {
                    guard let offset = Int64(value.dropFirst()), offset <= Self.maxDuration * 100 else {
                        throw MarketInputError("event at=\(value): an offset is +N or -N seconds, N ≤ 3153600000")
                    }
                    start = value.hasPrefix("+") ? now + offset : now - offset
                } else {
                    guard let seconds = Int64(value), (0...MarketClock.maxTime).contains(seconds) else {
                        throw MarketInputError("event at=\(value): Unix seconds from 0 to \(MarketClock.maxTime)")
                    }
                    start = seconds
                }
            case "asset": asset = pair[1]
            case "duration":
                guard let seconds = Int64(pair[1]), (1...Self.maxDuration).contains(seconds) else {
                    throw MarketInputError("event duration=\(pair[1]): 1 to \(Self.maxDuration) seconds")
                }
                duration = seconds
            case "change":
                guard let value = Double(pair[1]), value.isFinite, value > -1, value <= 1_000 else {
                    throw MarketInputError("event change=\(pair[1]): a fraction above -1 and at most 1000")
                }
                change = value
            default:
                throw MarketInputError("unknown event field '\(pair[0])': at, asset, duration, change")
            }
        }
        guard let start else { throw MarketInputError("event '\(text)' needs at=TIME") }
        self.init(kind: kind, assetID: asset, start: start, duration: duration, change: change)
    }

    func applies(to asset: String) -> Bool { assetID == nil || assetID == asset }

    func covers(_ t: Int64) -> Bool { t >= start && t - start < duration }
}

/// Input the market refuses, with the field and the limit named.
public struct MarketInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
