// swift-tools-version: 6.1
// Benchmarks for Sandnet, kept in their own package so that fuzzing builds of the main package never link
// package-benchmark's plugin (see ../shared/reference/toolchain.md §4). Run: `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "SandnetBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sandnet", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Raw C libraries, for "wrapper overhead vs raw calls" comparisons in the same run.
        .systemLibrary(name: "BenchCSecp256k1", path: "Sources/BenchCSecp256k1", pkgConfig: "libsecp256k1"),
        .systemLibrary(name: "BenchCOpenSSL", path: "Sources/BenchCOpenSSL", pkgConfig: "libcrypto"),
        // The project's own plain-C Keccak-256 (FIPS 202, lanes in locals): the reference the Swift keccak is measured
        // against.
        .target(name: "BenchCKeccak", path: "Sources/BenchCKeccak", cSettings: [.unsafeFlags(["-O3"])]),
        // glibc's mallinfo2 (malloc.h is not part of the Glibc module): the live heap, for `LedgerProfile accounts`.
        .systemLibrary(name: "BenchCMalloc", path: "Sources/BenchCMalloc"),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                .product(name: "SandnetCodecs", package: "Sandnet"),
                .product(name: "SandnetCrypto", package: "Sandnet"),
                .product(name: "Benchmark", package: "package-benchmark"),
                "BenchCSecp256k1",
                "BenchCKeccak",
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "TransactionBenchmarks",
            dependencies: [
                .product(name: "SandnetCodecs", package: "Sandnet"),
                .product(name: "SandnetCrypto", package: "Sandnet"),
                .product(name: "SandnetWallet", package: "Sandnet"),
                .product(name: "Benchmark", package: "package-benchmark"),
                "BenchCSecp256k1",
            ],
            path: "Benchmarks/TransactionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "LedgerBenchmarks",
            dependencies: [
                .product(name: "SandnetCodecs", package: "Sandnet"),
                .product(name: "SandnetWallet", package: "Sandnet"),
                .product(name: "SandnetLedger", package: "Sandnet"),
                .product(name: "SandnetLevelDB", package: "Sandnet"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/LedgerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "CandidBenchmarks",
            dependencies: [
                .product(name: "SandnetCodecs", package: "Sandnet"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/CandidBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "WalletBenchmarks",
            dependencies: [
                .product(name: "SandnetWallet", package: "Sandnet"),
                .product(name: "SandnetCrypto", package: "Sandnet"),
                .product(name: "Benchmark", package: "package-benchmark"),
                "BenchCOpenSSL",
            ],
            path: "Benchmarks/WalletBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // One ledger workload in a loop, for `perf record` / callgrind and the 1M-account figures in their own process.
        .executableTarget(
            name: "LedgerProfile",
            dependencies: [
                .product(name: "SandnetCodecs", package: "Sandnet"),
                .product(name: "SandnetLedger", package: "Sandnet"),
                .product(name: "SandnetLevelDB", package: "Sandnet"),
                "BenchCMalloc",
            ],
            path: "Sources/LedgerProfile"
        ),
        // The same comparisons interleaved A/B in one process (robust to load drift on a shared machine).
        .executableTarget(
            name: "WalletRatios",
            dependencies: [
                .product(name: "SandnetWallet", package: "Sandnet"),
                .product(name: "SandnetCrypto", package: "Sandnet"),
                "BenchCOpenSSL",
            ],
            path: "Sources/WalletRatios"
        ),
    ]
)
