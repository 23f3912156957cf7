import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding

/// ethereum/tests TransactionTests (`transactions/tt*/`): one test per file, with an expected outcome per fork.
///
/// Each test is checked once, against its newest fork whose rules Sandnet models (Prague, else Cancun, else
/// Shanghai), on chain id 1: decoding, stateless validation (``SignedTransaction/validate(_:)``), and then either
/// the hash, sender, intrinsic gas and a byte-exact re-encoding, or that the expected exception is what we raise
/// (decoding errors must name the field the exception names). Tests with no Shanghai-or-later result are skipped.
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
            let group = file.split(separator: "/").dropFirst().first.map(String.init) ?? file
            for (testName, test) in (document.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                check(test, id: "\(group)/\(testName)", into: &report)
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
            guard Self.outcome(outcome, matches: exception) else {
                report.fail(caseID, input: txbytes, expected: exception, actual: outcome.summary)
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

    /// Decoding-error exceptions and the transaction field each one names (nil: the envelope or any field).
    static let decodingExceptions: [String: [TransactionField]?] = [
        "RLP_ERROR_SIZE": nil, "RLP_ERROR_EOF": nil, "RLP_INVALID_HEADER": nil, "RLP_ERROR_SIZE_LEADING_ZEROS": nil,
        "RLP_TOO_FEW_ELEMENTS": nil, "RLP_TOO_MANY_ELEMENTS": nil,
        "RLP_LEADING_ZEROS_NONCE": [.nonce], "RLP_INVALID_NONCE": [.nonce], "RLP_LEADING_ZEROS_NONCE_SIZE": [.nonce],
        "NONCE_OVERFLOW": [.nonce],
        "RLP_LEADING_ZEROS_GASLIMIT": [.gas], "RLP_INVALID_GASLIMIT": [.gas], "GASLIMIT_OVERFLOW": [.gas],
        "RLP_LEADING_ZEROS_GASPRICE": [.gasPrice, .maxFeePerGas], "GASPRICE_OVERFLOW": [.gasPrice, .maxFeePerGas],
        "RLP_LEADING_ZEROS_BASEFEE": [.maxFeePerGas],
        "RLP_LEADING_ZEROS_PRIORITY_FEE": [.maxPriorityFeePerGas], "PRIORITY_OVERFLOW": [.maxPriorityFeePerGas],
        "RLP_LEADING_ZEROS_VALUE": [.value], "VALUE_OVERFLOW": [.value],
        "RLP_INVALID_DATA": [.data], "RLP_LEADING_ZEROS_DATA_SIZE": [.data],
        "RLP_INVALID_TO": [.to], "ADDRESS_TOO_LONG": [.to], "ADDRESS_TOO_SHORT": [.to],
        "RLP_INVALID_SIGNATURE_R": [.r], "RLP_LEADING_ZEROS_R": [.r],
        "RLP_INVALID_SIGNATURE_S": [.s], "RLP_LEADING_ZEROS_S": [.s],
        "RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_LONG": [.accessList],
        "RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_SHORT": [.accessList],
        "RLP_INVALID_ACCESS_LIST_STORAGE_TOO_LONG": [.accessList],
        "RLP_INVALID_ACCESS_LIST_STORAGE_TOO_SHORT": [.accessList],
    ]

    /// True when `outcome` is the error `exception` (`TransactionException.X`, alternatives joined by `|`) names.
    static func outcome(_ outcome: Outcome, matches exception: String) -> Bool {
        exception.split(separator: "|").contains { alternative in
            let name = alternative.replacingPrefix("TransactionException.")
            switch (name, outcome) {
            case ("TYPE_NOT_SUPPORTED", .undecodable(let e)):
                if case .unsupportedType = e.kind { return true }
                return false
            case ("INTRINSIC_GAS_TOO_LOW", .invalid(_, .intrinsicGasTooLow)),
                ("INTRINSIC_GAS_TOO_LOW", .invalid(_, .floorDataGasTooLow)),
                ("NONCE_TOO_BIG", .invalid(_, .nonceMax)),
                ("INITCODE_SIZE_EXCEEDED", .invalid(_, .maxInitCodeSizeExceeded)),
                ("GAS_LIMIT_EXCEEDS_MAXIMUM", .invalid(_, .gasLimitTooHigh)),
                ("PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS", .invalid(_, .tipAboveFeeCap)),
                ("PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS_2", .invalid(_, .tipAboveFeeCap)),
                ("GASLIMIT_PRICE_PRODUCT_OVERFLOW", .invalid(_, .gasFeeProductOverflow)),
                ("INVALID_CHAINID", .invalid(_, .invalidChainID)),
                ("INVALID_SIGNATURE_VRS", .invalid(_, .invalidSignature)),
                ("EC_RECOVERY_FAIL", .invalid(_, .invalidSignature)):
                return true
            case ("INVALID_CHAINID", .undecodable(let e)):
                return e.kind == .invalidV
            case ("INVALID_SIGNATURE_VRS", .undecodable(let e)):
                return [.v, .yParity, .r, .s].contains(e.field)
            case (_, .undecodable(let e)):
                guard let fields = decodingExceptions[name] else { return false }
                guard let fields else { return true }
                return e.field.map(fields.contains) ?? false
            default:
                return false
            }
        }
    }
}

extension Substring {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : String(self)
    }
}
