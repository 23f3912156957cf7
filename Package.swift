// swift-tools-version: 6.1
// Sandnet: a local proving ground for wallet developers. See README.md.
//
// Layers (dependencies point one way, top to bottom; README "Package layout" describes the same):
//   C system libraries  CSecp256k1, COpenSSL, CLevelDB, CMalloc (glibc's mallopt, for the CLI)  (module maps only)
//   codecs              ByteCoding (hex, base32, CRC-32, LEB128, big-endian integers, principal text)
//                       KeccakHashing, RLPCoding, EthereumTypes, MerkleTrie, CandidCoding, CBORCoding,
//                       ABICoding (the one Solidity ABI codec: wallet, native contracts, node, CLI, fuzzers),
//                       JUnitReporting (the one JUnit XML writer: vector and scenario reports)
//                       JSONCoding (the one JSON value type: exact numbers, ordered members)       (stdlib only)
//   crypto              CryptoCore                       (the only Swift code calling C crypto)
//   storage             KeyValueStorage (protocol + in-memory store), LevelDBStorage (the only code calling LevelDB)
//   wallet              HDWallet                         (BIP-39/32/44; chain-neutral: no addresses)
//     Ethereum          SecretStorage (Web3 Secret Storage v3), EthereumTransactions (addresses of HD keys,
//                       transactions, EIP-191/712, ERC-20 ABI)
//     ICP               ICPIdentity (principals, accounts, request ids), ICPAgent (IC HTTP client, Candid text)
//                       (the Ethereum and ICP wallet targets never depend on each other)
//   seeded randomness   SeededRandom                     (SplitMix64: schedules that replay on every platform)
//   native contracts    NativeContracts                  (ERC-20 profiles, WETH9, Multicall3 without an EVM: pure
//                       functions over a storage view; below the ledger, above the wallet, whose EIP-712 hashing
//                       and signature recovery check permits: wallet <- NativeContracts <- EthereumLedger)
//   ledger cores        EthereumLedger, ICPLedger, ICPLedgerService (the ledger canister's Candid interface)
//                       EthereumLedgerStorage, ICPLedgerStorage (each ledger's owner over a key-value store)
//   a living chain      AmbientTraffic (other users' traffic, fee profiles), ProviderFaults (fault shapes, schedule)
//   markets             MarketData (seeded price paths, CoinGecko granularity, candles; pure, no I/O)
//   nodes               EthereumNode (the Ethereum node, type SandnetNode: a typed API, its faucet; no JSON-RPC);
//                       ICPReplica (the IC HTTP interface, no JSON-RPC)
//   explorer APIs       ExplorerAPI                      (Etherscan's API over the node's typed API; no HTTP)
//   JSON-RPC            JSONRPC (wire types, dispatcher); EthereumRPC (eth/net/web3/txpool/anvil/sandnet methods
//                       over the node's typed API, one file per namespace, errors mapped in one file);
//                       ICPRPC (sandnet_icp* methods, ICP faucet)
//   development network DevNetwork                       (node + replica from one configuration, one method table)
//   server              SandnetServer                    (Hummingbird)
//   scenarios           ScenarioRunner                   (YAML wallet scenarios; Yams, no HTTP server)
//   conformance         Conformance                      (official vector suites)
//   command line        SandnetCLI -> `sandnet`
import PackageDescription

