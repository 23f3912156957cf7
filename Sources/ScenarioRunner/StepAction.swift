import JSONCoding
import SecretStorage

/// What a step does. Each case is one YAML key (see `docs/scenarios.md`).
public enum StepAction: Sendable {
    /// `faucet:` — a claim from the node's faucet (`sandnet_faucet`); on nodes without it, a transfer from
    /// dev account 0.
    case faucet(to: String, amount: AmountExpression?)
    /// `send:` — sign locally and submit with `eth_sendRawTransaction`.
    case send(SendSpec)
    /// `wait:` — until the transaction has a receipt and `confirmations` blocks (mining them on dev nodes).
    case wait(transaction: Template, confirmations: UInt64, timeoutSeconds: Double)
    /// `mine:` — `anvil_mine` `blocks`, `interval` seconds apart.
    case mine(blocks: UInt64, interval: UInt64?)
    /// `advanceTime:` — move the clock forward (in-process: the node's clock; elsewhere `evm_increaseTime`).
    case advanceTime(seconds: UInt64)
    /// `setNextBaseFee:` — `anvil_setNextBlockBaseFeePerGas`.
    case setNextBaseFee(AmountExpression)
    /// `fillBlocks:` — mine `blocks` blocks filled to the gas limit with calldata-heavy transfers from `from`.
    case fillBlocks(blocks: Int, from: String)
    /// `reorg:` — `anvil_reorg(depth)`; with `requeue` the removed transactions go back to the pool.
    case reorg(depth: UInt64, requeue: Bool)
    /// `drop:` — `anvil_dropTransaction`.
    case drop(transaction: Template)
    /// `automine:` — `evm_setAutomine`.
    case automine(Bool)
    /// `feeProfile:` — `sandnet_setFeeProfile`: other users' traffic in the blocks mined after it.
    case feeProfile(String)
    /// `faults:` — `sandnet_setFaults`: the provider-fault schedule of the server's HTTP paths (README, "Provider
    /// faults"). An in-process node has no HTTP, so the step (and the scenario) is skipped there.
    case faults(JSON)
    /// `snapshot:` — `evm_snapshot`, remembered under the given name.
    case snapshot(name: String)
    /// `revert:` — `evm_revert` to a named snapshot.
    case revert(name: String)
    /// `signMessage:` — EIP-191 `personal_sign`, then recovery must give the signer back.
    case signMessage(account: String, message: Template, hex: Bool, compareWithNode: Bool)
    /// `signTypedData:` — EIP-712 v4, then recovery must give the signer back.
    case signTypedData(account: String, json: String, compareWithNode: Bool)
    /// `keystoreExport:` — encrypt an account's key to a v3 keystore (kept by step id; optionally a file).
    case keystoreExport(KeystoreExportSpec)
    /// `keystoreImport:` — decrypt a keystore (a step id or a file) and add it as account `as`.
    case keystoreImport(source: KeystoreSource, password: Template, as: String)
    /// `keystoreChangePassword:` — re-encrypt under a new password (kept by this step's id).
    case keystoreChangePassword(keystore: String, password: Template, newPassword: Template)
    /// `newAccount:` — an account made at run time and added as `as`: from a fresh BIP-39 mnemonic of `words`
    /// words (entropy from the seed), from a phrase known only at run time (`${created.mnemonic}`: a restore),
    /// each derived at `path`; or a bare key (from the seed) when neither is given.
    case newAccount(as: String, mnemonic: NewMnemonic?, path: String, passphrase: Template)
    /// `sendRaw:` — submit signed bytes as they are (`${pay.raw}`: the same transaction again).
    case sendRaw(Template)
    /// `check:` — assertions, all evaluated, all reported.
    case check([Assertion])
    /// `token:` — an ERC-20 `transfer`, `approve`, `transferFrom` or EIP-2612 `permit` as a signed transaction.
    case token(TokenStepSpec)
    /// `subscribe:` — `eth_subscribe` to `newHeads`, `newPendingTransactions` or `logs` (filtered); checked with
    /// the `subscription` assertion under the step's id.
    case subscribe(SubscribeSpec)
    /// ICP ledger steps (`icpFaucet`, `icpAccountId`, `icpTransfer`, `icrc1Transfer`, `icrc2Approve`,
    /// `icrc2TransferFrom`, `icpCall`, `icpAdvanceTime`).
    case icp(ICPStepSpec)

