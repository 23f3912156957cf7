/// One assertion of a `check:` step (see `docs/scenarios.md`).
public struct Assertion: Sendable {
    public enum Kind: Sendable {
        /// `balance:` of an account at `block` (default latest): comparisons, `changedBy` since a step, and
        /// the balance formatted in a unit (`formatted: "0.9"`, as a wallet shows it).
        case balance(account: String, block: Template?, checks: [Clause], formatted: (text: Template, unit: String)?)
        /// `nonce:` of an account, mined (`eth_getTransactionCount` at latest) or `pending`.
        case nonce(account: String, pending: Bool, checks: [Clause])
        /// `receipt:` of a transaction: whether it `exists`, and its fields.
        case receipt(transaction: Template, exists: Bool, fields: [FieldCheck])
        /// `transaction:` state: `pending`, `mined` or `unknown`.
        case transaction(transaction: Template, state: TransactionState)
        /// `block:` fields of a block (number, `latest`, `pending`) and transactions it must `contain`.
        case block(selector: Template, fields: [FieldCheck], contains: [Template])
        /// `nextBaseFee:` the base fee of the next block (`eth_feeHistory`'s last entry).
        case nextBaseFee([Clause])
        /// `logs:` of a transaction's receipt: count, and the emitting address.
        case logs(transaction: Template, count: [Clause])
        /// `equal:` two resolved strings (hex compared case-insensitively).
        case equal(actual: Template, expected: Template)
        /// `value:` any amount expression compared with others (`of: "${send1.maxFeePerGas}"`).
        case value(of: AmountExpression, checks: [Clause])
        /// `icpBalance:` of an ICP account (`of` an account name or account text, `subaccount`), in e8s.
        case icpBalance(of: Template, subaccount: UInt64?, checks: [Clause])
        /// `icpAllowance:` of `spender` on `of`'s account (ICRC-2), in e8s; expired approvals count as 0.
        case icpAllowance(of: Template, spender: Template, checks: [Clause])
        /// `tokenBalance:` of an account in a token's base units: comparisons and `changedBy` since a step.
        case tokenBalance(TokenBalanceCheck)
    }

    public var kind: Kind
    public var location: SourceLocation

    /// The YAML key.
    public var keyword: String {
        switch kind {
        case .balance: return "balance"
        case .nonce: return "nonce"
        case .receipt: return "receipt"
        case .transaction: return "transaction"
        case .block: return "block"
        case .nextBaseFee: return "nextBaseFee"
        case .logs: return "logs"
        case .equal: return "equal"
        case .value: return "value"
        case .icpBalance: return "icpBalance"
        case .icpAllowance: return "icpAllowance"
        case .tokenBalance: return "tokenBalance"
        }
    }
}

/// A transaction's state as a wallet sees it.
public enum TransactionState: String, Sendable, CaseIterable {
    /// Known to the node, no receipt yet.
    case pending
    /// Has a receipt.
    case mined
    /// The node does not know it (dropped, replaced, or removed by a reorg and not requeued).
    case unknown
}

/// A comparison of a number with an expression.
public struct Clause: Sendable {
    public enum Operator: String, Sendable, CaseIterable {
        case equals, atLeast, atMost, greaterThan, lessThan, changedBy

        public var symbol: String {
            switch self {
            case .equals: return "=="
            case .atLeast: return ">="
            case .atMost: return "<="
            case .greaterThan: return ">"
            case .lessThan: return "<"
            case .changedBy: return "changed by"
            }
        }

        func holds(_ actual: SignedAmount, _ expected: SignedAmount) -> Bool {
            switch self {
            case .equals, .changedBy: return actual == expected
            case .atLeast: return actual >= expected
            case .atMost: return actual <= expected
            case .greaterThan: return actual > expected
            case .lessThan: return actual < expected
            }
        }
    }

    public var op: Operator
    public var expression: AmountExpression
    /// For `changedBy`: the step before which the baseline was recorded (nil: the scenario's start).
    public var sinceStep: Int?
}

/// A field of a receipt or block and what it must be.
public struct FieldCheck: Sendable {
    public enum Expected: Sendable {
        case number([Clause])
        case text(Template)
    }

    public var name: String
    public var expected: Expected
    public var location: SourceLocation

    /// Fields compared as numbers (the rest as text, hex case-insensitively).
    public static let receiptNumberFields: Set<String> = [
        "status", "blockNumber", "gasUsed", "cumulativeGasUsed", "effectiveGasPrice", "transactionIndex", "type",
    ]
    public static let receiptTextFields: Set<String> = [
        "transactionHash", "blockHash", "from", "to", "contractAddress",
    ]
    public static let blockNumberFields: Set<String> = [
        "number", "baseFeePerGas", "gasUsed", "gasLimit", "timestamp", "transactionCount",
    ]
    public static let blockTextFields: Set<String> = ["hash", "parentHash", "miner"]
}
