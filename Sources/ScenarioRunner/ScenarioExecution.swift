import ByteCoding
import CryptoCore
import EthereumTransactions
import EthereumTypes
import Foundation
import HDWallet
import JSONCoding
import JSONRPC
import KeccakHashing
import SecretStorage
import Synchronization

/// Runs one scenario against one backend, step by step, and records what happened. Not shared between
/// tasks: one execution per scenario.
final class ScenarioExecution {
    let scenario: Scenario
    let backend: any ScenarioBackend
    let seed: UInt64

    var accounts: [String: (address: Address, privateKey: [UInt8])] = [:]
    var variables: [String: String] = [:]
    /// Step id → field → value.
    var results: [String: [String: String]] = [:]
    var baselines: [BalanceBaseline: UInt256] = [:]
    var snapshots: [String: String] = [:]
    /// `subscribe` steps' notifications by step id.
    var subscriptions: [String: NotificationLog] = [:]
    var keystores: [String: SecretStorage.Keystore] = [:]
    var cachedChainID: UInt64?
    var workDirectory: URL?
    /// The hash of the transaction the current step sent, for failure reports.
    var currentTransaction: String?
    /// The id of the step running now.
    var currentStepID: String?

    init(scenario: Scenario, backend: any ScenarioBackend, seed: UInt64) {
        self.scenario = scenario
        self.backend = backend
        self.seed = seed
    }

    deinit {
        for log in subscriptions.values { log.cancel() }
        if let workDirectory { try? FileManager.default.removeItem(at: workDirectory) }
    }

    /// Runs every step in order; stops at the first failure or skip (later steps depend on earlier ones).
    func run() async -> [StepResult] {
        var out: [StepResult] = []
        var stopped: ScenarioStatus?
        for step in scenario.steps {
            if stopped != nil {
                out.append(
                    StepResult(
                        index: step.index, title: step.title, location: step.location, status: .notRun, failures: [],
                        skipReason: nil, transactionHash: nil, seconds: 0))
                continue
            }
            let started = DispatchTime.now().uptimeNanoseconds
            currentTransaction = nil
            currentStepID = step.id
            var result = StepResult(
                index: step.index, title: step.title, location: step.location, status: .passed, failures: [],
                skipReason: nil, transactionHash: nil, seconds: 0)
            do {
                try await recordBaselines(before: step.index)
                try await perform(step)
            } catch let skip as StepSkip {
                result.status = .skipped
                result.skipReason = skip.reason
                stopped = .skipped
            } catch let failure as StepFailure {
                result.status = .failed
                result.failures = [failure]
                stopped = .failed
            } catch let failures as AssertionFailures {
                result.status = .failed
                result.failures = failures.failures
                stopped = .failed
            } catch {
                result.status = .failed
                result.failures = [StepFailure("\(error)", transactionHash: currentTransaction)]
                stopped = .failed
            }
            result.transactionHash = currentTransaction
            result.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            out.append(result)
        }
        return out
    }

    /// Runs a step's action and checks its expectation.
    func perform(_ step: Step) async throws {
        let outcome: Result<[String: String], any Error>
        do {
            outcome = .success(try await execute(step))
        } catch let skip as StepSkip {
            throw skip
        } catch let failures as AssertionFailures {
            throw failures
        } catch {
            outcome = .failure(error)
        }
        switch (outcome, step.expectation) {
        case (.success(let fields), .success):
            if let id = step.id { results[id, default: [:]].merge(fields) { _, new in new } }
        case (.success(let fields), .failure(let text, let code)):
            if let id = step.id { results[id, default: [:]].merge(fields) { _, new in new } }
            throw StepFailure(
                "the step succeeded but an error was expected", expected: Self.describeExpected(text, code),
                actual: "success", transactionHash: currentTransaction)
        case (.failure(let error), .success):
            if let failure = error as? StepFailure { throw failure }
            throw StepFailure(Self.describe(error), transactionHash: currentTransaction)
        case (.failure(let error), .failure(let pattern, let code)):
            // The expected text may refer to earlier results (`duplicate_of = ${t1.blockIndex}`).
            let text = try pattern.map { try resolve(Template($0, at: step.location)) }
            let message = Self.describe(error)
            let actualCode = (error as? RPCError)?.code
            // An empty text means any error (`"x".contains("")` is false in Foundation).
            let textMatches = text.map { $0.isEmpty || message.lowercased().contains($0.lowercased()) } ?? true
            let codeMatches = code.map { $0 == actualCode } ?? true
            if !(textMatches && codeMatches) {
                throw StepFailure(
                    "the step failed with a different error", expected: Self.describeExpected(text, code),
                    actual: actualCode.map { "\(message) (code \($0))" } ?? message, transactionHash: currentTransaction
                )
            }
        }
    }

