import EthereumTransactions
import Testing

/// Mutated and truncated encodings must either throw or decode to a transaction that re-encodes to exactly the
/// same bytes (the decoder accepts only canonical input), and never trap.
@Suite struct DecodingRobustnessTests {
    /// SplitMix64: a fixed seed makes every run check the same inputs.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static var seeds: [[UInt8]] {
        let legacy = TestKeys.signed(
            .legacy(
                LegacyTransaction(
                    chainID: 1, nonce: 1, gasPrice: 1_000, gas: 50_000, to: TestKeys.recipient, value: 5,
                    data: [1, 0, 2])))
        let accessList = TestKeys.signed(
            .accessList(
                AccessListTransaction(
                    chainID: 1, nonce: 0, gasPrice: 1, gas: 30_000, to: nil, value: 0, data: [0x60, 0x00],
                    accessList: [AccessListEntry(address: TestKeys.recipient, storageKeys: [1, 2])])))
        return [TestKeys.signed(TestKeys.transfer).encoded, legacy.encoded, accessList.encoded]
    }

    @Test func mutationsThrowOrRoundTrip() {
        var rng = Generator(state: 4)
        var decoded = 0
        for seed in Self.seeds {
            for _ in 0..<3_000 {
                var bytes = seed
                switch rng.next() % 4 {
                case 0: bytes[Int(rng.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.removeLast(Int(rng.next() % UInt64(bytes.count)))
                case 2: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: Int(rng.next() % UInt64(bytes.count)))
                default: bytes.remove(at: Int(rng.next() % UInt64(bytes.count)))
                }
                guard let tx = try? SignedTransaction(decoding: bytes) else { continue }
                decoded += 1
                #expect(SignedTransaction(transaction: tx.transaction, signature: tx.signature).encoded == bytes)
                _ = try? tx.validate(ValidationRules(chainID: 1, fork: .osaka))
            }
        }
        // Single-byte changes inside values (data, r, s, value) still decode; the check above covers them.
        #expect(decoded > 100)
    }
}
