import EthereumTypes

/// The shape of other people's demand for block space (README, "Fee profiles", gives each one's definition and
/// sources). Every number here is the profile's definition; the tests check a simulated hour against it.
public enum FeeProfile: String, Sendable, CaseIterable {
    /// No ambient traffic: today's still chain (tests, in-process scenarios).
    case dev
    /// Near-empty blocks (1–10 % of the gas limit); the base fee decays to its integer floor.
    case quiet
    /// The shape of recent Sepolia: would-be senders for ~75 % of the gas limit, 70 % of them with price limits
    /// (median 0.01 gwei) that put the base fee in equilibrium near 0.01 gwei with blocks about half full; tips
    /// mostly 1–2 gwei. From a fresh chain at 1 gwei, blocks are ~22 % full until the fee has fallen.
    case sepolia
    /// Sepolia's demand swelling and ebbing over the UTC day: 15 % of the gas limit at 03:00, 95 % at 15:00.
    case dailySwell = "daily-swell"
    /// Sepolia with a spike every hour: from minute 10, sixty full blocks (12 minutes) whose senders pay any base
    /// fee (×1.125 a block: about ×1,000), with urgent tips; then the spike's senders leave and the fee decays.
    case spike
    /// Empty blocks (as Sepolia on 2025-03-05): nobody sends; the base fee falls to 7 wei.
    case stall

    /// Names accepted by `--fee-profile` and `sandnet_setFeeProfile`.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// Slot time of the simulated chain (Sepolia: 12 s).
    public static let slotSeconds: UInt64 = 12
}

/// One profile's parameters at one block.
public struct Demand: Sendable, Equatable {
    /// Gas the would-be senders want, as a fraction of the gas limit (capped at 1 when sent).
    public var potential: Double
    /// Median price limit (wei per gas) of the would-be senders; a sender whose limit is below the base fee waits.
    /// nil: everyone sends whatever the base fee.
    public var medianLimit: Double?
    /// Spread of the price limits: log2 standard deviation.
    public var limitSpread: Double
    /// Share of would-be senders without a price limit (wallet users who pay whatever the base fee is): they keep
    /// blocks from ever emptying while the base fee is above the others' limits, as on a fresh chain at 1 gwei.
    public var unlimitedShare: Double = 0
    /// Share of senders bidding urgent tips (5–100 gwei).
    public var urgentShare: Double
    /// True inside a spike episode.
    public var spiking: Bool
}

extension FeeProfile {
    /// Spike episodes: blocks `spikeStart ..< spikeStart + spikeLength` of every `spikePeriod` blocks.
    public static let spikePeriod: UInt64 = 300
    public static let spikeStart: UInt64 = 50
    public static let spikeLength: UInt64 = 60

    /// Sepolia-like price limits: median 0.01 gwei, log2 spread 2.
    static let sepoliaMedianLimit = 10_000_000.0

    /// Demand at block `number` with timestamp `timestamp` (Unix seconds).
    public func demand(number: UInt64, timestamp: UInt64, noise: Double) -> Demand {
        switch self {
        case .dev, .stall:
            return Demand(potential: 0, medianLimit: nil, limitSpread: 0, urgentShare: 0, spiking: false)
        case .quiet:
            // noise is a unit draw here: uniform in [0.01, 0.10].
            return Demand(
                potential: 0.01 + 0.09 * noise, medianLimit: nil, limitSpread: 0, urgentShare: 0, spiking: false)
        case .sepolia:
            return Self.sepoliaDemand(potential: 0.75, noise: noise)
        case .dailySwell:
            return Self.sepoliaDemand(potential: Self.swell(timestamp: timestamp), noise: noise)
        case .spike:
            let phase = number % Self.spikePeriod
            if phase >= Self.spikeStart && phase < Self.spikeStart + Self.spikeLength {
                return Demand(potential: 1, medianLimit: nil, limitSpread: 0, urgentShare: 0.3, spiking: true)
            }
            return Self.sepoliaDemand(potential: 0.75, noise: noise)
        }
    }

    /// Sepolia's potential demand with normal noise of σ 0.1, within [0.05, 1]; 30 % of it without a price limit.
    static func sepoliaDemand(potential: Double, noise: Double) -> Demand {
        Demand(
            potential: min(max(potential + 0.1 * noise, 0.05), 1), medianLimit: sepoliaMedianLimit, limitSpread: 2,
            unlimitedShare: 0.3, urgentShare: 0.05, spiking: false)
    }

    /// The daily swell: a triangle over the UTC day, 0.15 at 03:00 rising to 0.95 at 15:00 and back.
    public static func swell(timestamp: UInt64) -> Double {
        let secondOfDay = Double(timestamp % 86_400)
        let fromTrough = (secondOfDay - 3 * 3_600 + 86_400).truncatingRemainder(dividingBy: 86_400)
        let halfDay = 43_200.0
        let rise = fromTrough <= halfDay ? fromTrough / halfDay : (86_400 - fromTrough) / halfDay
        return 0.15 + 0.8 * rise
    }
}
