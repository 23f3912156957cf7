import AmbientTraffic
import EthereumTypes
import Testing

/// Each profile over a simulated hour (300 blocks of 12 s, 60M gas, genesis base fee 1 gwei) against its
/// definition in ``FeeProfile`` and the README.
@Suite struct FeeProfileStatisticsTests {
    static let gwei: UInt64 = 1_000_000_000
    static let hour = 300

    /// 2023-11-14 22:13:20 UTC, the default genesis time.
    static func hour(_ profile: FeeProfile, seed: UInt64 = 1, startTime: UInt64 = 1_700_000_000, number: UInt64 = 1)
        -> [BlockStatistics]
    {
        var simulation = FeeMarketSimulation(
            generator: TrafficGenerator(seed: seed, profile: profile),
            start: ChainHead(number: number, timestamp: startTime, baseFee: UInt256(gwei), gasLimit: 60_000_000))
        return simulation.run(blocks: hour)
    }

    static func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(values.count) }

    static func median(_ values: [UInt256]) -> UInt256 { values.sorted()[values.count / 2] }

    @Test func devSendsNothing() {
        let blocks = Self.hour(.dev)
        #expect(blocks.allSatisfy { $0.transactionCount == 0 })
    }

    @Test func stallMakesEmptyBlocksAndTheBaseFeeFallsToSevenWei() {
        let blocks = Self.hour(.stall)
        #expect(blocks.allSatisfy { $0.gasUsed == 0 })
        let fees = blocks.map(\.baseFee)
        #expect(zip(fees, fees.dropFirst()).allSatisfy { $0 > $1 || $1 == UInt256(7) })
        #expect(fees.last == UInt256(7))
        // From 1 gwei, 145 empty blocks reach 7 wei (29 minutes at 12 s; the integer rule of EIP-1559 exactly).
        #expect(fees.firstIndex(of: UInt256(7)) == 145)
        #expect(blocks.allSatisfy { $0.rewards == [.zero, .zero, .zero] })
    }

    @Test func quietBlocksAreNearlyEmptyAndTheBaseFeeDecaysToItsFloor() {
        let blocks = Self.hour(.quiet)
        let fullness = blocks.map(\.fullness)
        #expect(fullness.allSatisfy { $0 > 0.0096 && $0 <= 0.10 })
        #expect(abs(Self.mean(fullness) - 0.055) < 0.01)
        #expect(blocks.last!.baseFee <= UInt256(16))
        // Tips: wallets' defaults dominate; no urgent bids.
        #expect(Self.median(blocks.map { $0.rewards[1] }) == UInt256(Self.gwei))
        #expect(blocks.allSatisfy { $0.rewards[2] <= UInt256(20 * Self.gwei) })
    }

    @Test func sepoliaHoldsBlocksHalfFullWithABaseFeeNearFiveMwei() {
        let blocks = Array(Self.hour(.sepolia).dropFirst(60))  // warm-up: 1 gwei falls to the equilibrium
        let fullness = blocks.map(\.fullness)
        #expect(abs(Self.mean(fullness) - 0.5) < 0.05)
        let baseFee = Self.median(blocks.map(\.baseFee))
        #expect(baseFee >= UInt256(2_000_000) && baseFee <= UInt256(20_000_000))
        // feeHistory rewards [10, 50, 90]: bots' low tips, the 1 gwei default, 1.5–2 gwei wallets.
        #expect(Self.median(blocks.map { $0.rewards[0] }) <= UInt256(Self.gwei / 10))
        #expect(Self.median(blocks.map { $0.rewards[1] }) == UInt256(Self.gwei))
        let p90 = Self.median(blocks.map { $0.rewards[2] })
        #expect(p90 >= UInt256(Self.gwei * 3 / 2) && p90 <= UInt256(20 * Self.gwei))
        // Every block carries tipped transactions: web3swift's and web3.py's fee-history strategies see rewards.
        #expect(blocks.allSatisfy { $0.transactionCount > 0 && $0.rewards[1] > .zero })
    }

    @Test func dailySwellFillsBlocksByDayAndEmptiesThemByNight() {
        // 2023-11-15 14:30 UTC and 02:30 UTC.
        let day = Array(Self.hour(.dailySwell, startTime: 1_700_058_600).dropFirst(60))
        let night = Self.hour(.dailySwell, startTime: 1_700_015_400)
        #expect(abs(Self.mean(day.map(\.fullness)) - 0.5) < 0.05)
        #expect(Self.median(day.map(\.baseFee)) >= UInt256(2_000_000))
        #expect(Self.mean(night.map(\.fullness)) < 0.25)
        #expect(night.last!.baseFee < UInt256(1_000))
        #expect(abs(FeeProfile.swell(timestamp: 1_700_017_200) - 0.15) < 1e-9)  // 03:00
        #expect(abs(FeeProfile.swell(timestamp: 1_700_060_400) - 0.95) < 1e-9)  // 15:00
    }

    @Test func spikeFillsSixtyBlocksAndMultipliesTheBaseFeeAboutAThousandfold() {
        let blocks = Self.hour(.spike, number: 0)
        let spike = blocks[50..<110]
        #expect(spike.allSatisfy { $0.gasUsed > 60_000_000 - 21_000 })
        let before = blocks[50].baseFee
        let peak = blocks[110].baseFee
        #expect(peak > before * UInt256(500) && peak < before * UInt256(1_200))
        // Urgent senders: the 90th percentile tip inside the spike is 5 gwei or more.
        #expect(spike.allSatisfy { $0.rewards[2] >= UInt256(5 * Self.gwei) })
        // After the spike its senders leave: the fee decays back to within ×10 of where it started.
        #expect(blocks.last!.baseFee < before * UInt256(10))
        #expect(blocks[0..<50].allSatisfy { $0.gasUsed < 60_000_000 })
    }

    @Test func aSeedReplaysTheSameTransactionsAndAnotherSeedDoesNot() {
        let head = ChainHead(number: 77, timestamp: 1_700_000_924, baseFee: UInt256(5_000_000), gasLimit: 60_000_000)
        let a = TrafficGenerator(seed: 5, profile: .sepolia).transactions(for: head)
        #expect(a == TrafficGenerator(seed: 5, profile: .sepolia).transactions(for: head))
        #expect(a != TrafficGenerator(seed: 6, profile: .sepolia).transactions(for: head))
        #expect(!a.isEmpty)
        #expect(
            a.allSatisfy {
                $0.sender != $0.recipient && $0.maxFeePerGas == UInt256(10_000_000) + $0.maxPriorityFeePerGas
            })
        #expect(a.reduce(0) { $0 + $1.gas } <= 60_000_000)
    }
}
