import EthereumTypes
import SeededRandom

/// The block about to be built, as the generator sees it.
public struct ChainHead: Sendable, Equatable {
    /// Number of the block being built.
    public var number: UInt64
    /// Its timestamp (Unix seconds).
    public var timestamp: UInt64
    /// Its base fee.
    public var baseFee: UInt256
    public var gasLimit: UInt64

    public init(number: UInt64, timestamp: UInt64, baseFee: UInt256, gasLimit: UInt64) {
        self.number = number
        self.timestamp = timestamp
        self.baseFee = baseFee
        self.gasLimit = gasLimit
    }
}

/// A transaction one simulated user sends: who (an index among the generator's users), to whom, the gas it uses
/// and the fees it offers. The node turns it into a signed EIP-1559 transaction with the user's next nonce.
public struct AmbientTransaction: Sendable, Equatable {
    public var sender: Int
    public var recipient: Int
    public var value: UInt256
    /// Gas the transaction uses (its gas limit too: simulated users estimate exactly).
    public var gas: UInt64
    public var maxFeePerGas: UInt256
    public var maxPriorityFeePerGas: UInt256

    /// True for the token-like calls (35,000–65,000 gas): the node sends them as ERC-20 transfers of a native token
    /// when the chain has one (README, "A chain that lives").
    public var isTokenTransfer: Bool { gas >= 35_000 && gas < 65_000 }

    /// Tip per gas paid at `baseFee` (nil when the fee cap is below it).
    public func effectiveTip(baseFee: UInt256) -> UInt256? {
        guard maxFeePerGas >= baseFee else { return nil }
        return UInt256.min(maxPriorityFeePerGas, maxFeePerGas - baseFee)
    }
}

/// Other people's transactions for each block: a pure function of (seed, profile, head), so a seed replays the
/// same chain and switching profile at run time changes only the blocks after the switch.
///
/// Per block: the profile's potential demand (a fraction of the gas limit) is drawn as would-be transactions with
/// a gas size, a price limit and a tip; a would-be sender whose price limit is below the base fee waits (this is
/// what holds the base fee in equilibrium); the others send with the wallets' default fee cap
/// `2 × baseFee + tip` (ethers v6, MetaMask, geth), until the gas limit is reached.
public struct TrafficGenerator: Sendable, Equatable {
    public var seed: UInt64
    public var profile: FeeProfile
    /// Simulated users (each with a funded account of its own).
    public var users: Int

    public init(seed: UInt64 = 0, profile: FeeProfile, users: Int = 256) {
        precondition(users >= 2, "ambient traffic needs at least two users")
        self.seed = seed
        self.profile = profile
        self.users = users
    }

    /// The transactions other users send for the block `head` describes.
    public func transactions(for head: ChainHead) -> [AmbientTransaction] {
        var random = SplitMix64(seed: seed, stream: head.number)
        let demand = profile.demand(
            number: head.number, timestamp: head.timestamp,
            noise: profile == .quiet ? random.unit() : random.normal())
        guard demand.potential > 0, head.gasLimit >= 21_000 else { return [] }
        let budget = min(UInt64(demand.potential * Double(head.gasLimit)), head.gasLimit)
        let baseFee = head.baseFee.approximateDouble
        var wanted: UInt64 = 0
        var out: [AmbientTransaction] = []
        // Each would-be sender draws the same number of values, so a draw's meaning never shifts. Demand stops at
        // the budget (≤ the gas limit): a size that would pass it becomes a plain transfer, if that fits.
        while true {
            var gas = Self.gas(&random)
            let limitDraw = random.normal()
            let unlimited = random.unit() < demand.unlimitedShare
            let tip = Self.tip(&random, urgentShare: demand.urgentShare)
            let sender = random.integer(in: 0...(users - 1))
            var recipient = random.integer(in: 0...(users - 2))
            if recipient >= sender { recipient += 1 }
            let value = UInt256(UInt64(random.integer(in: 1...100_000))) * UInt256(1_000_000_000_000 as UInt64)
            if wanted + gas > budget {
                guard wanted + 21_000 <= budget else { break }
                gas = 21_000
            }
            wanted += gas
            if !unlimited, let median = demand.medianLimit,
                median * exp2Exact(demand.limitSpread * limitDraw) < baseFee
            {
                continue
            }
            let cap = head.baseFee.multipliedReportingOverflow(by: UInt256(2)).partialValue + tip
            out.append(
                AmbientTransaction(
                    sender: sender, recipient: recipient, value: value, gas: gas, maxFeePerGas: cap,
                    maxPriorityFeePerGas: tip))
        }
        return out
    }

    /// Gas of one transaction: 40 % plain transfers (21,000), 30 % token-like calls (35,000–65,000), 20 % contract
    /// calls (100,000–500,000), 10 % heavy ones (deployments, rollup batches: 1,000,000–3,000,000). Mean ≈ 283,000.
    static func gas(_ random: inout SplitMix64) -> UInt64 {
        let kind = random.unit()
        let size = random.unit()
        switch kind {
        case ..<0.4: return 21_000
        case ..<0.7: return 35_000 + UInt64(size * 30_000)
        case ..<0.9: return 100_000 + UInt64(size * 400_000)
        default: return 1_000_000 + UInt64(size * 2_000_000)
        }
    }

    /// Tip of one transaction (wei per gas): 50 % 1 gwei (ethers' and web3.py's default), 15 % 1.5 gwei (MetaMask's
    /// "market"), 15 % 2 gwei, 15 % bots at 0.001–0.1 gwei (log-uniform), 5 % high at 2–20 gwei; the urgent share
    /// instead bids 5–100 gwei (log-uniform).
    static func tip(_ random: inout SplitMix64, urgentShare: Double) -> UInt256 {
        let kind = random.unit()
        let level = random.unit()
        let gwei = 1_000_000_000.0
        let wei: Double
        if kind < urgentShare {
            wei = 5 * gwei * exp2Exact(level * 4.321928094887363)  // 5…100 gwei
        } else {
            switch (kind - urgentShare) / (1 - urgentShare) {
            case ..<0.5: wei = gwei
            case ..<0.65: wei = 1.5 * gwei
            case ..<0.8: wei = 2 * gwei
            case ..<0.95: wei = 0.001 * gwei * exp2Exact(level * 6.643856189774724)  // 0.001…0.1 gwei
            default: wei = 2 * gwei * exp2Exact(level * 3.321928094887363)  // 2…20 gwei
            }
        }
        return UInt256(UInt64(wei))
    }
}
