import EthereumTypes
import JSONCoding
import JSONRPC

extension ScenarioExecution {
    /// Evaluates every assertion and reports all that fail.
    func check(_ assertions: [Assertion]) async throws {
        var failures: [StepFailure] = []
        for assertion in assertions {
            do {
                try await check(assertion)
            } catch let skip as StepSkip {
                throw skip
            } catch var failure as StepFailure {
                if failure.location == nil { failure.location = assertion.location }
                failures.append(failure)
            } catch {
                failures.append(
                    StepFailure("\(assertion.keyword): \(Self.describe(error))", location: assertion.location))
            }
        }
        if !failures.isEmpty { throw AssertionFailures(failures: failures) }
    }

    func check(_ assertion: Assertion) async throws {
        switch assertion.kind {
        case .balance(let name, let block, let checks, let formatted):
            let address = try self.address(name)
            let selector = try block.map { try blockSelector(try resolve($0)) } ?? "latest"
            let balance = try await self.balance(address, block: selector)
            for clause in checks {
                var actual = SignedAmount(balance)
                var subject = "balance of \(name)"
                if clause.op == .changedBy {
                    guard let before = baselines[BalanceBaseline(beforeStep: clause.sinceStep, account: name)] else {
                        throw StepFailure("no baseline balance was recorded for \(name)")
                    }
                    actual = try SignedAmount.add(SignedAmount(balance), SignedAmount(before, negative: true))
                    let since = clause.sinceStep.map { "step \($0 + 1)" } ?? "the start"
                    subject = "change of \(name)'s balance since \(since)"
                }
                try await compare(subject, actual, clause, location: assertion.location)
            }
            if let formatted {
                let expected = try resolve(formatted.text)
                let actual = Self.format(balance, formatted)
                if Self.normalizedDecimal(actual) != Self.normalizedDecimal(expected) {
                    var how = "in \(formatted.unit)"
                    if let decimals = formatted.decimals {
                        how += " to \(decimals) decimals, rounding \(formatted.rounding.rawValue)"
                    }
                    throw StepFailure(
                        "balance of \(name) formatted \(how)", expected: expected, actual: actual,
                        location: formatted.text.location)
                }
            }
        case .subscription(let check):
            try await checkSubscription(check)
        case .tokenBalance(let check):
            let address = try account(check.account).address
            let balance = try await tokenBalance(try tokenAddress(check.token), of: address)
            for clause in check.checks {
                var actual = SignedAmount(balance)
                var subject = "\(check.token) balance of \(check.account)"
                if clause.op == .changedBy {
                    let key = BalanceBaseline(beforeStep: clause.sinceStep, account: check.account, token: check.token)
                    guard let before = baselines[key] else {
                        throw StepFailure("no baseline \(check.token) balance was recorded for \(check.account)")
                    }
                    actual = try SignedAmount.add(SignedAmount(balance), SignedAmount(before, negative: true))
                    let since = clause.sinceStep.map { "step \($0 + 1)" } ?? "the start"
                    subject = "change of \(check.account)'s \(check.token) balance since \(since)"
                }
                try await compare(subject, actual, clause, location: assertion.location)
            }
        case .nonce(let name, let pending, let checks):
            let address = try self.address(name)
            let result = try await call(
                "eth_getTransactionCount", [.string(address.lowercased), .string(pending ? "pending" : "latest")])
            let nonce = try quantity(result, "eth_getTransactionCount")
            for clause in checks {
                try await compare(
                    "\(pending ? "pending " : "")nonce of \(name)", SignedAmount(nonce), clause,
                    location: assertion.location)
            }
        case .receipt(let transaction, let exists, let fields):
            let hash = try resolve(transaction)
            let receipt = try await call("eth_getTransactionReceipt", [.string(hash)])
            if receipt.isNull != !exists {
                throw StepFailure(
                    "receipt of \(hash)", expected: exists ? "a receipt" : "no receipt",
                    actual: exists
                        ? "no receipt (pending, dropped or removed)"
                        : "mined in block \(receipt["blockNumber"]?.stringValue ?? "?")",
                    transactionHash: hash)
            }
            if exists { try await checkFields(fields, of: receipt, subject: "receipt", hash: hash) }
        case .transaction(let transaction, let state):
            let hash = try resolve(transaction)
            let tx = try await call("eth_getTransactionByHash", [.string(hash)])
            let actual: TransactionState
            if tx.isNull {
                actual = .unknown
            } else if tx["blockNumber"].map({ $0.isNull }) ?? true {
                actual = .pending
            } else {
                actual = .mined
            }
            if actual != state {
                throw StepFailure(
                    "state of transaction", expected: state.rawValue, actual: actual.rawValue, transactionHash: hash)
            }
        case .block(let selector, let fields, let contains):
            let at = try blockSelector(try resolve(selector))
            let block = try await call("eth_getBlockByNumber", [.string(at), .bool(false)])
            if block.isNull { throw StepFailure("block \(at) does not exist", expected: "a block", actual: "null") }
            try await checkFields(fields, of: block, subject: "block \(at)", hash: nil)
            let hashes = Set((block["transactions"]?.arrayValue ?? []).compactMap { $0.stringValue?.lowercased() })
            for template in contains {
                let hash = try resolve(template)
                if !hashes.contains(hash.lowercased()) {
                    throw StepFailure(
                        "block \(at) does not contain the transaction", expected: hash,
                        actual: hashes.isEmpty ? "no transactions" : hashes.sorted().joined(separator: ", "),
                        transactionHash: hash)
                }
            }
        case .nextBaseFee(let checks):
            let fee = try await nextBaseFee()
            for clause in checks {
                try await compare("next base fee", SignedAmount(fee), clause, location: assertion.location)
            }
        case .logs(let transaction, let count):
            let hash = try resolve(transaction)
            let receipt = try await call("eth_getTransactionReceipt", [.string(hash)])
            if receipt.isNull {
                throw StepFailure("logs of \(hash)", expected: "a receipt", actual: "no receipt", transactionHash: hash)
            }
            let logs = receipt["logs"]?.arrayValue ?? []
            for clause in count {
                try await compare(
                    "number of logs", SignedAmount(UInt256(logs.count)), clause, location: assertion.location)
            }
        case .value(let of, let checks):
            let actual = try await evaluate(of)
            for clause in checks { try await compare(of.text, actual, clause, location: assertion.location) }
        case .icpBalance(let of, let subaccount, let checks):
            let account = try icpAccount(of, subaccount: subaccount)
            let e8s = try await icpBalance(account)
            for clause in checks {
                var actual = SignedAmount(UInt256(e8s))
                var subject = "ICP balance of \(of.text) (e8s)"
                if clause.op == .changedBy {
                    let key = BalanceBaseline(
                        beforeStep: clause.sinceStep, account: of.text, icp: true, subaccount: subaccount)
                    guard let before = baselines[key] else {
                        throw StepFailure("no baseline ICP balance was recorded for \(of.text)")
                    }
                    actual = try SignedAmount.add(actual, SignedAmount(before, negative: true))
                    let since = clause.sinceStep.map { "step \($0 + 1)" } ?? "the start"
                    subject = "change of \(of.text)'s ICP balance (e8s) since \(since)"
                }
                try await compare(subject, actual, clause, location: assertion.location)
            }
        case .icpAllowance(let of, let spender, let checks):
            let e8s = try await icpAllowance(
                of: try icpAccount(of, subaccount: nil), spender: try icpAccount(spender, subaccount: nil))
            for clause in checks {
                try await compare(
                    "ICRC-2 allowance of \(spender.text) on \(of.text) (e8s)", SignedAmount(UInt256(e8s)), clause,
                    location: assertion.location)
            }
        case .equal(let actualTemplate, let expectedTemplate, let negated):
            let actual = try resolve(actualTemplate)
            let expected = try resolve(expectedTemplate)
            let same =
                actual.hasPrefix("0x") && expected.hasPrefix("0x")
                ? actual.lowercased() == expected.lowercased() : actual == expected
            if same == negated {
                throw StepFailure(
                    "\(actualTemplate.text) \(negated ? "equals" : "differs from") \(expectedTemplate.text)",
                    expected: negated ? "anything but \(expected)" : expected, actual: actual)
            }
        case .suggestedFee(let method, let checks):
            let fee = try quantity(try await call(method, []), method)
            for clause in checks { try await compare(method, SignedAmount(fee), clause, location: assertion.location) }
        case .estimateGas(let spec):
            try await checkEstimate(spec, location: assertion.location)
        case .feeHistory(let spec):
            try await checkFeeHistory(spec, location: assertion.location)
        }
    }

