// swift-tools-version: 6.1
// libFuzzer targets for Sandnet's decoders, in their own package so that `--sanitize=fuzzer` builds never touch
// the main package's other products (see ../shared/reference/toolchain.md §4). One executable serves every target
// (`--target=NAME`), so a fuzzing run needs one release link. Run: `Fuzz/run.sh TARGET SECONDS`.
// SandnetFuzzHarnesses is declared by ../Package.swift only when SANDNET_FUZZ_HARNESSES=1 (run.sh sets it).
import PackageDescription

let package = Package(
    name: "SandnetFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "Sandnet", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "SandnetFuzz",
            dependencies: [.product(name: "SandnetFuzzHarnesses", package: "Sandnet")],
            path: "Sources/SandnetFuzz"
        )
    ]
)