    /// The YAML key.
    public var keyword: String {
        switch self {
        case .faucet: return "faucet"
        case .send: return "send"
        case .wait: return "wait"
        case .mine: return "mine"
        case .advanceTime: return "advanceTime"
        case .setNextBaseFee: return "setNextBaseFee"
        case .fillBlocks: return "fillBlocks"
        case .reorg: return "reorg"
        case .drop: return "drop"
        case .automine: return "automine"
        case .feeProfile: return "feeProfile"
        case .faults: return "faults"
        case .snapshot: return "snapshot"
        case .revert: return "revert"
        case .signMessage: return "signMessage"
        case .signTypedData: return "signTypedData"
        case .keystoreExport: return "keystoreExport"
        case .keystoreImport: return "keystoreImport"
        case .keystoreChangePassword: return "keystoreChangePassword"
        case .newAccount: return "newAccount"
        case .sendRaw: return "sendRaw"
        case .check: return "check"
        case .token: return "token"
        case .subscribe: return "subscribe"
        case .icp(let spec): return spec.kind.rawValue
        }
    }

    /// The developer method the step needs, if any.
    public var developerMethod: String? {
        switch self {
        case .mine: return "anvil_mine"
        case .advanceTime: return "evm_increaseTime"
        case .setNextBaseFee: return "anvil_setNextBlockBaseFeePerGas"
        case .fillBlocks: return "evm_setAutomine"
        case .reorg: return "anvil_reorg"
        case .drop: return "anvil_dropTransaction"
        case .automine: return "evm_setAutomine"
        case .feeProfile: return "sandnet_setFeeProfile"
        case .faults: return "sandnet_setFaults"
        case .snapshot: return "evm_snapshot"
        case .revert: return "evm_revert"
        default: return nil
        }
    }

    /// The fields a step of this kind stores under its id (for `${id.field}`).
    public static func resultFields(of keyword: String) -> [String] {
        switch keyword {
        case "faucet", "send", "token":
            return [
                "hash", "from", "to", "nonce", "value", "gas", "type", "maxFeePerGas", "maxPriorityFeePerGas",
                "gasPrice", "raw", "chainId",
            ]
        case "wait": return ["hash", "blockNumber", "blockHash", "gasUsed", "effectiveGasPrice", "fee", "status"]
        case "mine", "fillBlocks", "reorg": return ["blockNumber", "blockHash", "baseFeePerGas", "timestamp"]
        case "signMessage", "signTypedData": return ["signature", "signer", "digest"]
        case "keystoreExport", "keystoreChangePassword": return ["address", "file", "json", "id", "cipher"]
        case "keystoreImport": return ["address"]
        case "newAccount": return ["address", "privateKey", "mnemonic", "path"]
        case "sendRaw": return ["hash", "raw"]
        case "snapshot": return ["id"]
        default: return ICPStepSpec.Kind(rawValue: keyword).map(ICPStepSpec.resultFields) ?? []
        }
    }
}

/// `send:` — the transaction a wallet builds. Absent fields get wallet defaults: the pending nonce, the
/// node's chain id, intrinsic gas, and fees by the policy below.
public struct SendSpec: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case legacy, eip2930, eip1559
    }

    public var from: String
    /// An account name or a `0x` address (template); nil creates a contract.
    public var to: Template?
    public var value: AmountExpression?
    public var kind: Kind
    public var nonce: AmountExpression?
    public var gas: AmountExpression?
    /// Legacy and EIP-2930; default `eth_gasPrice`.
    public var gasPrice: AmountExpression?
    /// EIP-1559; default `2 × latest base fee + tip` (the common wallet policy).
    public var maxFeePerGas: AmountExpression?
    /// EIP-1559; default `eth_maxPriorityFeePerGas`.
    public var maxPriorityFeePerGas: AmountExpression?
    /// Default: the node's `eth_chainId`.
    public var chainID: AmountExpression?
    public var data: Template?
    public var accessList: [(address: Template, storageKeys: [Template])]
}

/// The mnemonic of a `newAccount` step.
public enum NewMnemonic: Sendable {
    /// A fresh one of this many words.
    case fresh(words: Int)
    /// This phrase (after substitution).
    case phrase(Template)
}

/// `keystoreExport:` options.
public struct KeystoreExportSpec: Sendable {
    public enum KDF: Sendable, Equatable {
        case scrypt(n: UInt64, r: UInt32, p: UInt32)
        case pbkdf2(iterations: Int)
    }

    public var account: String
    public var password: Template
    public var kdf: KDF
    /// Write the file here (relative to the run's working directory) as well.
    public var file: String?
    /// `aes-128-ctr` (default) or web3swift's `aes-128-cbc`.
    public var cipher: KeystoreCipher = .aes128CTR
}

/// Where `keystoreImport:` reads from.
public enum KeystoreSource: Sendable, Equatable {
    /// The keystore a `keystoreExport` / `keystoreChangePassword` step stored under this id.
    case step(String)
    /// A file: relative to the scenario file, or a `${…}` resolved when the step runs (`${saved.file}`, the file a
    /// `keystoreExport` step wrote).
    case file(Template)
}
