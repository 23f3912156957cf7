import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding

/// ethereum/tests TransactionTests (`transactions/tt*/`): one test per file, with an expected outcome per fork.
///
/// Each test is checked once, against its newest fork whose rules Sandnet models (Prague, else Cancun, else
/// Shanghai), on chain id 1: decoding, stateless validation (``SignedTransaction/validate(_:)``), and then either
/// the hash, sender, intrinsic gas and a byte-exact re-encoding, or that the expected exception is what we raise
/// (decoding errors must name the field the exception names; ``exceptionRules`` maps every upstream name, and an
/// unknown name is reported as such). Tests with no Shanghai-or-later result are skipped, and so are expectations
/// that need chain state or a transaction type Sandnet does not model, each with its reason.
public struct TransactionSuite: VectorSuite {
    public let name = "transactions"

    public init() {}

    /// Forks we model, newest first, with the names ethereum/tests uses.
    static let modelledForks: [(name: String, fork: Fork)] = [
        ("Prague", .prague), ("Cancun", .cancun), ("Shanghai", .shanghai),
    ]

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        let files = store.files(in: "transactions", suffix: ".json")
        if files.isEmpty {
            report.fail("load", input: store.path("transactions"), expected: "tt*/*.json files", actual: "none")
        }
        for file in files {
            let document: JSON
            do { document = try store.json(file) } catch {
                report.fail(file, input: file, expected: "readable JSON", actual: "\(error)")
                continue
            }
            let parts = file.split(separator: "/")
            let group = parts.dropFirst().first.map(String.init) ?? file
            let stem = parts.last.map { String($0.dropLast(".json".count)) } ?? file
            for (testName, test) in (document.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                // A test named unlike its file (upstream's ttVValue/ValidChainID1InvalidV01.json holds a test
                // named ValidChainID1InvalidV00) keeps the file in its id, so ids stay unique.
                let id = testName == stem ? "\(group)/\(testName)" : "\(group)/\(stem)/\(testName)"
                check(test, id: id, into: &report)
            }
        }
        return report
    }

    func check(_ test: JSON, id: String, into report: inout SuiteReport) {
        guard let txbytes = test["txbytes"]?.stringValue, let results = test["result"]?.dictionary else {
            report.fail(id, input: test.compactText, expected: "txbytes and result", actual: "missing")
            return
        }
        guard let (forkName, fork) = Self.modelledForks.first(where: { results[$0.name] != nil }) else {
            let newest = results.keys.sorted().joined(separator: ", ")
            report.skip(
                id,
                reason: "no Shanghai-or-later expectation (file has only \(newest)); pre-Shanghai rules not modelled")
            return
        }
        let caseID = "\(id)@\(forkName)"
        let expected = results[forkName]!
        let expectedGas = expected["intrinsicGas"]?.stringValue.flatMap { UInt64($0.dropFirst(2), radix: 16) }
        let outcome = Outcome(txbytes: txbytes, rules: ValidationRules(chainID: 1, fork: fork))

        if let exception = expected["exception"]?.stringValue {
            switch Self.verdict(outcome, exception: exception) {
            case .matches:
                break
            case .differs:
                report.fail(caseID, input: txbytes, expected: exception, actual: outcome.summary)
                return
            case .unknown(let names):
                report.fail(
                    caseID, input: txbytes, expected: exception,
                    actual: "unknown exception name " + names.joined(separator: ", ")
                        + " (not an execution-spec-tests TransactionException Sandnet maps); Sandnet: "
                        + outcome.summary)
                return
            case .skip(let reason):
                report.skip(caseID, reason: reason)
                return
            }
            if let expectedGas, expectedGas != 0, let actual = outcome.intrinsicGas, actual != expectedGas {
                report.fail(caseID, input: txbytes, expected: "intrinsicGas \(expectedGas)", actual: "\(actual)")
                return
            }
            report.pass(caseID)
            return
        }
        guard case .valid(let tx, let sender) = outcome else {
            report.fail(caseID, input: txbytes, expected: "valid transaction", actual: outcome.summary)
            return
        }
        let want = [
            "hash " + (expected["hash"]?.stringValue ?? "?"),
            "sender " + (expected["sender"]?.stringValue?.lowercased() ?? "?"),
            "intrinsicGas " + (expectedGas.map { String($0) } ?? "?"),
            "re-encoding " + txbytes.lowercased(),
        ]
        let got = [
            "hash " + Hex.encodePrefixed(tx.hash),
            "sender " + sender.lowercased,
            "intrinsicGas " + String(tx.intrinsicGas.standard),
            "re-encoding "
                + Hex.encodePrefixed(SignedTransaction(transaction: tx.transaction, signature: tx.signature).encoded),
        ]
        report.check(
            caseID, input: txbytes, expected: want.joined(separator: "; "), actual: got.joined(separator: "; "))
    }

    /// What Sandnet makes of one raw transaction.
    enum Outcome {
        case undecodable(TransactionDecodingError)
        case invalid(SignedTransaction, TransactionValidationError)
        case valid(SignedTransaction, Address)

        init(txbytes: String, rules: ValidationRules) {
            let tx: SignedTransaction
            do { tx = try SignedTransaction(hex: txbytes) } catch {
                self = .undecodable(error)
                return
            }
            do { self = .valid(tx, try tx.validate(rules)) } catch { self = .invalid(tx, error) }
        }

        var intrinsicGas: UInt64? {
            switch self {
            case .undecodable: return nil
            case .invalid(let tx, _), .valid(let tx, _): return tx.intrinsicGas.standard
            }
        }

        var summary: String {
            switch self {
            case .undecodable(let error): return "decoding error: \(error) [field \(error.field?.rawValue ?? "-")]"
            case .invalid(_, let error): return "validation error: \(error.message)"
            case .valid(let tx, let sender): return "valid: hash \(Hex.encodePrefixed(tx.hash)), sender \(sender)"
            }
        }
    }

    /// How one exception name is checked against what Sandnet raises.
    indirect enum ExceptionRule: Sendable {
        /// A decoding error in one of these fields (nil: the envelope or any field).
        case decoding(fields: [TransactionField]?)
        /// A transaction type Sandnet does not decode (the fork predates it).
        case unsupportedType
        /// A legacy `v` that is neither 27/28 nor EIP-155 for a 64-bit chain id.
        case invalidV
        /// A stateless validation error of one of these kinds.
        case validation([ValidationKind])
        /// Any of these.
        case anyOf([ExceptionRule])
        /// The rule of a transaction type Sandnet does not model (3 blob, 4 set code): when Sandnet refuses the
        /// type, the case is skipped with that reason; any other outcome fails.
        case unmodelledType(UInt8)
        /// Needs chain state or a block (balances, account nonces, block gas): a TransactionTest cannot expect it,
        /// so such a case is skipped with the reason named.
        case needsState
    }

    /// The payload-free kinds of ``TransactionValidationError``.
    enum ValidationKind: Sendable, Equatable {
        case intrinsicGasTooLow, floorDataGasTooLow, nonceMax, maxInitCodeSizeExceeded, gasLimitTooHigh
        case invalidChainID, invalidSignature, tipAboveFeeCap, gasFeeProductOverflow

        init(_ error: TransactionValidationError) {
            switch error {
            case .intrinsicGasTooLow: self = .intrinsicGasTooLow
            case .floorDataGasTooLow: self = .floorDataGasTooLow
            case .nonceMax: self = .nonceMax
            case .maxInitCodeSizeExceeded: self = .maxInitCodeSizeExceeded
            case .gasLimitTooHigh: self = .gasLimitTooHigh
            case .invalidChainID: self = .invalidChainID
            case .invalidSignature: self = .invalidSignature
            case .tipAboveFeeCap: self = .tipAboveFeeCap
            case .gasFeeProductOverflow: self = .gasFeeProductOverflow
            }
        }
    }

    /// Every `TransactionException` of ethereum/execution-spec-tests (`src/ethereum_test_exceptions/exceptions.py`,
    /// the names ethereum/tests TransactionTests use) and how Sandnet's outcome is matched against it.
    static let exceptionRules: [String: ExceptionRule] = [
        "TYPE_NOT_SUPPORTED": .unsupportedType,
        "SENDER_NOT_EOA": .needsState,
        "ADDRESS_TOO_SHORT": .decoding(fields: [.to]),
        "ADDRESS_TOO_LONG": .decoding(fields: [.to]),
        "NONCE_MISMATCH_TOO_HIGH": .needsState,
        "NONCE_MISMATCH_TOO_LOW": .needsState,
        "NONCE_TOO_BIG": .validation([.nonceMax]),
        "NONCE_IS_MAX": .validation([.nonceMax]),
        "NONCE_OVERFLOW": .decoding(fields: [.nonce]),
        "GASLIMIT_OVERFLOW": .decoding(fields: [.gas]),
        "VALUE_OVERFLOW": .decoding(fields: [.value]),
        "GASPRICE_OVERFLOW": .decoding(fields: [.gasPrice, .maxFeePerGas]),
        "GASLIMIT_PRICE_PRODUCT_OVERFLOW": .validation([.gasFeeProductOverflow]),
        "INVALID_SIGNATURE_VRS": .anyOf([.validation([.invalidSignature]), .decoding(fields: [.v, .yParity, .r, .s])]),
        "RLP_INVALID_SIGNATURE_R": .decoding(fields: [.r]),
        "RLP_INVALID_SIGNATURE_S": .decoding(fields: [.s]),
        "RLP_LEADING_ZEROS_GASLIMIT": .decoding(fields: [.gas]),
        "RLP_LEADING_ZEROS_GASPRICE": .decoding(fields: [.gasPrice, .maxFeePerGas]),
        "RLP_LEADING_ZEROS_VALUE": .decoding(fields: [.value]),
        "RLP_LEADING_ZEROS_NONCE": .decoding(fields: [.nonce]),
        "RLP_LEADING_ZEROS_R": .decoding(fields: [.r]),
        "RLP_LEADING_ZEROS_S": .decoding(fields: [.s]),
        "RLP_LEADING_ZEROS_V": .decoding(fields: [.v, .yParity]),
        "RLP_LEADING_ZEROS_BASEFEE": .decoding(fields: [.maxFeePerGas]),
        "RLP_LEADING_ZEROS_PRIORITY_FEE": .decoding(fields: [.maxPriorityFeePerGas]),
        "RLP_LEADING_ZEROS_DATA_SIZE": .decoding(fields: [.data]),
        "RLP_LEADING_ZEROS_NONCE_SIZE": .decoding(fields: [.nonce]),
        "RLP_TOO_FEW_ELEMENTS": .decoding(fields: nil),
        "RLP_TOO_MANY_ELEMENTS": .decoding(fields: nil),
        "RLP_ERROR_EOF": .decoding(fields: nil),
        "RLP_ERROR_SIZE": .decoding(fields: nil),
        "RLP_ERROR_SIZE_LEADING_ZEROS": .decoding(fields: nil),
        "INVALID_CHAINID": .anyOf([.validation([.invalidChainID]), .invalidV]),
        "RLP_INVALID_DATA": .decoding(fields: [.data]),
        "RLP_INVALID_GASLIMIT": .decoding(fields: [.gas]),
        "RLP_INVALID_NONCE": .decoding(fields: [.nonce]),
        "RLP_INVALID_TO": .decoding(fields: [.to]),
        "RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_LONG": .decoding(fields: [.accessList]),
        "RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_SHORT": .decoding(fields: [.accessList]),
        "RLP_INVALID_ACCESS_LIST_STORAGE_TOO_LONG": .decoding(fields: [.accessList]),
        "RLP_INVALID_ACCESS_LIST_STORAGE_TOO_SHORT": .decoding(fields: [.accessList]),
        "RLP_INVALID_HEADER": .decoding(fields: nil),
        "RLP_INVALID_VALUE": .decoding(fields: [.value]),
        "EC_RECOVERY_FAIL": .validation([.invalidSignature]),
        "INSUFFICIENT_ACCOUNT_FUNDS": .needsState,
        "INSUFFICIENT_MAX_FEE_PER_GAS": .needsState,
        "PRIORITY_OVERFLOW": .decoding(fields: [.maxPriorityFeePerGas]),
        "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS": .validation([.tipAboveFeeCap]),
        "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS_2": .validation([.tipAboveFeeCap]),
        "INSUFFICIENT_MAX_FEE_PER_BLOB_GAS": .needsState,
        "INTRINSIC_GAS_TOO_LOW": .validation([.intrinsicGasTooLow, .floorDataGasTooLow]),
        "INTRINSIC_GAS_BELOW_FLOOR_GAS_COST": .validation([.floorDataGasTooLow]),
        "INITCODE_SIZE_EXCEEDED": .validation([.maxInitCodeSizeExceeded]),
        "TYPE_3_TX_PRE_FORK": .unsupportedType,
        "TYPE_3_TX_ZERO_BLOBS_PRE_FORK": .unsupportedType,
        "TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH": .unmodelledType(3),
        "TYPE_3_TX_WITH_FULL_BLOBS": .unmodelledType(3),
        "TYPE_3_TX_BLOB_COUNT_EXCEEDED": .unmodelledType(3),
        "TYPE_3_TX_CONTRACT_CREATION": .unmodelledType(3),
        "TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED": .needsState,
        "GAS_ALLOWANCE_EXCEEDED": .needsState,
        "GAS_LIMIT_EXCEEDS_MAXIMUM": .validation([.gasLimitTooHigh]),
        "TYPE_3_TX_ZERO_BLOBS": .unmodelledType(3),
        "TYPE_4_EMPTY_AUTHORIZATION_LIST": .unmodelledType(4),
        "TYPE_4_INVALID_AUTHORITY_SIGNATURE": .unmodelledType(4),
        "TYPE_4_INVALID_AUTHORITY_SIGNATURE_S_TOO_HIGH": .unmodelledType(4),
        "TYPE_4_TX_CONTRACT_CREATION": .unmodelledType(4),
        "TYPE_4_INVALID_AUTHORIZATION_FORMAT": .unmodelledType(4),
        "TYPE_4_TX_PRE_FORK": .unsupportedType,
    ]

    /// The names whose rule is a decoding error, with the fields it may name (nil: any); the adapter runner sends
    /// these to `tx.recover`.
    static var decodingExceptions: [String: [TransactionField]?] {
        var table: [String: [TransactionField]?] = [:]
        for (name, rule) in exceptionRules {
            if case .decoding(let fields) = rule { table[name] = .some(fields) }
        }
        return table
    }

    /// The exception names Sandnet maps (without the `TransactionException.` prefix), sorted.
    public static var mappedExceptionNames: [String] { exceptionRules.keys.sorted() }

    /// What an expected exception makes of Sandnet's outcome.
    enum Verdict: Equatable {
        case matches
        case differs
        /// Names that are not `TransactionException.X` for a mapped X.
        case unknown([String])
        case skip(String)
    }

    /// Checks `outcome` against `exception` (`TransactionException.X`, alternatives joined by `|`): a match on any
    /// alternative passes; an unknown name is reported as such, never as a plain mismatch.
    static func verdict(_ outcome: Outcome, exception: String) -> Verdict {
        var rules: [(name: String, rule: ExceptionRule)] = []
        var unknown: [String] = []
        for alternative in exception.split(separator: "|") {
            let prefix = "TransactionException."
            if alternative.hasPrefix(prefix), let rule = exceptionRules[String(alternative.dropFirst(prefix.count))] {
                rules.append((String(alternative), rule))
            } else {
                unknown.append("'\(alternative)'")
            }
        }
        if !unknown.isEmpty { return .unknown(unknown) }
        if rules.contains(where: { matches(outcome, $0.rule) }) { return .matches }
        let reasons = rules.compactMap { skipReason(outcome, name: $0.name, rule: $0.rule) }
        if reasons.count == rules.count, let first = reasons.first { return .skip(first) }
        return .differs
    }

    static func matches(_ outcome: Outcome, _ rule: ExceptionRule) -> Bool {
        switch (rule, outcome) {
        case (.anyOf(let rules), _):
            return rules.contains { matches(outcome, $0) }
        case (.unsupportedType, .undecodable(let e)):
            if case .unsupportedType = e.kind { return true }
            return false
        case (.invalidV, .undecodable(let e)):
            return e.kind == .invalidV
        case (.decoding(let fields), .undecodable(let e)):
            guard let fields else { return true }
            return e.field.map(fields.contains) ?? false
        case (.validation(let kinds), .invalid(_, let e)):
            return kinds.contains(ValidationKind(e))
        default:
            return false
        }
    }

    /// Why a case whose rule Sandnet cannot decide is skipped, or nil when it must be decided.
    static func skipReason(_ outcome: Outcome, name: String, rule: ExceptionRule) -> String? {
        switch rule {
        case .needsState:
            return "expects \(name), which needs chain state or a block; TransactionTests are stateless"
        case .unmodelledType(let type):
            guard case .undecodable(let e) = outcome, e.kind == .unsupportedType(type) else { return nil }
            let what = type == 3 ? "blob (type 3)" : "set-code (type 4)"
            return "expects \(name); \(what) transactions are not modelled (Sandnet refuses the type)"
        default:
            return nil
        }
    }
}