    /// An account name's address, or the address a text (`0x…`, `${…}`) gives.
    func address(_ nameOrAddress: String) throws -> Address {
        if let account = accounts[nameOrAddress] { return account.address }
        let text = try resolve(Template(nameOrAddress, at: SourceLocation(file: scenario.file, line: 1, column: 1)))
        if let account = accounts[text] { return account.address }
        do { return try Address(parsing: text) } catch { throw StepFailure("'\(text)' is not an address: \(error)") }
    }

    /// A balance as a wallet shows it: in `unit`, cut to `decimals` places by `rounding`, trailing zeros trimmed.
    static func format(_ wei: UInt256, _ formatted: FormattedAmount) -> String {
        let unitDecimals = Units.decimals(of: formatted.unit) ?? 18
        guard let decimals = formatted.decimals, decimals < unitDecimals else {
            return Units.format(wei, decimals: unitDecimals)
        }
        let divisor = Units.powerOfTen(unitDecimals - decimals)
        let (quotient, cut) = wei.quotientAndRemainder(dividingBy: divisor)
        // cut against what is left to the next step, not 2 × cut: at 77 decimals 2 × cut can pass 2^256-1.
        let rest = divisor - cut
        let odd = !quotient.quotientAndRemainder(dividingBy: UInt256(2)).remainder.isZero
        let roundUp: Bool
        switch formatted.rounding {
        case .down: roundUp = false
        case .up: roundUp = !cut.isZero
        case .halfUp: roundUp = cut >= rest
        case .halfEven: roundUp = cut > rest || (cut == rest && odd)
        }
        let kept = roundUp ? quotient + UInt256(1) : quotient
        return Units.format(kept, decimals: decimals)
    }

