// swift-tools-version: 6.1
// Sandnet: a local proving ground for wallet developers. See README.md.
//
// Layers (dependencies point one way, top to bottom):
//   C system libraries   CSecp256k1, COpenSSL, CLevelDB           (module maps only)
//   codecs               ByteCoding, KeccakHashing, RLPCoding, EthereumTypes   (stdlib only)
//   crypto               CryptoCore                                (the only Swift code calling C crypto)
//   wallet               HDWallet (BIP39/32/44), SecretStorage (Web3 Secret Storage v3 keystores)
//   conformance          Conformance                               (official vector suites)
//   command line         SandnetCLI -> `sandnet`
import PackageDescription

let package = Package(
    name: "Sandnet",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "SandnetCodecs", targets: ["ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes"]),
        .library(name: "SandnetCrypto", targets: ["CryptoCore"]),
        .library(name: "SandnetWallet", targets: ["HDWallet", "SecretStorage"]),
        .executable(name: "sandnet", targets: ["SandnetCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0")
    ],
    targets: [
        // MARK: C system libraries
        .systemLibrary(
            name: "CSecp256k1", pkgConfig: "libsecp256k1",
            providers: [.apt(["libsecp256k1-dev"]), .brew(["secp256k1"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CLevelDB",
            providers: [.apt(["libleveldb-dev"]), .brew(["leveldb"])]),

        // MARK: Codecs (stdlib only)
        .target(name: "ByteCoding"),
        .target(name: "KeccakHashing"),
        .target(name: "RLPCoding"),
        .target(name: "EthereumTypes", dependencies: ["ByteCoding", "KeccakHashing"]),

        // MARK: Crypto over C
        .target(name: "CryptoCore", dependencies: ["CSecp256k1", "COpenSSL"]),

        // MARK: Wallet (Foundation allowed: NFKD, JSON, resources; no Linux-only APIs)
        .target(
            name: "HDWallet",
            dependencies: ["EthereumTypes", "CryptoCore"],
            exclude: ["Resources/README.md"],
            resources: [.copy("Resources/wordlists")]),
        .target(
            name: "SecretStorage",
            dependencies: ["ByteCoding", "KeccakHashing", "EthereumTypes", "CryptoCore"]),

        // MARK: Conformance and command line
        .target(
            name: "Conformance",
            dependencies: [
                "ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes", "CryptoCore", "HDWallet", "SecretStorage",
            ]),
        .executableTarget(
            name: "SandnetCLI",
            dependencies: [
                "ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes", "CryptoCore", "HDWallet", "SecretStorage",
                "Conformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["Conformance"], path: "Tests/TestSupport"),
        .testTarget(name: "CodecTests", dependencies: ["ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes"]),
        .testTarget(name: "CryptoCoreTests", dependencies: ["CryptoCore", "ByteCoding", "EthereumTypes"]),
        .testTarget(name: "HDWalletTests", dependencies: ["HDWallet", "CryptoCore", "ByteCoding", "EthereumTypes"]),
        .testTarget(name: "SecretStorageTests", dependencies: ["SecretStorage", "ByteCoding"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
    ]
)