    static func describeExpected(_ text: String?, _ code: Int?) -> String {
        switch (text, code) {
        case (let t?, let c?): return "error containing \"\(t)\" with code \(c)"
        case (let t?, nil): return "error containing \"\(t)\""
        case (nil, let c?): return "error with code \(c)"
        default: return "an error"
        }
    }

    static func describe(_ error: any Error) -> String {
        if let rpc = error as? RPCError { return rpc.message }
        if let failure = error as? StepFailure { return failure.message }
        return "\(error)"
    }

    // MARK: Accounts

    /// Sets up variables and accounts before the first step.
    func prepare() async throws {
        variables["seed"] = String(seed)
        for (name, value) in scenario.variables { variables[name] = try resolve(value) }
        for spec in scenario.accounts {
            let key: [UInt8]
            switch spec.source {
            case .mnemonic(let phrase, let path, let passphrase):
                key = try Self.derive(phrase: try resolve(phrase), path: path, passphrase: try resolve(passphrase))
            case .random:
                key = randomKey(label: "account:" + spec.name)
            case .keystore(let path, let password):
                do {
                    key = try SecretStorage.Keystore(contentsOf: path).decrypt(password: try resolve(password))
                } catch {
                    throw ScenarioFormatError("account '\(spec.name)': \(error)", at: spec.location)
                }
            case .dev(let index):
                key = try DevAccounts.key(index)
            case .privateKey(let template):
                key = try Hex.decode(try resolve(template))
            }
            try addAccount(spec.name, key: key)
        }
    }

    func addAccount(_ name: String, key: [UInt8]) throws {
        guard Secp256k1.isValidPrivateKey(key), let address = Address(publicKey: try Secp256k1.publicKey(of: key))
        else {
            throw StepFailure("account '\(name)': not a valid secp256k1 private key")
        }
        accounts[name] = (address, key)
    }

    static func derive(phrase: String, path: String, passphrase: String) throws -> [UInt8] {
        let mnemonic = try Mnemonic(phrase: phrase)
        let master = try ExtendedKey(seed: mnemonic.seed(passphrase: passphrase))
        guard let key = try master.derived(try DerivationPath(parsing: path)).privateKey else {
            throw StepFailure("derivation gave no private key")
        }
        return key
    }

    func account(_ name: String) throws -> (address: Address, privateKey: [UInt8]) {
        guard let account = accounts[name] else { throw StepFailure("account '\(name)' is not defined yet") }
        return account
    }

    /// Seeded bytes: keccak256 of the seed, the scenario file, a label and a counter.
    func seededBytes(_ label: String, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var counter: UInt32 = 0
        while out.count < count {
            var input = withUnsafeBytes(of: seed.littleEndian, Array.init)
            input += Array(scenario.file.utf8) + [0] + Array(label.utf8)
            input += withUnsafeBytes(of: counter.littleEndian, Array.init)
            out += Keccak256.hash(input)
            counter += 1
        }
        return Array(out.prefix(count))
    }

    func randomKey(label: String) -> [UInt8] {
        var attempt = 0
        while true {
            let key = seededBytes("\(label)#\(attempt)", count: 32)
            if Secp256k1.isValidPrivateKey(key) { return key }
            attempt += 1
        }
    }

    // MARK: Templates and expressions