    func checkEstimate(_ spec: EstimateSpec, location: SourceLocation) async throws {
        var call: [(String, JSON)] = []
        if let from = spec.from { call.append(("from", .string(try resolve(from)))) }
        if let to = spec.to { call.append(("to", .string(try resolve(to)))) }
        if let value = spec.value { call.append(("value", Self.hex(try await amount(value)))) }
        if let data = spec.data { call.append(("data", .string(try resolve(data)))) }
        let outcome: Result<JSON, any Error>
        do {
            outcome = .success(try await self.call("eth_estimateGas", [.object(call)]))
        } catch let skip as StepSkip {
            throw skip
        } catch {
            outcome = .failure(error)
        }
        switch (outcome, spec.error) {
        case (.success(let gas), nil):
            let value = try quantity(gas, "eth_estimateGas")
            for clause in spec.checks {
                try await compare("eth_estimateGas", SignedAmount(value), clause, location: location)
            }
        case (.success(let gas), let text?):
            throw StepFailure(
                "eth_estimateGas succeeded but an error was expected", expected: Self.describeExpected(text, nil),
                actual: gas.stringValue ?? gas.serialized, location: location)
        case (.failure(let error), nil):
            throw StepFailure("eth_estimateGas failed: \(Self.describe(error))", location: location)
        case (.failure(let error), let text?):
            let message = Self.describe(error)
            if !text.isEmpty && !message.lowercased().contains(text.lowercased()) {
                throw StepFailure(
                    "eth_estimateGas failed with a different error", expected: Self.describeExpected(text, nil),
                    actual: message, location: location)
            }
        }
    }

