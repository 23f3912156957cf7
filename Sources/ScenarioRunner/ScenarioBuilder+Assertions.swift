import EthereumTypes
import Yams

extension ScenarioBuilder {
    static let assertions = [
        "balance", "nonce", "receipt", "transaction", "block", "nextBaseFee", "logs", "equal", "notEqual", "value",
        "maxPriorityFeePerGas", "gasPrice", "estimateGas", "feeHistory", "icpBalance", "icpAllowance", "tokenBalance",
        "subscription",
    ]

    mutating func assertion(_ entry: YAMLReader.Entry, index: Int) throws(ScenarioFormatError) -> Assertion {
        let what = "\(entry.key) assertion"
        let node = entry.value
        let location = reader.location(entry.keyNode)
        let operators = Clause.Operator.allCases.map(\.rawValue).filter { $0 != "changedBy" }
        switch entry.key {
        case "subscription":
            return Assertion(kind: .subscription(try subscriptionCheck(node, what)), location: location)
        case "tokenBalance":
            let (check, since) = try tokenBalance(node, what)
            if check.checks.contains(where: { $0.op == .changedBy }) {
                baselines.insert(BalanceBaseline(beforeStep: since, account: check.account, token: check.token))
            }
            return Assertion(kind: .tokenBalance(check), location: location)
        case "balance":
            let fields = try reader.mapping(node, what)
            try reader.allow(
                fields,
                ["of", "block", "formatted", "unit", "decimals", "rounding", "since"] + operators + ["changedBy"],
                in: what)
            let account = try accountOrAddress(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let block = try fields.first { $0.key == "block" }.map { e throws(ScenarioFormatError) in
                let selector = try reader.blockSelector(e.value, "\(what) block")
                try checkReferences(selector)
                return selector
            }
            let since = try sinceStep(fields, what: what)
            let checks = try clauses(fields, what: what, allowChange: true, since: since)
            if checks.contains(where: { $0.op == .changedBy }) {
                baselines.insert(BalanceBaseline(beforeStep: since, account: account))
            }
            let formatted = try formattedAmount(fields, what: what)
            if checks.isEmpty && formatted == nil {
                throw reader.error(
                    "\(what) needs a comparison: one of \((operators + ["changedBy", "formatted"]).joined(separator: ", "))",
                    at: node)
            }
            return Assertion(
                kind: .balance(account: account, block: block, checks: checks, formatted: formatted), location: location
            )
        case "nonce":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["of", "pending"] + operators, in: what)
            let account = try accountOrAddress(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let pending =
                try fields.first { $0.key == "pending" }.map { e throws(ScenarioFormatError) in
                    try reader.bool(e.value, "\(what) pending")
                } ?? false
            let checks = try clauses(fields, what: what, allowChange: false, since: nil)
            if checks.isEmpty {
                throw reader.error("\(what) needs a comparison: one of \(operators.joined(separator: ", "))", at: node)
            }
            return Assertion(kind: .nonce(account: account, pending: pending, checks: checks), location: location)
        case "receipt":
            let fields = try reader.mapping(node, what)
            let allowed =
                ["of", "exists"] + FieldCheck.receiptNumberFields.sorted() + FieldCheck.receiptTextFields.sorted()
            try reader.allow(fields, allowed, in: what)
            let tx = try transactionReference(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let exists =
                try fields.first { $0.key == "exists" }.map { e throws(ScenarioFormatError) in
                    try reader.bool(e.value, "\(what) exists")
                } ?? true
            let checks = try fieldChecks(
                fields, numbers: FieldCheck.receiptNumberFields, texts: FieldCheck.receiptTextFields, what: what)
            if !exists && !checks.isEmpty {
                throw ScenarioFormatError(
                    "a receipt that must not exist has no fields to check", at: checks[0].location)
            }
            return Assertion(kind: .receipt(transaction: tx, exists: exists, fields: checks), location: location)
        case "transaction":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["of", "state"], in: what)
            let tx = try transactionReference(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let stateNode = try reader.required(fields, "state", in: what, at: node)
            let text = try reader.scalar(stateNode, "\(what) state")
            guard let state = TransactionState(rawValue: text) else {
                throw reader.error("unknown state '\(text)'; expected pending, mined or unknown", at: stateNode)
            }
            return Assertion(kind: .transaction(transaction: tx, state: state), location: location)
        case "block":
            let fields = try reader.mapping(node, what)
            let allowed =
                ["at", "contains"] + FieldCheck.blockNumberFields.sorted() + FieldCheck.blockTextFields.sorted()
            try reader.allow(fields, allowed, in: what)
            let selector =
                try fields.first { $0.key == "at" }.map { e throws(ScenarioFormatError) in
                    let selector = try reader.blockSelector(e.value, "\(what) at")
                    try checkReferences(selector)
                    return selector
                }
                ?? Template("latest", at: location)
            var contains: [Template] = []
            if let c = fields.first(where: { $0.key == "contains" }) {
                if case .sequence(let items) = c.value {
                    for item in items { contains.append(try transactionReference(item, "\(what) contains")) }
                } else {
                    contains.append(try transactionReference(c.value, "\(what) contains"))
                }
            }
            let checks = try fieldChecks(
                fields, numbers: FieldCheck.blockNumberFields, texts: FieldCheck.blockTextFields, what: what)
            return Assertion(kind: .block(selector: selector, fields: checks, contains: contains), location: location)
        case "nextBaseFee":
            let checks: [Clause]
            if case .scalar = node {
                checks = [Clause(op: .equals, expression: try expression(node, what), sinceStep: nil)]
            } else {
                let fields = try reader.mapping(node, what)
                try reader.allow(fields, operators, in: what)
                checks = try clauses(fields, what: what, allowChange: false, since: nil)
            }
            return Assertion(kind: .nextBaseFee(checks), location: location)
        case "logs":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["of", "count"], in: what)
            let tx = try transactionReference(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let countNode = try reader.required(fields, "count", in: what, at: node)
            let count: [Clause]
            if case .scalar = countNode {
                count = [Clause(op: .equals, expression: try expression(countNode, "\(what) count"), sinceStep: nil)]
            } else {
                let inner = try reader.mapping(countNode, "\(what) count")
                try reader.allow(inner, operators, in: "\(what) count")
                count = try clauses(inner, what: what, allowChange: false, since: nil)
            }
            return Assertion(kind: .logs(transaction: tx, count: count), location: location)
        case "equal", "notEqual":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["actual", "expected"], in: what)
            let actual = try template(try reader.required(fields, "actual", in: what, at: node), "\(what) actual")
            let expected = try template(try reader.required(fields, "expected", in: what, at: node), "\(what) expected")
            return Assertion(
                kind: .equal(actual: actual, expected: expected, negated: entry.key == "notEqual"), location: location)
        case "maxPriorityFeePerGas", "gasPrice":
            let checks: [Clause]
            if case .scalar = node {
                checks = [Clause(op: .equals, expression: try expression(node, what), sinceStep: nil)]
            } else {
                let fields = try reader.mapping(node, what)
                try reader.allow(fields, operators, in: what)
                checks = try clauses(fields, what: what, allowChange: false, since: nil)
            }
            if checks.isEmpty {
                throw reader.error("\(what) needs a comparison: one of \(operators.joined(separator: ", "))", at: node)
            }
            let method = entry.key == "gasPrice" ? "eth_gasPrice" : "eth_maxPriorityFeePerGas"
            return Assertion(kind: .suggestedFee(method: method, checks: checks), location: location)
        case "estimateGas":
            return Assertion(kind: .estimateGas(try estimateSpec(node, what: what)), location: location)
        case "feeHistory":
            return Assertion(kind: .feeHistory(try feeHistorySpec(node, what: what)), location: location)
        case "value":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["of"] + operators, in: what)
            let of = try expression(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let checks = try clauses(fields, what: what, allowChange: false, since: nil)
            if checks.isEmpty {
                throw reader.error("\(what) needs a comparison: one of \(operators.joined(separator: ", "))", at: node)
            }
            return Assertion(kind: .value(of: of, checks: checks), location: location)
        case "icpBalance", "icpAllowance":
            let fields = try reader.mapping(node, what)
            let extra = entry.key == "icpBalance" ? ["subaccount", "changedBy", "since"] : ["spender"]
            try reader.allow(fields, ["of"] + extra + operators, in: what)
            let of = try template(try reader.required(fields, "of", in: what, at: node), "\(what) of")
            let since = try sinceStep(fields, what: what)
            let checks = try clauses(fields, what: what, allowChange: entry.key == "icpBalance", since: since)
            if checks.isEmpty {
                throw reader.error("\(what) needs a comparison: one of \(operators.joined(separator: ", "))", at: node)
            }
            if entry.key == "icpAllowance" {
                let spender = try template(
                    try reader.required(fields, "spender", in: what, at: node), "\(what) spender")
                return Assertion(kind: .icpAllowance(of: of, spender: spender, checks: checks), location: location)
            }
            let subaccount = try fields.first { $0.key == "subaccount" }.map { e throws(ScenarioFormatError) in
                try reader.unsigned(e.value, "\(what) subaccount")
            }
            if checks.contains(where: { $0.op == .changedBy }) {
                baselines.insert(
                    BalanceBaseline(beforeStep: since, account: of.text, icp: true, subaccount: subaccount))
            }
            return Assertion(kind: .icpBalance(of: of, subaccount: subaccount, checks: checks), location: location)
        default:
            var message = "unknown assertion '\(entry.key)'"
            if let guess = YAMLReader.closest(entry.key, in: Self.assertions) {
                message += " (did you mean '\(guess)'?)"
            }
            throw reader.error(
                message + "; expected one of: " + Self.assertions.joined(separator: ", "), at: entry.keyNode)
        }
    }

    /// `since: id` (with `changedBy`): the index of that earlier step.
    func sinceStep(_ fields: [YAMLReader.Entry], what: String) throws(ScenarioFormatError) -> Int? {
        guard let s = fields.first(where: { $0.key == "since" }) else { return nil }
        let id = try reader.scalar(s.value, "\(what) since")
        guard let step = names.steps[id] else {
            throw reader.error(
                "'since' names a step id; \(laterStep(id) ?? "no earlier step has id '\(id)'")", at: s.value)
        }
        guard fields.contains(where: { $0.key == "changedBy" }) else {
            throw reader.error("'since' goes with 'changedBy'", at: s.keyNode)
        }
        return step.index
    }

    /// An account name, or any address: `0x` and 40 hex digits, or a `${…}` giving one.
    func accountOrAddress(_ node: Node, _ what: String) throws(ScenarioFormatError) -> String {
        let text = try reader.scalar(node, what)
        if names.accounts.contains(text) { return text }
        let template = try reader.template(node, what)
        if template.references.isEmpty {
            let hex = text.hasPrefix("0x") ? text.dropFirst(2) : ""
            guard hex.count == 40, hex.allSatisfy(\.isHexDigit) else {
                let known = names.accounts.sorted().joined(separator: ", ")
                throw reader.error(
                    "expected an account name (\(known.isEmpty ? "none defined" : known)) or a 0x address for \(what), "
                        + "found '\(text)'", at: node)
            }
        }
        try checkReferences(template)
        return text
    }

    /// `formatted` with `unit`, `decimals` and `rounding`.
    func formattedAmount(_ fields: [YAMLReader.Entry], what: String) throws(ScenarioFormatError) -> FormattedAmount? {
        func field(_ key: String) -> YAMLReader.Entry? { fields.first { $0.key == key } }
        guard let f = field("formatted") else {
            for key in ["unit", "decimals", "rounding"] {
                if let e = field(key) { throw reader.error("'\(key)' goes with 'formatted'", at: e.keyNode) }
            }
            return nil
        }
        var unit = "ether"
        if let u = field("unit") {
            unit = try reader.scalar(u.value, "\(what) unit")
            guard Units.decimals(of: unit) != nil else {
                throw reader.error("unknown unit '\(unit)' (wei, kwei, mwei, gwei, szabo, finney, ether)", at: u.value)
            }
        }
        let decimals = try field("decimals").map { e throws(ScenarioFormatError) in
            Int(try reader.unsigned(e.value, "\(what) decimals", range: 0...77))
        }
        var rounding = FormattedAmount.Rounding.down
        if let r = field("rounding") {
            let text = try reader.scalar(r.value, "\(what) rounding")
            guard let value = FormattedAmount.Rounding(rawValue: text) else {
                let all = FormattedAmount.Rounding.allCases.map(\.rawValue).joined(separator: ", ")
                throw reader.error("unknown rounding '\(text)'; expected one of: \(all)", at: r.value)
            }
            guard decimals != nil else { throw reader.error("'rounding' goes with 'decimals'", at: r.keyNode) }
            rounding = value
        }
        return FormattedAmount(
            text: try template(f.value, "\(what) formatted"), unit: unit, decimals: decimals, rounding: rounding)
    }

    func estimateSpec(_ node: Node, what: String) throws(ScenarioFormatError) -> EstimateSpec {
        let operators = Clause.Operator.allCases.map(\.rawValue).filter { $0 != "changedBy" }
        let fields = try reader.mapping(node, what)
        try reader.allow(fields, ["from", "to", "value", "data", "error"] + operators, in: what)
        var spec = EstimateSpec(from: nil, to: nil, value: nil, data: nil, checks: [], error: nil)
        for f in fields {
            switch f.key {
            case "from", "to":
                let text = try accountOrAddress(f.value, "\(what) \(f.key)")
                let address =
                    names.accounts.contains(text)
                    ? Template("${\(text).address}", at: reader.location(f.value)) : try template(f.value, f.key)
                if f.key == "from" { spec.from = address } else { spec.to = address }
            case "value": spec.value = try expression(f.value, "\(what) value")
            case "data": spec.data = try template(f.value, "\(what) data")
            case "error": spec.error = try template(f.value, "\(what) error").text
            default: break
            }
        }
        spec.checks = try clauses(fields, what: what, allowChange: false, since: nil)
        if spec.checks.isEmpty == (spec.error == nil) {
            throw reader.error(
                "\(what) needs either a comparison (\(operators.joined(separator: ", "))) or 'error', not both",
                at: node)
        }
        return spec
    }

    func feeHistorySpec(_ node: Node, what: String) throws(ScenarioFormatError) -> FeeHistorySpec {
        let fields = try reader.mapping(node, what)
        try reader.allow(
            fields, ["blocks", "newest", "percentiles", "oldestBlock", "baseFeePerGas", "gasUsedRatio", "reward"],
            in: what)
        func field(_ key: String) -> YAMLReader.Entry? { fields.first { $0.key == key } }
        let blocks = try reader.unsigned(
            try reader.required(fields, "blocks", in: what, at: node), "\(what) blocks", range: 1...1_024)
        let newest =
            try field("newest").map { e throws(ScenarioFormatError) in
                let selector = try reader.blockSelector(e.value, "\(what) newest")
                try checkReferences(selector)
                return selector
            } ?? Template("latest", at: reader.location(node))
        func list(_ entry: YAMLReader.Entry) throws(ScenarioFormatError) -> [Node] {
            guard case .sequence(let items) = entry.value else {
                throw reader.error(
                    "expected a list for \(what) \(entry.key), found \(YAMLReader.describe(entry.value))",
                    at: entry.value)
            }
            return Array(items)
        }
        var spec = FeeHistorySpec(
            blocks: blocks, newest: newest, percentiles: [], oldestBlock: [], baseFeePerGas: nil, gasUsedRatio: nil,
            reward: nil)
        if let p = field("percentiles") {
            var previous = -1.0
            for item in try list(p) {
                let text = try reader.scalar(item, "\(what) percentile")
                guard let value = Double(text), value >= 0, value <= 100, value >= previous else {
                    throw reader.error(
                        "percentiles are numbers from 0 to 100 in increasing order, found '\(text)'", at: item)
                }
                previous = value
                spec.percentiles.append(value)
            }
        }
        if let o = field("oldestBlock") {
            if case .scalar = o.value {
                spec.oldestBlock = [
                    Clause(op: .equals, expression: try expression(o.value, "\(what) oldestBlock"), sinceStep: nil)
                ]
            } else {
                let inner = try reader.mapping(o.value, "\(what) oldestBlock")
                try reader.allow(inner, Clause.Operator.allCases.map(\.rawValue).filter { $0 != "changedBy" }, in: what)
                spec.oldestBlock = try clauses(inner, what: "\(what) oldestBlock", allowChange: false, since: nil)
            }
        }
        if let b = field("baseFeePerGas") {
            var out: [AmountExpression] = []
            for item in try list(b) { out.append(try expression(item, "\(what) baseFeePerGas")) }
            spec.baseFeePerGas = out
        }
        if let g = field("gasUsedRatio") {
            var out: [String] = []
            for item in try list(g) {
                let text = try reader.scalar(item, "\(what) gasUsedRatio")
                guard Double(text) != nil else { throw reader.error("expected a number, found '\(text)'", at: item) }
                out.append(text)
            }
            spec.gasUsedRatio = out
        }
        if let r = field("reward") {
            var rows: [[AmountExpression]] = []
            for row in try list(r) {
                guard case .sequence(let items) = row else {
                    throw reader.error(
                        "expected a list per block (one amount per percentile) for \(what) reward", at: row)
                }
                var out: [AmountExpression] = []
                for item in items { out.append(try expression(item, "\(what) reward")) }
                rows.append(out)
            }
            spec.reward = rows
        }
        return spec
    }

    /// The comparison keys of a mapping (`equals`, `atLeast`, …, `changedBy`) as clauses.
    func clauses(_ fields: [YAMLReader.Entry], what: String, allowChange: Bool, since: Int?) throws(ScenarioFormatError)
        -> [Clause]
    {
        var out: [Clause] = []
        for f in fields {
            guard let op = Clause.Operator(rawValue: f.key) else { continue }
            if op == .changedBy && !allowChange {
                throw reader.error("changedBy applies to balances only", at: f.keyNode)
            }
            out.append(
                Clause(
                    op: op, expression: try expression(f.value, "\(what) \(f.key)"),
                    sinceStep: op == .changedBy ? since : nil))
        }
        return out
    }

    /// Field checks of a receipt or block: a scalar means `equals` (number fields) or an exact text.
    func fieldChecks(_ fields: [YAMLReader.Entry], numbers: Set<String>, texts: Set<String>, what: String)
        throws(ScenarioFormatError) -> [FieldCheck]
    {
        var out: [FieldCheck] = []
        let operators = Clause.Operator.allCases.map(\.rawValue).filter { $0 != "changedBy" }
        for f in fields {
            let location = reader.location(f.keyNode)
            if numbers.contains(f.key) {
                if case .scalar = f.value {
                    let clause = Clause(
                        op: .equals, expression: try expression(f.value, "\(what) \(f.key)"), sinceStep: nil)
                    out.append(FieldCheck(name: f.key, expected: .number([clause]), location: location))
                } else {
                    let inner = try reader.mapping(f.value, "\(what) \(f.key)")
                    try reader.allow(inner, operators, in: "\(what) \(f.key)")
                    let list = try clauses(inner, what: "\(what) \(f.key)", allowChange: false, since: nil)
                    out.append(FieldCheck(name: f.key, expected: .number(list), location: location))
                }
            } else if texts.contains(f.key) {
                let text = try reader.scalar(f.value, "\(what) \(f.key)")
                let value: Template
                if names.accounts.contains(text) {
                    value = Template("${\(text).address}", at: reader.location(f.value))
                } else {
                    value = try template(f.value, "\(what) \(f.key)")
                }
                out.append(FieldCheck(name: f.key, expected: .text(value), location: location))
            }
        }
        return out
    }
}
