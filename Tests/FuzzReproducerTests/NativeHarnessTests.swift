import FuzzHarnesses
import Testing

/// The `native` harness over deterministic mutations of its seeds (a seeded generator, so every run checks the same
/// inputs): byte flips, truncations and extensions of token and Multicall3 calldata must neither trap nor break
/// the harness's properties.
@Suite struct NativeHarnessTests {
    /// SplitMix64: a fixed sequence for a fixed seed.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func mutatedSeedsKeepTheProperties() throws {
        let target = try #require(FuzzTarget.named("native"))
        let seeds = target.syntheticSeeds()
        #expect(seeds.count == 13)
        var random = Generator(state: 18)
        for round in 0..<4_000 {
            var input = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let choice = random.next() % 4
                let at = Int(random.next() % UInt64(input.count))
                switch choice {
                case 0: input[at] = UInt8(truncatingIfNeeded: random.next())
                case 1: input = Array(input.prefix(at))
                case 2: input += (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                default: input[at] ^= 0xff
                }
                if input.isEmpty { input = [0] }
            }
            target.run(input)
        }
    }
}