let package = Package(
    name: "Sandnet",
    // Linux and macOS only: the wallet targets call system OpenSSL (libcrypto) and libsecp256k1, which iOS does
    // not ship (see the README, "Platforms").
    platforms: [.macOS(.v14)],
    products: [
        .library(
            name: "SandnetCodecs",
            targets: [
                "ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes", "ABICoding", "MerkleTrie", "CandidCoding",
            ]),
        .library(name: "SandnetCrypto", targets: ["CryptoCore"]),
        .library(name: "SandnetLedger", targets: ["EthereumLedger", "EthereumLedgerStorage", "KeyValueStorage"]),
        .library(name: "SandnetLevelDB", targets: ["LevelDBStorage"]),
        .library(name: "SandnetTesting", targets: ["SandnetServer", "EthereumNode", "EthereumRPC", "DevNetwork"]),
        .library(name: "SandnetICP", targets: ["CBORCoding", "ICPIdentity", "ICPLedger", "ICPLedgerStorage"]),
        .library(name: "SandnetScenarios", targets: ["ScenarioRunner"]),
        .library(name: "SandnetWallet", targets: ["HDWallet", "SecretStorage", "EthereumTransactions"]),
        .executable(name: "sandnet", targets: ["SandnetCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),  // LogEvent (ShutdownLogFilter)
        // X25519, HKDF, ChaCha20-Poly1305, Ed25519 for WalletConnect v2 (already in the graph through swift-certificates)
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
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
        .systemLibrary(name: "CMalloc"),

        // MARK: Codecs (stdlib only)
        .target(name: "ByteCoding"),
        .target(name: "KeccakHashing"),
        .target(name: "RLPCoding"),
        .target(name: "EthereumTypes", dependencies: ["ByteCoding", "KeccakHashing"]),
        // The one Solidity ABI codec: signatures with outputs (as `cast` takes them), selectors, strict decoding with a
        // size budget (shared offsets cannot amplify).
        .target(name: "ABICoding", dependencies: ["ByteCoding", "EthereumTypes", "KeccakHashing"]),
        .target(name: "MerkleTrie", dependencies: ["KeccakHashing", "RLPCoding"]),
        .target(name: "CandidCoding", dependencies: ["ByteCoding"]),
        // Swift source from .did files (pure: a checked DIDProgram in, text out); `sandnet candid generate`.
        .target(name: "CandidCodegen", dependencies: ["CandidCoding"]),
        // JUnit XML reports (the vector report and the scenario report write through it).
        .target(name: "JUnitReporting"),
        // One JSON value type for the whole package: exact numbers (source text), ordered members, bounded parser.
        .target(name: "JSONCoding"),

        // MARK: Crypto over C
        .target(name: "CryptoCore", dependencies: ["CSecp256k1", "COpenSSL"]),
        // BLS12-381 signing in pure Swift (the IC's certificate scheme): fields, G1/G2, RFC 9380 hash_to_G1; SHA-256
        // from CryptoCore. No pairing: the node signs, clients verify.
        .target(name: "BLS12381", dependencies: ["CryptoCore"]),

        // MARK: Storage: the key-value protocol and in-memory store; the LevelDB store (the only code that calls LevelDB)
        .target(name: "KeyValueStorage"),
        .target(name: "LevelDBStorage", dependencies: ["KeyValueStorage", "CLevelDB"]),

        // MARK: Wallet (Foundation allowed: NFKD, JSON, resources; no Linux-only APIs)
        .target(
            name: "HDWallet",
            dependencies: ["ByteCoding", "CryptoCore"],
            exclude: ["Resources/README.md"],
            resources: [.copy("Resources/wordlists")]),
        .target(
            name: "SecretStorage",
            dependencies: ["ByteCoding", "KeccakHashing", "EthereumTypes", "CryptoCore"]),

        .target(
            name: "EthereumTransactions",
            dependencies: [
                "ABICoding", "ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes", "CryptoCore", "HDWallet",
                "JSONCoding",
            ]),

        // MARK: Seeded randomness: SplitMix64 (the same seed replays the same schedule on every platform)
        .target(name: "SeededRandom"),

        // MARK: Market data: seeded price paths per asset and currency, charts and candles from them (pure, no I/O)
        .target(name: "MarketData", dependencies: ["SeededRandom"]),

        // MARK: Native contracts: tokens and Multicall3 as pure functions (no EVM); the ledger calls them
        .target(
            name: "NativeContracts", dependencies: ["ABICoding", "EthereumTypes", "KeccakHashing", "EthereumTransactions"]),

        // MARK: Ledger cores (deterministic, synchronous, no networking)
        .target(
            name: "EthereumLedger",
            dependencies: [
                "ABICoding", "EthereumTypes", "EthereumTransactions", "KeccakHashing", "RLPCoding", "MerkleTrie",
                "NativeContracts",
            ]),
        // The Ethereum ledger's owner over a key-value store: one atomic batch per operation, then the new state.
        .target(
            name: "EthereumLedgerStorage",
            dependencies: [
                "EthereumLedger", "EthereumTypes", "EthereumTransactions", "ByteCoding", "RLPCoding", "KeyValueStorage",
            ]),

        // MARK: A chain that lives (pure, seeded): other users' transactions per block for a fee profile and the fee
        // market they make; provider fault shapes (byte for byte) and their schedule (the server's middleware applies it)
        .target(name: "AmbientTraffic", dependencies: ["EthereumTypes", "EthereumLedger", "SeededRandom"]),
        .target(name: "ProviderFaults", dependencies: ["JSONCoding", "SeededRandom"]),

        // MARK: JSON-RPC wire layer (no HTTP)
        .target(name: "JSONRPC", dependencies: ["JSONCoding"]),

        // MARK: The node: ledger + dev accounts + faucet + filters + ambient traffic, a typed API (no JSON-RPC, no HTTP);
        // its JSON-RPC layer, one file per namespace
        .target(
            name: "EthereumNode",
            dependencies: [
                "ByteCoding", "EthereumTypes", "CryptoCore", "HDWallet", "EthereumTransactions", "EthereumLedger",
                "EthereumLedgerStorage", "KeyValueStorage", "JSONCoding", "NativeContracts", "AmbientTraffic",
                "SeededRandom",
            ]),
        .target(
            name: "EthereumRPC",
            dependencies: [
                "ABICoding", "ByteCoding", "KeccakHashing", "EthereumTypes", "EthereumTransactions", "EthereumLedger",
                "EthereumNode", "JSONCoding", "JSONRPC", "AmbientTraffic", "ExplorerAPI",
            ]),

        // MARK: Explorer APIs: Etherscan's module/action API and its rows, paging and texts, over the node's typed API
        // (no HTTP); the address history query the store's indexes will answer
        .target(
            name: "ExplorerAPI",
            dependencies: [
                "ABICoding", "ByteCoding", "EthereumLedger", "EthereumNode", "EthereumTypes", "JSONCoding",
                "KeccakHashing", "NativeContracts",
            ]),

        // MARK: WalletConnect v2: pairing URI, key agreement, envelopes, relay JWT, the relay's state machine (pure)
        .target(
            name: "WalletConnect",
            dependencies: ["ByteCoding", "JSONCoding", .product(name: "Crypto", package: "swift-crypto")]),
        // A wallet emulator and a dApp emulator speaking the Sign API through a relay (WebSocket client; the node is
        // reached through an injected call, never imported).
        .target(
            name: "WalletConnectEmulators",
            dependencies: [
                "WalletConnect", "ByteCoding", "JSONCoding", "EthereumTransactions", "EthereumTypes",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: HTTP and WebSocket transport (Hummingbird)
        .target(
            name: "SandnetServer",
            dependencies: [
                "DevNetwork", "EthereumNode", "EthereumRPC", "EthereumTypes", "JSONCoding", "JSONRPC", "ByteCoding",
                "EthereumLedger", "ICPReplica", "ICPRPC", "ProviderFaults", "MarketData", "ExplorerAPI", "WalletConnect",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Internet Computer: CBOR codec, identities and accounts, ledger core
        .target(name: "CBORCoding"),
        .target(name: "ICPIdentity", dependencies: ["ByteCoding", "CBORCoding", "CryptoCore", "HDWallet"]),
        .target(
            name: "ICPLedger",
            dependencies: ["ByteCoding", "ICPIdentity", "CBORCoding", "CryptoCore"]),
        // The ICP ledger's owner over a key-value store: change sets written as one batch, then committed.
        .target(
            name: "ICPLedgerStorage",
            dependencies: ["ByteCoding", "CBORCoding", "ICPIdentity", "ICPLedger", "KeyValueStorage"]),
        // The ledger canister's Candid interface: method name + Candid bytes in, Candid reply or reject out.
        .target(name: "ICPLedgerService", dependencies: ["ICPLedger", "ICPIdentity", "CandidCoding"]),
        // The client side of the IC HTTP interface: envelopes, signatures, reading replies (transport injected).
        .target(name: "ICPAgent", dependencies: ["ByteCoding", "CBORCoding", "CandidCoding", "ICPIdentity"]),
        // A development replica: the IC HTTP interface's envelopes, request statuses and certificates (no HTTP).
        .target(
            name: "ICPReplica",
            dependencies: [
                "ByteCoding", "CBORCoding", "CryptoCore", "ICPIdentity", "ICPLedger", "ICPLedgerService", "ICPLedgerStorage",
                "KeyValueStorage", "BLS12381",
            ]),
        // The replica's JSON-RPC methods (sandnet_icp*) and the ICP faucet's rules (RPC method and HTTP route).
        .target(
            name: "ICPRPC",
            dependencies: ["ByteCoding", "ICPIdentity", "ICPLedger", "ICPReplica", "JSONCoding", "JSONRPC"]),

        // MARK: The development network: the Ethereum node + the ICP replica from one configuration (no HTTP)
        .target(
            name: "DevNetwork",
            dependencies: [
                "EthereumNode", "EthereumRPC", "ICPReplica", "ICPRPC", "ICPIdentity", "ICPLedger", "JSONCoding", "JSONRPC",
                "KeyValueStorage",
            ]),
        .testTarget(
            name: "ICPLedgerServiceTests",
            dependencies: ["ICPLedgerService", "ICPLedger", "ICPIdentity", "CandidCoding", "Conformance", "TestSupport"]),
        // MARK: YAML wallet scenarios (in-process node or any JSON-RPC endpoint; never Hummingbird)
        .target(
            name: "ScenarioRunner",
            dependencies: [
                "ABICoding", "ByteCoding", "KeccakHashing", "EthereumTypes", "CryptoCore", "HDWallet", "SecretStorage",
                "EthereumTransactions", "EthereumLedger", "EthereumNode", "EthereumRPC", "DevNetwork", "JSONCoding", "JSONRPC",
                "CandidCoding", "ICPIdentity", "ICPAgent", "ICPLedgerService", "NativeContracts", "JUnitReporting",
                .product(name: "Yams", package: "Yams"),
            ]),

        // MARK: Conformance and command line
        .target(
            name: "Conformance",
            dependencies: [
                "ByteCoding", "RLPCoding", "EthereumTypes", "HDWallet", "SecretStorage",
                "EthereumTransactions", "CandidCoding", "ICPIdentity", "JSONCoding", "JUnitReporting", "SeededRandom",
            ]),
        .executableTarget(
            name: "SandnetCLI",
            dependencies: [
                "ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes", "CryptoCore", "HDWallet", "SecretStorage",
                "EthereumTransactions", "Conformance", "EthereumLedger", "EthereumLedgerStorage", "KeyValueStorage",
                "LevelDBStorage", "EthereumNode", "EthereumRPC", "SandnetServer", "DevNetwork", "JSONCoding", "JSONRPC", "CandidCoding",
                "ICPIdentity", "ICPLedger", "ICPLedgerService", "ICPRPC", "ICPAgent", "ScenarioRunner", "NativeContracts",
                "ProviderFaults", "AmbientTraffic", "CMalloc", "MarketData", "CandidCodegen", "WalletConnect",
                "WalletConnectEmulators", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["Conformance"], path: "Tests/TestSupport"),
        .testTarget(
            name: "CodecTests",
            dependencies: ["ByteCoding", "KeccakHashing", "RLPCoding", "EthereumTypes", "SeededRandom"]),
        .testTarget(name: "ABICodingTests", dependencies: ["ABICoding", "EthereumTypes", "ByteCoding"]),
        .testTarget(
            name: "MerkleTrieTests",
            dependencies: ["MerkleTrie", "ByteCoding", "KeccakHashing", "RLPCoding", "TestSupport"]),
        .testTarget(name: "KeyValueStorageTests", dependencies: ["KeyValueStorage", "LevelDBStorage"]),
        .testTarget(name: "JSONRPCTests", dependencies: ["JSONCoding", "JSONRPC"]),
        .testTarget(name: "WalletConnectTests", dependencies: ["WalletConnect", "ByteCoding", "JSONCoding"]),
        .testTarget(name: "ProviderFaultsTests", dependencies: ["ProviderFaults", "JSONCoding"]),
        .testTarget(name: "AmbientTrafficTests", dependencies: ["AmbientTraffic", "EthereumTypes"]),
        .testTarget(name: "MarketDataTests", dependencies: ["MarketData"]),
        .testTarget(name: "CandidCodingTests", dependencies: ["CandidCoding", "ByteCoding", "Conformance"]),
        // The ledger client generated from LedgerService.candidInterface and checked in (CandidCodegenTests fails when
        // it drifts from a fresh generation), compiled here so generated code builds in CI.
        .target(
            name: "GeneratedLedgerClient", dependencies: ["CandidCoding", "ICPAgent", "ICPIdentity"],
            path: "Tests/GeneratedLedgerClient"),
        .testTarget(
            name: "CandidCodegenTests",
            dependencies: [
                "CandidCodegen", "CandidCoding", "ICPAgent", "ICPIdentity", "ICPLedgerService", "GeneratedLedgerClient",
                "DevNetwork", "SandnetServer", ]),
        .testTarget(
            name: "SandnetServerTests",
            dependencies: [
                "SandnetServer", "EthereumNode", "DevNetwork", "JSONCoding", "JSONRPC", "EthereumTypes",
                "ByteCoding", "TestSupport", "ProviderFaults", "ScenarioRunner", "NativeContracts", "WalletConnect",
                "WalletConnectEmulators",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "EthereumNodeTests",
            dependencies: [
                "EthereumNode", "EthereumRPC", "JSONCoding", "JSONRPC", "EthereumTransactions", "EthereumTypes", "ByteCoding",
                "KeyValueStorage", "EthereumLedger", "KeccakHashing", "NativeContracts", "AmbientTraffic",
            ]),
        .testTarget(
            name: "EthereumLedgerTests",
            dependencies: [
                "EthereumLedger", "EthereumLedgerStorage", "EthereumTypes", "EthereumTransactions", "KeyValueStorage",
                "LevelDBStorage", "MerkleTrie", "ByteCoding", "TestSupport", "NativeContracts", "KeccakHashing",
                "RLPCoding",
            ]),
        .testTarget(
            name: "NativeContractsTests",
            dependencies: [
                "ABICoding", "NativeContracts", "EthereumTypes", "EthereumTransactions", "KeccakHashing", "ByteCoding", "JSONCoding",
            ]),
        .testTarget(name: "BLS12381Tests", dependencies: ["BLS12381", "ByteCoding"]),
        .testTarget(name: "CryptoCoreTests", dependencies: ["CryptoCore", "ByteCoding", "EthereumTypes"]),
        .testTarget(name: "HDWalletTests", dependencies: ["HDWallet", "CryptoCore", "ByteCoding"]),
        .testTarget(name: "SecretStorageTests", dependencies: ["SecretStorage", "ByteCoding", "EthereumTypes"]),
        .testTarget(name: "ConformanceTests", dependencies: ["Conformance", "JSONCoding", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "ScenarioRunnerTests",
            dependencies: ["ScenarioRunner", "EthereumNode", "JSONCoding", "JSONRPC", "EthereumTypes", "TestSupport"]),
        .testTarget(
            name: "EthereumTransactionsTests",
            dependencies: [
                "ABICoding", "EthereumTransactions", "ByteCoding", "EthereumTypes", "KeccakHashing", "RLPCoding",
                "HDWallet", "JSONCoding",
            ]),
        .testTarget(name: "CBORCodingTests", dependencies: ["CBORCoding"]),
        .testTarget(
            name: "ICPIdentityTests", dependencies: ["ICPIdentity", "CBORCoding", "CryptoCore", "ByteCoding", "HDWallet"]),
        .testTarget(
            name: "ICPReplicaTests",
            dependencies: [
                "ICPReplica", "ICPAgent", "ICPLedgerService", "ICPLedger", "ICPLedgerStorage", "ICPIdentity", "CBORCoding",
                "CryptoCore", "ByteCoding", "KeyValueStorage", "CandidCoding", "BLS12381",
            ]),
        .testTarget(
            name: "ICPRPCTests",
            dependencies: ["ICPRPC", "ICPReplica", "ICPLedgerService", "ICPLedger", "ICPIdentity", "JSONCoding", "JSONRPC"]),
        .testTarget(
            name: "DevNetworkTests",
            dependencies: [
                "DevNetwork", "EthereumNode", "ICPIdentity", "ICPLedger", "JSONCoding", "JSONRPC", "KeyValueStorage",
            ]),
        .testTarget(
            name: "ICPLedgerTests",
            dependencies: [
                "ICPLedger", "ICPLedgerStorage", "ICPIdentity", "KeyValueStorage", "LevelDBStorage", "ByteCoding",
            ]),
    ]
)

// MARK: - Fuzzing (issue 10): harness library shared by Fuzz/ (libFuzzer, its own package) and the reproducer tests.
// FuzzHarnesses is test support, not API: its product exists only for the Fuzz/ package's build (Fuzz/run.sh sets
// SANDNET_FUZZ_HARNESSES=1; SwiftPM keys its manifest cache on the environment), so no client of Sandnet sees it.
if Context.environment["SANDNET_FUZZ_HARNESSES"] == "1" {
    package.products.append(.library(name: "SandnetFuzzHarnesses", targets: ["FuzzHarnesses"]))
}
package.targets.append(contentsOf: [
    .target(
        name: "FuzzHarnesses",
        dependencies: [
            "ABICoding", "ByteCoding", "RLPCoding", "EthereumTypes", "EthereumTransactions", "CandidCoding", "CBORCoding",
            "HDWallet", "SecretStorage", "JSONCoding", "JSONRPC", "ScenarioRunner", "EthereumNode", "EthereumLedger",
            "ICPReplica", "ICPLedger", "DevNetwork", "NativeContracts",
        ]),
    .testTarget(name: "FuzzReproducerTests", dependencies: ["FuzzHarnesses"]),
])
// MARK: - End of fuzzing block

