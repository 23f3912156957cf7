import AmbientTraffic
import ArgumentParser
import ByteCoding
import DevNetwork
import EthereumLedger
import EthereumNode
import EthereumRPC
import EthereumTypes
import Foundation
import ICPIdentity
import ICPLedger
import ICPLedgerService
import JSONCoding
import JSONRPC
import KeyValueStorage
import LevelDBStorage
import Logging
import MarketData
import ProviderFaults
import SandnetServer

struct NodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        abstract: "Run the fake Sepolia node: JSON-RPC over HTTP and WebSocket with a faucet (Anvil-compatible flags).")

    @Option(name: [.short, .long], help: "Port for HTTP and WebSocket (0 picks a free one).")
    var port = 8545

    @Option(help: "Address to bind. Anything but loopback needs --allow-dev-methods for anvil_/evm_ methods.")
    var host = "127.0.0.1"

    @Flag(help: "Serve developer methods (anvil_*, evm_*, hardhat_*) on a non-loopback --host.")
    var allowDevMethods = false

    @Option(help: "EIP-155 chain id (default: Sepolia's 11155111).")
    var chainId: UInt64 = 11_155_111

    @Option(name: [.short, .long], help: "Number of dev accounts.")
    var accounts = 10

    @Option(help: "Balance of each dev account, in ether.")
    var balance = "10000"

    @Option(name: [.short, .long], help: "Mnemonic for the dev accounts (m/44'/60'/0'/0/i).")
    var mnemonic = "test test test test test test test test test test test junk"

    @Option(name: [.short, .long], help: "Interval mining: a block every N seconds.")
    var blockTime: UInt64?

    @Flag(help: "Mine only on request (evm_mine / anvil_mine).")
    var noMining = false

    @Option(help: "Block gas limit.")
    var gasLimit: UInt64 = 60_000_000

    @Option(help: "Genesis base fee per gas, in wei.")
    var baseFee = "1000000000"

    @Option(help: "Keep the chain in this directory (LevelDB); it survives restarts.")
    var dataDir = ".sandnet/chain"

    @Flag(help: "Keep the chain in memory only (no data directory).")
    var inMemory = false

    @Option(help: "Write a JSON state dump (anvil_dumpState format) to this file on exit.")
    var dumpState: String?

    @Option(help: "Load a JSON state dump into the chain at start.")
    var loadState: String?

    @Flag(help: "Print nothing at start-up.")
    var silent = false

    @Flag(help: "Log as JSON lines (start-up information included).")
    var jsonLog = false

    @Option(help: "Faucet payout per claim, e.g. \"1 ether\" or \"0.05 ether\".")
    var faucetAmount = "1 ether"

    @Option(help: "Wait between claims per address and per IP, e.g. 24h, 30m, 90s (default: none).")
    var faucetCooldown = "0s"

    @Option(help: "Largest request body, in bytes.")
    var maxRequestBytes = 5 << 20

    @Option(help: "Largest JSON-RPC batch (geth's --rpc.batch-request-limit); 0: no limit.")
    var batchLimit = 1_000

    @Option(
        help: "Largest total size of a batch's results, in bytes (geth's --rpc.batch-response-max-size); 0: no limit.")
    var batchResponseMaxSize = 25_000_000

    @Option(help: "Open connections (HTTP and WebSocket) at most; one more is answered 503 and closed.")
    var maxConnections = 128

    @Option(help: "Seconds a new connection has to send its first request head.")
    var headerTimeout = 30.0

    @Option(help: "Seconds before an idle HTTP keep-alive connection is closed.")
    var idleTimeout = 120.0

    @Option(
        help:
            "Per WebSocket connection: replies queued before the node stops reading it, and notifications queued before it is closed (1008)."
    )
    var wsQueueLimit = 10_000

    @Flag(help: "Serve POST /debug/echo (the load tests' baseline route).")
    var debugEcho = false

    @Flag(help: "Accept pre-EIP-155 legacy transactions over RPC (geth: --rpc.allow-unprotected-txs).")
    var allowUnprotectedTxs = false

    @Flag(help: "Do not serve the ICP ledger (IC HTTP interface at /api/v2/…).")
    var noIcp = false

    @Option(help: "ICP balance of each dev identity (m/44'/223'/0'/0/i of --mnemonic), in ICP.")
    var icpBalance = "10000"

    @Option(help: "ICP ledger transfer fee, in e8s.")
    var icpFee: UInt64 = 10_000

    @Option(help: "ICP faucet payout per claim, in ICP.")
    var icpFaucetAmount = "100"

    @OptionGroup var tokenOptions: TokenOptions

    @OptionGroup(title: "WalletConnect v2 relay") var relayOptions: WalletConnectRelayOptions

    @Option(
        help: ArgumentHelp(
            "Other users' traffic: dev (none), quiet, sepolia, daily-swell, spike or stall.",
            discussion: "Switch at run time with sandnet_setFeeProfile. README, \"A chain that lives\"."))
    var feeProfile = "sepolia"

    @Flag(help: "A still chain: no other users' traffic, no empty blocks (--fee-profile dev --empty-block-interval 0).")
    var noAmbient = false

    @Option(help: "With automine, a block every N seconds when nothing else was mined (Sepolia's slot: 12); 0: none.")
    var emptyBlockInterval: UInt64 = 12

    @Flag(
        help: "eth_sendTransaction from any address without its key, as Anvil's --auto-impersonate (dev methods only).")
    var autoImpersonate = false

    @Option(help: "Seed of the other users' traffic (the same seed and profile replay the same transactions).")
    var ambientSeed: UInt64 = 0

    @Option(help: "Seed of the market's price paths (the same seed gives the same prices; README, \"Markets\").")
    var marketSeed: UInt64 = 0

    @Option(help: "Hold one market regime everywhere: calm, volatile, crash, pump or sideways (default: seeded mix).")
    var marketRegime: String?

    @Option(help: "Days of market history charts reach back (1 to 3650).")
    var marketHistoryDays = 365

    @Option(
        help: ArgumentHelp(
            "A scripted market event: KIND,at=TIME[,asset=ID][,duration=S][,change=F] (repeatable).",
            discussion: "KIND: crash, spike, stale, gap, outlier; TIME: Unix seconds or +N/-N from now."))
    var marketEvent: [String] = []

    @Flag(help: "Serve no market routes (/coingecko, /coinbase).")
    var noMarket = false

    @Option(
        help: ArgumentHelp(
            "Chain conditions from the start: JSON {delayBlocks, dropProbability, reorgEvery, reorgDepth, reorgRequeue, seed}.",
            discussion: "README, \"Chain conditions\". Changed at run time with sandnet_setChainConditions."))
    var chainConditions: String?

    @Option(
        help: ArgumentHelp(
            "Provider faults from the start: a JSON schedule {\"seed\", \"rules\": [{\"shape\", …}]} or @FILE holding one.",
            discussion: "Shapes and fields: README, \"Provider faults\". Changed at run time with sandnet_setFaults."))
    var faults: String?

    func validate() throws {
        if blockTime != nil && noMining { throw ValidationError("--block-time and --no-mining exclude each other") }
        if blockTime == 0 { throw ValidationError("--block-time must be at least 1 second") }
        // The limit of interval mining by RPC (evm_setIntervalMining), for the flags too.
        if let blockTime, blockTime > BlockSchedule.maxMiningInterval {
            throw ValidationError("--block-time must be at most one year (31536000 seconds)")
        }
        if emptyBlockInterval > BlockSchedule.maxMiningInterval {
            throw ValidationError("--empty-block-interval must be at most one year (31536000 seconds)")
        }
        if accounts < 0 || accounts > 10_000 { throw ValidationError("--accounts must be between 0 and 10000") }
        if batchLimit < 0 { throw ValidationError("--batch-limit must be 0 (no limit) or more") }
        if batchResponseMaxSize < 0 { throw ValidationError("--batch-response-max-size must be 0 (no limit) or more") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        // A port above 65535 was bound modulo 65536 (70000 listened on 4464); no request fits in 0 bytes.
        if !(0...65_535).contains(port) { throw ValidationError("--port must be between 0 and 65535") }
        if maxRequestBytes < 1 { throw ValidationError("--max-request-bytes must be at least 1") }
        for (flag, seconds) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)] {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw ValidationError("\(flag) must be between 0 and 86400 seconds (more than 0)")
            }
        }
        if wsQueueLimit < 1 { throw ValidationError("--ws-queue-limit must be at least 1") }
    }

    func run() async throws {
        var config = NodeConfiguration()
        config.chain.chainID = chainId
        config.chain.gasLimit = gasLimit
        guard let fee = UInt256(decimal: baseFee) else { throw CLIError("--base-fee must be a whole number of wei") }
        config.chain.genesisBaseFee = fee
        config.chain.fixedBaseFee = fee.isZero
        config.chain.genesisTimestamp = UInt64(Date().timeIntervalSince1970)
        config.mnemonic = mnemonic
        config.accountCount = accounts
        config.accountBalance = try Self.amount(balance, flag: "--balance")
        config.faucetAmount = try Self.amount(faucetAmount, flag: "--faucet-amount")
        config.faucetCooldown = try Self.parseDuration(faucetCooldown, flag: "--faucet-cooldown")
        config.chain.nativeContracts = try tokenOptions.registry()
        config.miningMode = noMining ? .manual : blockTime.map { .interval(seconds: $0) } ?? .automatic
        config.allowUnprotectedTransactions = allowUnprotectedTxs
        guard let profile = FeeProfile(rawValue: feeProfile) else {
            let known = FeeProfile.names.joined(separator: ", ")
            throw CLIError("--fee-profile: unknown profile '\(feeProfile)'; known: \(known)")
        }
        config.ambient.profile = noAmbient ? .dev : profile
        config.ambient.seed = ambientSeed
        config.emptyBlockInterval = noAmbient || emptyBlockInterval == 0 ? nil : emptyBlockInterval
        let loopback = host == "127.0.0.1" || host == "localhost" || host == "::1"
        config.devMethodsEnabled = loopback || allowDevMethods
        config.autoImpersonate = autoImpersonate && config.devMethodsEnabled

        var store: (any KeyValueStore)?
        if !inMemory {
            do {
                try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
                store = try LevelDBStore(path: dataDir)
            } catch {
                throw CLIError("cannot open data directory \(dataDir): \(error)")
            }
        }
        var icp: DevelopmentNetwork.ICPConfiguration?
        if !noIcp {
            var settings = DevelopmentNetwork.ICPConfiguration()
            settings.faucet.payoutE8s = try ICPAmount.parse(icpFaucetAmount, flag: "--icp-faucet-amount")
            settings.identities = min(accounts, 100)
            settings.balance = Tokens(e8s: try ICPAmount.parse(icpBalance, flag: "--icp-balance"))
            settings.fee = Tokens(e8s: icpFee)
            icp = settings
        }
        let network: DevelopmentNetwork
        do {
            network = try DevelopmentNetwork(configuration: .init(ethereum: config, icp: icp), store: store)
        } catch {
            throw CLIError("\(error)")
        }
        let node = network.node
        if let loadState {
            guard let data = FileManager.default.contents(atPath: loadState) else {
                throw CLIError("cannot read \(loadState)")
            }
            // Through anvil_loadState, so the file gets exactly the checks a client's dump gets; a refusal stops the
            // node before it binds (it used to be dropped, leaving a node without the state it was asked to load).
            let reply = network.dispatcher.handle(
                request: JSON.object([
                    ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string("anvil_loadState")),
                    ("params", .array([.string(Hex.encodePrefixed([UInt8](data)))])),
                ]))
            guard reply?["result"] == .bool(true) else {
                let reason = reply?["error"]?["message"]?.stringValue ?? "no answer"
                throw CLIError("--load-state \(loadState): \(reason)")
            }
        }
        if let chainConditions {
            // Through the RPC method, so the flag gets exactly its checks and messages.
            let json: JSON
            do { json = try JSON.parse(chainConditions) } catch {
                throw CLIError("--chain-conditions: not JSON: \(error)")
            }
            let reply = network.dispatcher.handle(
                request: JSON.object([
                    ("jsonrpc", .string("2.0")), ("id", .number("1")),
                    ("method", .string("sandnet_setChainConditions")),
                    ("params", .array([json])),
                ]))
            guard reply?["result"] == .bool(true) else {
                throw CLIError("--chain-conditions: \(reply?["error"]?["message"]?.stringValue ?? "no answer")")
            }
        }
        var server = ServerConfiguration()
        server.host = host
        server.port = port
        server.maxRequestBytes = maxRequestBytes
        server.batchLimit = batchLimit
        server.batchResponseMaxSize = batchResponseMaxSize
        server.maxConnections = maxConnections
        server.headerTimeout = .milliseconds(Int64(headerTimeout * 1_000))
        server.idleTimeout = .milliseconds(Int64(idleTimeout * 1_000))
        server.webSocketQueueLimit = wsQueueLimit
        server.debugEcho = debugEcho
        if let faults { server.faults = try Self.parseFaults(faults) }
        try relayOptions.apply(to: &server)
        server.market = noMarket ? nil : try marketConfiguration(now: Int64(Date().timeIntervalSince1970))
        var logger = Logger(label: "sandnet")
        // --silent keeps the terminal quiet: only warnings and errors from the server.
        logger.logLevel = silent ? .warning : .info
        let app = NodeServer(network: network, configuration: server, logger: logger)
        let banner = Task { [silent, jsonLog, inMemory, dataDir] in
            guard let bound = await app.waitUntilListening(), !silent else { return }
            print(
                StartupBanner.render(
                    node: node, icp: network.icp?.identities ?? [], icpEnabled: network.icp != nil, host: host,
                    port: bound,
                    dataDir: inMemory ? nil : dataDir, json: jsonLog))
            fflush(nil)
        }
        defer { banner.cancel() }
        do {
            try await app.run()
        } catch {
            throw CLIError("server stopped: \(error)")
        }
        if let dumpState {
            let dump = StateDump.dump(node)
            do {
                try Data(dump.bytes).write(to: URL(fileURLWithPath: dumpState), options: .atomic)
            } catch {
                throw CLIError("--dump-state \(dumpState): cannot write the state dump: \(error.localizedDescription)")
            }
        }
    }

    /// `--market-*`: the market simulator's configuration.
    func marketConfiguration(now: Int64) throws -> MarketConfiguration {
        var market = MarketConfiguration()
        market.seed = marketSeed
        if let marketRegime {
            guard let regime = MarketRegime(rawValue: marketRegime) else {
                let known = MarketRegime.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIError("--market-regime: unknown regime '\(marketRegime)'; known: \(known)")
            }
            market.regime = regime
        }
        guard MarketConfiguration.historyDaysRange.contains(marketHistoryDays) else {
            throw CLIError("--market-history-days must be between 1 and 3650")
        }
        market.historyDays = marketHistoryDays
        guard marketEvent.count <= MarketConfiguration.maxEvents else {
            throw CLIError("--market-event: at most \(MarketConfiguration.maxEvents) events")
        }
        do {
            market.events = try marketEvent.map { try MarketEvent(parsing: $0, now: now) }
        } catch {
            throw CLIError("--market-event: \(error)")
        }
        return market
    }

    /// `--faults`: inline JSON, or `@FILE`.
    static func parseFaults(_ text: String) throws -> FaultSchedule {
        var bytes = Array(text.utf8)
        if text.hasPrefix("@") {
            let path = String(text.dropFirst())
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CLIError("--faults: cannot read \(path)")
            }
            bytes = [UInt8](data)
        }
        do {
            return try FaultSchedule(json: try JSON.parse(bytes))
        } catch let error as JSONParseError {
            throw CLIError("--faults: not JSON: \(error)")
        } catch {
            throw CLIError("--faults: \(error)")
        }
    }

    /// "24h", "30m", "90s", "1d", "1h30m" or plain seconds, at most ``QuantityParser/maxDurationSeconds``.
    static func parseDuration(_ text: String, flag: String) throws -> UInt64 {
        do { return try QuantityParser.seconds(text) } catch { throw CLIError("\(flag): \(error)") }
    }

    /// "1.5 ether", "20 gwei" or a number of ether, at most 2^256-1 wei.
    static func amount(_ text: String, flag: String) throws -> UInt256 {
        do { return try QuantityParser.amount(text, defaultUnit: "ether") } catch {
            throw CLIError("\(flag): \(error)")
        }
    }
}

/// Decimal ICP amounts on the command line ("10000", "0.5") as e8s.
enum ICPAmount {
    static func parse(_ text: String, flag: String) throws -> UInt64 {
        let e8s: UInt256
        do throws(QuantityError) {
            e8s = try QuantityParser.amount(text, decimals: 8, limit: UInt256(UInt64.max))
        } catch .invalidAmount {
            throw CLIError("\(flag) must be an amount of ICP with at most 8 decimals, e.g. 100 or 0.5")
        } catch {
            throw CLIError("\(flag): \(error)")
        }
        guard let value = e8s.uint64Value else { throw CLIError("\(flag): more than 2^64-1 e8s") }
        return value
    }
}
