import ScenarioRunner
import Testing

/// A malformed file fails at load time with file:line:column and what was expected there.
@Suite struct MalformedScenarioTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var yaml: String
        var error: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "YAML syntax", yaml: "steps:\n  - send: {from: a\n",
            error: "bad.yaml:3:1: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at 2:11)"
        ),
        Case(
            label: "not a mapping", yaml: "- one\n- two\n",
            error: "bad.yaml:1:1: expected a mapping (key: value) for a scenario (name, accounts, steps), found a list"),
        Case(
            label: "unknown top-level key", yaml: "name: x\nstep:\n  - mine: 1\n",
            error:
                "bad.yaml:2:1: unknown key 'step' in the scenario (did you mean 'steps'?); expected one of: name, description, tags, node, variables, accounts, steps"
        ),
        Case(label: "no steps", yaml: "name: x\n", error: "bad.yaml:1:1: a scenario needs 'steps' (a list of steps)"),
        Case(
            label: "unknown action", yaml: "steps:\n  - sned: {from: a}\n",
            error:
                "bad.yaml:2:5: unknown key 'sned' in step 1 (actions) (did you mean 'send'?); expected one of: faucet, send, wait, mine, advanceTime, setNextBaseFee, fillBlocks, reorg, drop, automine, feeProfile, snapshot, revert, signMessage, signTypedData, keystoreExport, keystoreImport, keystoreChangePassword, newAccount, sendRaw, check, token, subscribe, faults, icpFaucet, icpAccountId, icpTransfer, icrc1Transfer, icrc2Approve, icrc2TransferFrom, icpCall, icpAdvanceTime"
        ),
        Case(
            label: "token transfer without a recipient",
            yaml:
                "accounts:\n  alice: random\nsteps:\n  - token: {action: transfer, token: USDC, from: alice, amount: 1}\n",
            error: "bad.yaml:4:12: step 1 token transfer needs 'to'"),
        Case(
            label: "unknown token action",
            yaml:
                "accounts:\n  alice: random\nsteps:\n  - token: {action: mint, token: USDC, from: alice, amount: 1}\n",
            error:
                "bad.yaml:4:12: unknown token action 'mint'; expected one of: transfer, approve, transferFrom, permit"),
        Case(
            label: "two actions", yaml: "steps:\n  - mine: 1\n    automine: true\n",
            error: "bad.yaml:3:5: step 1 has two actions ('mine' and 'automine'); put each in its own step"),
        Case(
            label: "unknown account",
            yaml: "accounts:\n  alice: random\nsteps:\n  - send: {from: alice, to: bob, value: 1 ether}\n",
            error: "bad.yaml:4:29: expected an account name or a 0x address for step 1 send to, found 'bob'"),
        Case(
            label: "unknown sender", yaml: "steps:\n  - send: {from: carol}\n",
            error: "bad.yaml:2:18: no account named 'carol' for step 1 send from (accounts: none)"),
        Case(
            label: "bad key in send", yaml: "accounts:\n  a: random\nsteps:\n  - send: {from: a, vaule: 1 ether}\n",
            error:
                "bad.yaml:4:21: unknown key 'vaule' in step 1 send (did you mean 'value'?); expected one of: from, to, value, type, nonce, gas, gasPrice, maxFeePerGas, maxPriorityFeePerGas, chainId, data, accessList"
        ),
        Case(
            label: "bad amount", yaml: "accounts:\n  a: random\nsteps:\n  - send: {from: a, to: a, value: 1 ehter}\n",
            error:
                "bad.yaml:4:37: invalid amount for step 1 send value: unknown unit 'ehter' (use wei, kwei, mwei, gwei, szabo, finney, ether, or ICP and e8s)"
        ),
        Case(
            label: "bad expression",
            yaml:
                "accounts:\n  a: random\nsteps:\n  - check:\n      - balance: {of: a, equals: \"1 ether - fee(nothing)\"}\n",
            error: "bad.yaml:5:34: fee(nothing): no earlier step has id 'nothing'"),
        Case(
            label: "unclosed parenthesis",
            yaml: "accounts:\n  a: random\nsteps:\n  - check:\n      - balance: {of: a, equals: \"(1 ether\"}\n",
            error: "bad.yaml:5:43: invalid amount for balance assertion equals: missing ')'"),
        Case(
            label: "unknown reference",
            yaml: "steps:\n  - check:\n      - equal: {actual: \"${pay.hash}\", expected: x}\n",
            error: "bad.yaml:3:25: unknown reference ${pay.hash}: no variable, account or earlier step is called 'pay'"),
        Case(
            label: "unknown result field",
            yaml:
                "accounts:\n  a: {dev: 0}\nsteps:\n  - id: pay\n    send: {from: a, to: a}\n  - check:\n      - equal: {actual: \"${pay.hsh}\", expected: x}\n",
            error:
                "bad.yaml:7:25: ${pay.hsh}: step 'pay' (send) has fields hash, from, to, nonce, value, gas, type, maxFeePerGas, maxPriorityFeePerGas, gasPrice, raw, chainId"
        ),
        Case(
            label: "reference without a field to a step with no hash",
            yaml:
                "accounts:\n  a: random\nsteps:\n  - id: sig\n    signMessage: {account: a, message: hi}\n  - check:\n      - equal: {actual: \"${sig}\", expected: x}\n",
            error:
                "bad.yaml:7:25: ${sig} names no field; step 'sig' (signMessage) has signature, signer, digest: write ${sig.field}"
        ),
        Case(
            label: "gasPrice on eip1559",
            yaml: "accounts:\n  a: random\nsteps:\n  - send: {from: a, to: a, gasPrice: 1 gwei}\n",
            error:
                "bad.yaml:4:28: gasPrice is for legacy and eip2930 sends; eip1559 takes maxFeePerGas and maxPriorityFeePerGas"
        ),
        Case(
            label: "bad mnemonic", yaml: "accounts:\n  a: {mnemonic: \"abandon abandon\"}\nsteps:\n  - mine: 1\n",
            error:
                "bad.yaml:2:17: account 'a': not a valid BIP-39 mnemonic: a mnemonic has 12, 15, 18, 21 or 24 words, got 2"
        ),
        Case(
            label: "duplicate key", yaml: "steps:\n  - mine: 1\n    mine: 2\n",
            error: "bad.yaml:2:5: duplicate key 'mine' in the mapping that starts here"),
        Case(
            label: "expect without error", yaml: "steps:\n  - mine: 1\n    expect: {message: x}\n",
            error: "bad.yaml:3:14: unknown key 'message' in step 1 expect; expected one of: error, code"),
        Case(
            label: "revert unknown snapshot", yaml: "steps:\n  - revert: before\n",
            error: "bad.yaml:2:13: no earlier snapshot is called 'before' (take one with 'snapshot: before')"),
        Case(
            label: "wait on a check", yaml: "steps:\n  - id: c\n    check: {nextBaseFee: 1}\n  - wait: c\n",
            error: "bad.yaml:4:11: step 'c' is a check, which sends no transaction (step 2 wait)"),
        Case(
            label: "not a number", yaml: "steps:\n  - mine: many\n",
            error: "bad.yaml:2:11: expected a whole number from 1 to 100000 for step 1 mine, found the value 'many'"),
        Case(
            label: "since without changedBy",
            yaml:
                "accounts:\n  a: random\nsteps:\n  - id: s\n    mine: 1\n  - check:\n      - balance: {of: a, equals: 0, since: s}\n",
            error: "bad.yaml:7:37: 'since' goes with 'changedBy'"),
        Case(
            label: "unknown assertion", yaml: "steps:\n  - check:\n      - balanse: {of: a}\n",
            error:
                "bad.yaml:3:9: unknown assertion 'balanse' (did you mean 'balance'?); expected one of: balance, nonce, receipt, transaction, block, nextBaseFee, logs, equal, notEqual, value, maxPriorityFeePerGas, gasPrice, estimateGas, feeHistory, icpBalance, icpAllowance, tokenBalance, subscription"
        ),
        Case(
            label: "keystore export without id",
            yaml: "accounts:\n  a: random\nsteps:\n  - keystoreExport: {account: a, password: x}\n",
            error: "bad.yaml:4:5: step 1 keystoreExport needs an 'id' to store the keystore under"),
        Case(
            label: "scrypt n not a power of two",
            yaml: "accounts:\n  a: random\nsteps:\n  - id: k\n    keystoreExport: {account: a, password: x, n: 1000}\n",
            error: "bad.yaml:5:50: scrypt n must be a power of two, found 1000"),
        Case(
            label: "subscribe without an id", yaml: "steps:\n  - subscribe: newHeads\n",
            error: "bad.yaml:2:16: step 1 subscribe needs an 'id': checks name the subscription by it"),
        Case(
            label: "unknown subscription", yaml: "steps:\n  - id: s\n    subscribe: syncing\n",
            error:
                "bad.yaml:3:16: unknown subscription 'syncing'; expected one of: newHeads, newPendingTransactions, logs"
        ),
        Case(
            label: "filter on newHeads", yaml: "steps:\n  - id: s\n    subscribe: {to: newHeads, address: USDC}\n",
            error: "bad.yaml:3:31: 'address' filters logs; a newHeads subscription takes none"),
        Case(
            label: "subscription check of no subscribe step",
            yaml: "steps:\n  - id: m\n    mine: 1\n  - check:\n      - subscription: {of: m, count: 1}\n",
            error: "bad.yaml:5:28: 'of' names the id of an earlier subscribe step; there is none with id 'm'"),
        Case(
            label: "subscription check without count or last",
            yaml: "steps:\n  - id: s\n    subscribe: newHeads\n  - check:\n      - subscription: {of: s}\n",
            error: "bad.yaml:5:23: subscription assertion needs 'count' or 'last'"),
    ]

    @Test(arguments: cases)
    func failsWithPosition(_ c: Case) {
        #expect {
            try ScenarioParser.parse(yaml: c.yaml, file: "bad.yaml")
        } throws: { error in
            let message = (error as? ScenarioFormatError)?.description ?? "\(error)"
            #expect(message == c.error)
            return error is ScenarioFormatError
        }
    }

    @Test func expressionSyntaxErrorsPointIntoTheText() throws {
        let yaml = "accounts:\n  a: random\nsteps:\n  - check:\n      - balance: {of: a, equals: 1 ether + * 2}\n"
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "e.yaml")
            Issue.record("no error")
        } catch {
            // the plain scalar "1 ether + * 2" starts at column 34; '*' is 10 characters in.
            #expect(
                error.description
                    == "e.yaml:5:44: invalid amount for balance assertion equals: unexpected '*' (expected a number, a function or a ${reference})"
            )
        }
    }
}