    func checkFeeHistory(_ spec: FeeHistorySpec, location: SourceLocation) async throws {
        let newest = try blockSelector(try resolve(spec.newest))
        let percentiles = JSON.array(spec.percentiles.map { .number(Self.decimalText($0)) })
        let history = try await call("eth_feeHistory", [Self.hex(spec.blocks), .string(newest), percentiles])
        for clause in spec.oldestBlock {
            try await compare(
                "eth_feeHistory oldestBlock", SignedAmount(try quantity(history["oldestBlock"], "oldestBlock")), clause,
                location: location)
        }
        if let expected = spec.baseFeePerGas {
            let actual = try (history["baseFeePerGas"]?.arrayValue ?? []).map { try quantity($0, "baseFeePerGas") }
            var values: [UInt256] = []
            for e in expected { values.append(try await amount(e)) }
            if actual != values {
                throw StepFailure(
                    "eth_feeHistory baseFeePerGas", expected: "[\(values.map(\.description).joined(separator: ", "))]",
                    actual: "[\(actual.map(\.description).joined(separator: ", "))]", location: location)
            }
        }
        if let expected = spec.gasUsedRatio {
            let actual = (history["gasUsedRatio"]?.arrayValue ?? []).map { json -> String in
                if case .number(let text) = json { return text }
                return json.serialized
            }
            let same =
                actual.count == expected.count
                && zip(actual, expected).allSatisfy { Double($0) != nil && Double($0) == Double($1) }
            if !same {
                throw StepFailure(
                    "eth_feeHistory gasUsedRatio", expected: "[\(expected.joined(separator: ", "))]",
                    actual: "[\(actual.joined(separator: ", "))]", location: location)
            }
        }
        if let expected = spec.reward {
            let actual = try (history["reward"]?.arrayValue ?? []).map { row in
                try (row.arrayValue ?? []).map { try quantity($0, "reward") }
            }
            var values: [[UInt256]] = []
            for row in expected {
                var out: [UInt256] = []
                for e in row { out.append(try await amount(e)) }
                values.append(out)
            }
            if actual != values {
                func text(_ rows: [[UInt256]]) -> String {
                    "[" + rows.map { "[" + $0.map(\.description).joined(separator: ", ") + "]" }.joined(separator: ", ")
                        + "]"
                }
                throw StepFailure(
                    "eth_feeHistory reward", expected: text(values), actual: text(actual), location: location)
            }
        }
    }

    /// 25 → "25", 12.5 → "12.5".
    static func decimalText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Compares a number with a clause's expression; the failure shows both.
    func compare(_ subject: String, _ actual: SignedAmount, _ clause: Clause, location: SourceLocation) async throws {
        let expected = try await evaluate(clause.expression)
        if !clause.op.holds(actual, expected) {
            throw StepFailure(
                subject, expected: "\(clause.op.symbol) \(clause.expression.text) = \(expected)",
                actual: actual.description,
                transactionHash: currentTransaction, location: location)
        }
    }

    func checkFields(_ fields: [FieldCheck], of object: JSON, subject: String, hash: String?) async throws {
        for field in fields {
            switch field.expected {
            case .number(let clauses):
                let value: UInt256
                if field.name == "transactionCount" {
                    value = UInt256(object["transactions"]?.arrayValue?.count ?? 0)
                } else {
                    value = try quantity(object[field.name], "\(subject).\(field.name)")
                }
                for clause in clauses {
                    do {
                        try await compare(
                            "\(subject) \(field.name)", SignedAmount(value), clause, location: field.location)
                    } catch var failure as StepFailure {
                        failure.transactionHash = hash
                        throw failure
                    }
                }
            case .text(let template):
                let expected = try resolve(template)
                let actual = object[field.name].map { $0.stringValue ?? $0.serialized } ?? "null"
                if actual.lowercased() != expected.lowercased() {
                    throw StepFailure(
                        "\(subject) \(field.name)", expected: expected, actual: actual, transactionHash: hash,
                        location: field.location)
                }
            }
        }
    }

    /// A block selector for JSON-RPC: tags as they are, decimal numbers as hex quantities.
    func blockSelector(_ text: String) throws -> String {
        guard YAMLReader.isBlockSelector(text) else {
            throw StepFailure("'\(text)' is not a block (\(YAMLReader.blockSelectorHelp))")
        }
        guard let n = UInt64(text) else { return text }
        return "0x" + String(n, radix: 16)
    }

    /// "1.50" and "1.5" and "1.0" and "1" compare equal.
    static func normalizedDecimal(_ text: String) -> String {
        var t = text.trimming(" ")
        guard t.contains(".") else { return t }
        while t.hasSuffix("0") { t.removeLast() }
        if t.hasSuffix(".") { t.removeLast() }
        return t
    }
}