    /// Replaces every `${…}` with its value.
    func resolve(_ template: Template) throws -> String {
        guard template.text.contains("${") else { return template.text }
        var out = ""
        var rest = Substring(template.text)
        while let start = rest.range(of: "${") {
            out += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            out += try value(of: String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    func value(of reference: String) throws -> String {
        let parts = reference.split(separator: ".", maxSplits: 1).map(String.init)
        let base = parts[0]
        if parts.count == 1, let variable = variables[base] { return variable }
        if let account = accounts[base] {
            if parts.count > 1 && parts[1] == "privateKey" { return Hex.encodePrefixed(account.privateKey) }
            return account.address.checksummed
        }
        if let fields = results[base] {
            let field = parts.count > 1 ? parts[1] : "hash"
            if let value = fields[field] { return value }
            throw StepFailure("${\(reference)}: step '\(base)' stored no '\(field)'")
        }
        throw StepFailure("${\(reference)} has no value yet (did the step that sets it run and succeed?)")
    }

    func evaluate(_ expression: AmountExpression) async throws -> SignedAmount {
        do {
            return try await evaluate(expression.term)
        } catch let error as ExpressionError {
            throw StepFailure("cannot evaluate '\(expression.text)': \(error.message)", location: expression.location)
        }
    }

    func evaluate(_ term: AmountExpression.Term) async throws -> SignedAmount {
        switch term {
        case .literal(let value): return value
        case .reference(let reference): return try SignedAmount.parse(try value(of: reference))
        case .negate(let inner):
            let value = try await evaluate(inner)
            return SignedAmount(value.magnitude, negative: !value.negative)
        case .binary(let op, let a, let b):
            let left = try await evaluate(a)
            let right = try await evaluate(b)
            switch op {
            case "+": return try SignedAmount.add(left, right)
            case "-": return try SignedAmount.add(left, SignedAmount(right.magnitude, negative: !right.negative))
            case "*": return try SignedAmount.multiply(left, right)
            default: return try SignedAmount.divide(left, right)
            }
        case .function(let name, let argument):
            return SignedAmount(try await function(name, argument))
        }
    }

    func function(_ name: String, _ argument: String?) async throws -> UInt256 {
        switch name {
        case "balance":
            return try await balance(try account(argument ?? "").address, block: "latest")
        case "baseFee":
            return try quantity(try await latestBlock()["baseFeePerGas"], "baseFeePerGas")
        case "nextBaseFee":
            return try await nextBaseFee()
        case "blockNumber":
            return try quantity(try await call("eth_blockNumber", []), "eth_blockNumber")
        case "value":
            return try SignedAmount.parse(try value(of: "\(argument ?? "").value")).magnitude
        default:
            let hash = try value(of: "\(argument ?? "").hash")
            let receipt = try await call("eth_getTransactionReceipt", [.string(hash)])
            if receipt.isNull {
                throw StepFailure(
                    "\(name)(\(argument ?? "")): transaction \(hash) has no receipt (not mined, or removed)",
                    transactionHash: hash)
            }
            if name == "blockBaseFee" {
                let number = try quantity(receipt["blockNumber"], "blockNumber")
                let block = try await call("eth_getBlockByNumber", [Self.hex(number), .bool(false)])
                return try quantity(block["baseFeePerGas"], "baseFeePerGas")
            }
            let gasUsed = try quantity(receipt["gasUsed"], "gasUsed")
            let price = try quantity(receipt["effectiveGasPrice"], "effectiveGasPrice")
            switch name {
            case "gasUsed": return gasUsed
            case "gasPrice": return price
            default: return gasUsed * price
            }
        }
    }

    /// Evaluates an expression that must be a non-negative number.
    func amount(_ expression: AmountExpression) async throws -> UInt256 {
        let value = try await evaluate(expression)
        if value.negative {
            throw StepFailure("'\(expression.text)' is negative (\(value))", location: expression.location)
        }
        return value.magnitude
    }

    func small(_ expression: AmountExpression) async throws -> UInt64 {
        guard let value = try await amount(expression).uint64Value else {
            throw StepFailure("'\(expression.text)' does not fit in 64 bits", location: expression.location)
        }
        return value
    }

    // MARK: Node helpers

    /// A JSON-RPC call; a missing developer method becomes a skip.
    func call(_ method: String, _ params: [JSON]) async throws -> JSON {
        do {
            return try await backend.call(method, params)
        } catch let error as RPCError where error.code == -32601 || error.code == -32004 {
            throw StepSkip("the node at \(backend.label) has no \(method) (\(error.message))")
        }
    }

    func quantity(_ json: JSON?, _ what: String) throws -> UInt256 {
        guard let text = json?.stringValue, text.hasPrefix("0x"), let value = UInt256(hexDigits: text.dropFirst(2))
        else {
            throw StepFailure("the node returned no quantity for \(what) (got \(json?.serialized ?? "nothing"))")
        }
        return value
    }

    func balance(_ address: Address, block: String) async throws -> UInt256 {
        try quantity(try await call("eth_getBalance", [.string(address.lowercased), .string(block)]), "eth_getBalance")
    }

    func latestBlock() async throws -> JSON {
        try await call("eth_getBlockByNumber", [.string("latest"), .bool(false)])
    }

    func nextBaseFee() async throws -> UInt256 {
        let history = try await call("eth_feeHistory", [.string("0x1"), .string("latest"), .array([])])
        guard let fees = history["baseFeePerGas"]?.arrayValue, let last = fees.last else {
            throw StepFailure("eth_feeHistory returned no baseFeePerGas")
        }
        return try quantity(last, "baseFeePerGas")
    }

    func chainID() async throws -> UInt64 {
        if let cachedChainID { return cachedChainID }
        guard let id = try quantity(try await call("eth_chainId", []), "eth_chainId").uint64Value else {
            throw StepFailure("eth_chainId does not fit in 64 bits")
        }
        cachedChainID = id
        return id
    }

    static func hex(_ value: UInt256) -> JSON { .string("0x" + value.hexDigits) }
    static func hex(_ value: UInt64) -> JSON { .string("0x" + String(value, radix: 16)) }

    func recordBaselines(before index: Int?) async throws {
        for baseline in scenario.balanceBaselines where baseline.beforeStep == index {
            if baseline.icp {
                let template = Template(baseline.account, at: SourceLocation(file: scenario.file, line: 1, column: 1))
                do {
                    let account = try icpAccount(template, subaccount: baseline.subaccount)
                    baselines[baseline] = UInt256(try await icpBalance(account))
                } catch let unavailable as ICPUnavailable {
                    throw StepSkip(unavailable.reason)
                }
            } else if let token = baseline.token {
                baselines[baseline] = try await tokenBalance(try tokenAddress(token), of: try address(baseline.account))
            } else {
                baselines[baseline] = try await balance(try address(baseline.account), block: "latest")
            }
        }
    }

    /// On a node the scenario does not start: why its `node:` settings do not hold there, or nil when they all do.
    /// Each setting is read from the node: `chainId` (`eth_chainId`), `gasLimit` (the latest block's),
    /// `genesisBaseFee` (block 0's `baseFeePerGas`); the faucet's settings no standard method reports.
    func unmetNodeSettings() async throws -> String? {
        let settings = scenario.node
        func at(_ key: String) -> String { settings.locations[key].map { " (\($0))" } ?? "" }
        if let wanted = settings.chainID {
            let actual = try await chainID()
            if actual != wanted { return "needs chain id \(wanted); \(backend.label) has \(actual)" }
        }
        if let wanted = settings.gasLimit {
            let actual = try quantity(try await latestBlock()["gasLimit"], "gasLimit")
            if actual != UInt256(wanted) {
                return
                    "needs node.gasLimit \(wanted)\(at("gasLimit")); the latest block on \(backend.label) has \(actual)"
            }
        }
        if let wanted = settings.genesisBaseFee {
            let genesis = try await call("eth_getBlockByNumber", [.string("0x0"), .bool(false)])
            let actual = try quantity(genesis["baseFeePerGas"], "baseFeePerGas of block 0")
            if actual != wanted {
                return
                    "needs node.genesisBaseFee \(wanted) wei\(at("genesisBaseFee")); block 0 on \(backend.label) has \(actual) wei"
            }
        }
        for key in ["faucetCooldown", "faucetAmount"] where settings.inProcessOnly.contains(key) {
            return
                "needs the in-process node: node.\(key)\(at(key)) cannot be read from \(backend.label) (no method reports the faucet's settings)"
        }
        return nil
    }

    /// A directory for files this scenario writes (keystores), removed when it ends.
    func directory() throws -> URL {
        if let workDirectory { return workDirectory }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-scenario-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        workDirectory = url
        return url
    }
}

/// Every failing assertion of a check step.
struct AssertionFailures: Error {
    var failures: [StepFailure]
}

/// The Anvil/Hardhat dev keys (m/44'/60'/0'/0/i of "test test … junk"), derived once per process.
enum DevAccounts {
    static let mnemonic = "test test test test test test test test test test test junk"
    private static let cache = Mutex<(parent: ExtendedKey?, keys: [Int: [UInt8]])>((nil, [:]))

    static func key(_ index: Int) throws -> [UInt8] {
        try cache.withLock { state in
            if let key = state.keys[index] { return key }
            let parent: ExtendedKey
            if let cached = state.parent {
                parent = cached
            } else {
                let seed = try Mnemonic(phrase: mnemonic).seed()
                parent = try ExtendedKey(seed: seed).derived(try DerivationPath(parsing: "m/44'/60'/0'/0"))
                state.parent = parent
            }
            guard let key = try parent.child(UInt32(index)).privateKey else { throw StepFailure("no dev key \(index)") }
            state.keys[index] = key
            return key
        }
    }
}
