import Benchmark
import CandidCoding

/// ICP ledger `TransferArgs` (ledger.did): about 139 bytes on the wire.
private let tokens = CandidType.record([CandidFieldType("e8s", .nat64)])
private let transferArgsType = CandidType.record([
    CandidFieldType("to", .blob),
    CandidFieldType("fee", tokens),
    CandidFieldType("memo", .nat64),
    CandidFieldType("from_subaccount", .opt(.blob)),
    CandidFieldType("created_at_time", .opt(.record([CandidFieldType("timestamp_nanos", .nat64)]))),
    CandidFieldType("amount", tokens),
])

private let transferArgs = CandidValue.makeRecord([
    CandidField("to", .blob([UInt8](repeating: 0xab, count: 32))),
    CandidField("fee", .record([CandidField("e8s", .nat64(10_000))])),
    CandidField("memo", .nat64(42)),
    CandidField("from_subaccount", .opt(nil)),
    CandidField(
        "created_at_time", .opt(.record([CandidField("timestamp_nanos", .nat64(1_700_000_000_000_000_000))]))),
    CandidField("amount", .record([CandidField("e8s", .nat64(123_456_789))])),
])

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(3))

    // Targets: >= 1,000,000 encodes/s and decodes/s for TransferArgs; >= 500 MB/s for the vec nat64 decode.
    Benchmark("Candid TransferArgs encode") { benchmark in
        guard let types = try? CandidArgumentTypes([transferArgsType]) else { return }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? CandidSerializer.encode([transferArgs], as: types))
        }
    }

    Benchmark("Candid TransferArgs decode") { benchmark in
        guard let types = try? CandidArgumentTypes([transferArgsType]),
            let bytes = try? CandidSerializer.encode([transferArgs], as: types)
        else { return }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? CandidDeserializer.decode(bytes, as: types))
        }
    }

    Benchmark("Candid TransferArgs decodeOne") { benchmark in
        guard let types = try? CandidArgumentTypes([transferArgsType]),
            let bytes = try? CandidSerializer.encode([transferArgs], as: types)
        else { return }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? CandidDeserializer.decodeOne(bytes, as: types))
        }
    }

    Benchmark("Candid vec nat64 x10000 decode (80 KB)") { benchmark in
        let value = CandidValue.vec((0..<10_000).map { .nat64(UInt64($0) &* 0x9E37_79B9_7F4A_7C15) })
        guard let types = try? CandidArgumentTypes([.vec(.nat64)]),
            let bytes = try? CandidSerializer.encode([value], as: types)
        else { return }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try? CandidDeserializer.decode(bytes, as: types))
        }
    }
}
