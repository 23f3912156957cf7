/// One assertion of a `check:` step (see `docs/scenarios.md`).
public struct Assertion: Sendable {
    public enum Kind: Sendable {
        /// `balance:` of an account (a name, or any address: `0x…`, `${…}`) at `block` (default latest):
        /// comparisons, `changedBy` since a step, and the balance formatted as a wallet shows it.
        case balance(account: String, block: Template?, checks: [Clause], formatted: FormattedAmount?)
        /// `nonce:` of an account (a name or any address), mined (`eth_getTransactionCount` at latest) or `pending`.
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
        /// `equal:` two resolved strings (hex compared case-insensitively); `notEqual:` the opposite.
        case equal(actual: Template, expected: Template, negated: Bool)
        /// `maxPriorityFeePerGas:` / `gasPrice:` the node's suggestion (`eth_maxPriorityFeePerGas`, `eth_gasPrice`).
        case suggestedFee(method: String, checks: [Clause])
        /// `estimateGas:` `eth_estimateGas` of a call: its gas compared, or the error it must fail with.
        case estimateGas(EstimateSpec)
        /// `feeHistory:` `eth_feeHistory` compared field by field.
        case feeHistory(FeeHistorySpec)
        /// `value:` any amount expression compared with others (`of: "${send1.maxFeePerGas}"`).
        case value(of: AmountExpression, checks: [Clause])
        /// `icpBalance:` of an ICP account (`of` an account name or account text, `subaccount`), in e8s;
        /// `changedBy` since the start or a step.
        case icpBalance(of: Template, subaccount: UInt64?, checks: [Clause])
        /// `icpAllowance:` of `spender` on `of`'s account (ICRC-2), in e8s; expired approvals count as 0.
        case icpAllowance(of: Template, spender: Template, checks: [Clause])
        /// `tokenBalance:` of an account in a token's base units: comparisons and `changedBy` since a step.
        case tokenBalance(TokenBalanceCheck)
        /// `subscription:` what a `subscribe` step's subscription received: how many, and the last one's fields.
        case subscription(SubscriptionCheck)
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
        case .equal(_, _, let negated): return negated ? "notEqual" : "equal"
        case .suggestedFee(let method, _): return method == "eth_gasPrice" ? "gasPrice" : "maxPriorityFeePerGas"
        case .estimateGas: return "estimateGas"
        case .feeHistory: return "feeHistory"
        case .value: return "value"
        case .icpBalance: return "icpBalance"
        case .icpAllowance: return "icpAllowance"
        case .tokenBalance: return "tokenBalance"
        case .subscription: return "subscription"
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
        case equals, notEquals, atLeast, atMost, greaterThan, lessThan, changedBy

        public var symbol: String {
            switch self {
            case .equals: return "=="
            case .notEquals: return "!="
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
            case .notEquals: return actual != expected
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

/// `formatted:` of a balance: the text a wallet shows, in `unit`, optionally cut to `decimals` places by `rounding`.
public struct FormattedAmount: Sendable {
    public enum Rounding: String, Sendable, CaseIterable {
        /// Toward zero: the digits after `decimals` are cut off.
        case down
        /// Away from zero when anything is cut off.
        case up
        /// To nearest, a half away from zero.
        case halfUp
        /// To nearest, a half to the even neighbour (banker's rounding).
        case halfEven
    }

    public var text: Template
    public var unit: String
    /// Places shown; nil shows every significant digit.
    public var decimals: Int?
    public var rounding: Rounding
}

/// `estimateGas:` a call and what its estimate must be.
public struct EstimateSpec: Sendable {
    /// Account names or `0x` addresses (templates).
    public var from: Template?
    public var to: Template?
    public var value: AmountExpression?
    public var data: Template?
    public var checks: [Clause]
    /// The estimate must fail with an error containing this text (`""`: any error).
    public var error: String?
}

/// `feeHistory:` the request and the fields compared.
public struct FeeHistorySpec: Sendable {
    public var blocks: UInt64
    public var newest: Template
    public var percentiles: [Double]
    public var oldestBlock: [Clause]
    /// One expression per entry, compared for equality (the list's length too).
    public var baseFeePerGas: [AmountExpression]?
    /// Decimal texts ("0.5", "1", "0"), compared as numbers.
    public var gasUsedRatio: [String]?
    /// Per block, per percentile.
    public var reward: [[AmountExpression]]?
}
