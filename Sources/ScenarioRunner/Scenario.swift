import EthereumTypes
import Foundation

/// Where something sits in a scenario file: 1-based line and column (columns count Unicode scalars, as
/// libyaml does).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// One parsed, validated scenario file: accounts, then steps run in order. Built by ``ScenarioParser``;
/// the YAML format is documented in `docs/scenarios.md`.
public struct Scenario: Sendable {
    /// The scenario's title (`name:`), or the file name without extension.
    public var name: String
    public var description: String?
    /// The file it came from, as given.
    public var file: String
    public var tags: [String]
    /// Settings for the in-process node; an external node cannot honour them all.
    public var node: NodeSettings
    /// `variables:` in file order; values may reference earlier variables.
    public var variables: [(name: String, value: Template)]
    public var accounts: [AccountSpec]
    public var steps: [Step]
    /// Balances to record before a step (index `nil`: before the first step) for `changedBy` assertions.
    public var balanceBaselines: [BalanceBaseline]

    /// Whether any step needs a developer method (`anvil_*`, `evm_*`).
    public var usesDeveloperMethods: Bool { steps.contains { $0.action.developerMethod != nil } }
}

/// `node:` settings for the in-process chain.
public struct NodeSettings: Sendable, Equatable {
    public var chainID: UInt64?
    /// Seconds between faucet claims per address (default 0: no limit).
    public var faucetCooldown: UInt64?
    /// Faucet payout per claim, in wei.
    public var faucetAmount: UInt256?
    /// Block gas limit.
    public var gasLimit: UInt64?
    /// Base fee of the genesis block, in wei.
    public var genesisBaseFee: UInt256?
    /// Where each setting was written, to explain why an external node cannot run the scenario.
    public var locations: [String: SourceLocation] = [:]

    public init() {}

    /// Settings that only the in-process node can apply, by YAML key.
    public var inProcessOnly: [String] {
        var keys: [String] = []
        if faucetCooldown != nil { keys.append("faucetCooldown") }
        if faucetAmount != nil { keys.append("faucetAmount") }
        if gasLimit != nil { keys.append("gasLimit") }
        if genesisBaseFee != nil { keys.append("genesisBaseFee") }
        return keys
    }
}

/// A named account of the scenario and where its key comes from.
public struct AccountSpec: Sendable {
    public enum Source: Sendable, Equatable {
        /// BIP-39 phrase (any wordlist), BIP-32 path, optional passphrase.
        case mnemonic(phrase: Template, path: String, passphrase: Template)
        /// A key derived from the run's seed, the scenario and the account name: fresh on every chain, the
        /// same for the same seed.
        case random
        /// A Web3 Secret Storage v3 file, relative to the scenario file.
        case keystore(path: String, password: Template)
        /// Dev account `i` of the Anvil/Hardhat mnemonic (funded on Sandnet and Anvil).
        case dev(Int)
        /// A raw 32-byte private key.
        case privateKey(Template)
    }

    public var name: String
    public var source: Source
    public var location: SourceLocation
}

/// A balance to record before a step runs.
public struct BalanceBaseline: Sendable, Hashable {
    /// Index of the step before which it is recorded; nil for the start of the scenario.
    public var beforeStep: Int?
    /// An account name or an address (text, `${…}` resolved when recorded); for ICP an account or account text.
    public var account: String
    /// The ICP ledger's balance (in e8s) rather than the Ethereum one.
    public var icp: Bool = false
    public var subaccount: UInt64? = nil
    /// A token (symbol or address) for `tokenBalance` baselines; nil for the ETH balance.
    public var token: String? = nil
}

/// One step: an action, what to expect of it, and an optional id its results are stored under.
public struct Step: Sendable {
    public var index: Int
    public var id: String?
    /// A label for reports (`name:`), else derived from the action.
    public var name: String?
    public var action: StepAction
    public var expectation: Expectation
    public var location: SourceLocation

    /// What reports call the step: "3 send (send1)".
    public var title: String {
        var text = "step \(index + 1) \(action.keyword)"
        if let id { text += " (\(id))" }
        if let name { text += ": \(name)" }
        return text
    }
}

/// `expect:` of a step: success (the default) or an error matched by text and/or JSON-RPC code.
public enum Expectation: Sendable, Equatable {
    case success
    /// `text` matches when the error message contains it (case-insensitive).
    case failure(text: String?, code: Int?)
}

/// A string that may hold `${name}` / `${id.field}` references, resolved when the step runs.
public struct Template: Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public var location: SourceLocation

    public init(_ text: String, at location: SourceLocation) {
        self.text = text
        self.location = location
    }

    public var description: String { text }

    /// The `${…}` references in the text, without the braces.
    public var references: [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { break }
            found.append(String(rest[start.upperBound..<end]))
            rest = rest[rest.index(after: end)...]
        }
        return found
    }
}
