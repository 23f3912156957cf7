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
            let address = try account(name).address
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
            if let (template, unit) = formatted {
                let expected = try resolve(template)
                let actual = Units.format(balance, decimals: Units.decimals(of: unit) ?? 18)
                if Self.normalizedDecimal(actual) != Self.normalizedDecimal(expected) {
                    throw StepFailure(
                        "balance of \(name) formatted in \(unit)", expected: expected, actual: actual,
                        location: template.location)
                }
            }
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
            let address = try account(name).address
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
                try await compare(
                    "ICP balance of \(of.text) (e8s)", SignedAmount(UInt256(e8s)), clause, location: assertion.location)
            }
        case .icpAllowance(let of, let spender, let checks):
            let e8s = try await icpAllowance(
                of: try icpAccount(of, subaccount: nil), spender: try icpAccount(spender, subaccount: nil))
            for clause in checks {
                try await compare(
                    "ICRC-2 allowance of \(spender.text) on \(of.text) (e8s)", SignedAmount(UInt256(e8s)), clause,
                    location: assertion.location)
            }
        case .equal(let actualTemplate, let expectedTemplate):
            let actual = try resolve(actualTemplate)
            let expected = try resolve(expectedTemplate)
            let same =
                actual.hasPrefix("0x") && expected.hasPrefix("0x")
                ? actual.lowercased() == expected.lowercased() : actual == expected
            if !same {
                throw StepFailure(
                    "\(actualTemplate.text) differs from \(expectedTemplate.text)", expected: expected, actual: actual)
            }
        }
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
        if ["latest", "pending", "earliest", "safe", "finalized"].contains(text) || text.hasPrefix("0x") {
            return text
        }
        guard let n = UInt64(text) else {
            throw StepFailure("'\(text)' is not a block (a number, latest, pending, earliest)")
        }
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
