import ByteCoding
import CandidCoding
import EthereumTypes
import ICPAgent
import ICPIdentity
import ICPLedgerService
import JSONCoding
import JSONRPC

/// A ledger `Err` result of an ICP call: the Candid text of the error variant.
struct ICPLedgerError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// The ledger's Candid interface, parsed once.
let ledgerInterface: CandidInterface = {
    do { return try CandidInterface(parsing: LedgerService.candidInterface) } catch {
        preconditionFailure("the ledger's own .did does not parse: \(error)")
    }
}()

extension ScenarioExecution {
    /// Runs an ICP step; on a node without the ICP ledger the step is skipped with the reason.
    func icp(_ spec: ICPStepSpec) async throws -> [String: String] {
        do {
            return try await icpStep(spec)
        } catch let unavailable as ICPUnavailable {
            throw StepSkip(unavailable.reason)
        } catch let error as RPCError where error.code == -32601 && error.message.contains("sandnet_icp") {
            throw StepSkip("the node at \(backend.label) has no ICP ledger (\(error.message))")
        }
    }

    func icpStep(_ spec: ICPStepSpec) async throws -> [String: String] {
        switch spec.kind {
        case .advanceTime:
            let offset = try await call("sandnet_icpIncreaseTime", [.int(spec.seconds)])
            return ["ledgerTime": offset.serialized]
        case .faucet:
            let account = try icpAccountIdentifier(spec.accounts["to"], subaccount: spec.subaccounts["toSubaccount"])
            var params: [JSON] = [.string(account.hex)]
            if let amount = spec.amounts["amount"] { params.append(.string(String(try await e8s(amount, "amount")))) }
            let result = try await call("sandnet_icpFaucet", params)
            return [
                "blockIndex": result["blockIndex"].map(\.serialized) ?? "",
                "account": result["account"]?.stringValue ?? "",
            ]
        case .accountID:
            let account = try icpAccount(spec.accounts["of"], subaccount: spec.subaccounts["subaccount"])
            let identifier = AccountIdentifier(account).hex
            if let expected = try spec.texts["equals"].map(resolve), expected.lowercased() != identifier {
                throw StepFailure("account identifier of \(account.text)", expected: expected, actual: identifier)
            }
            return ["accountId": identifier, "principal": account.owner.text, "account": account.text]
        case .transfer:
            let to = try icpAccountIdentifier(spec.accounts["to"], subaccount: spec.subaccounts["toSubaccount"])
            let createdAt = try await time(spec.texts["createdAtTime"])
            let memo = try spec.texts["memo"].map { template -> UInt64 in
                let text = try resolve(template)
                guard let n = UInt64(text) else {
                    throw StepFailure("memo of a legacy transfer is a nat64, found '\(text)'")
                }
                return n
            }
            let fee = try await spec.amounts["fee"].asyncMap { try await self.e8s($0, "fee") } ?? 10_000
            let args = """
                (record { memo = \(memo ?? 0) : nat64; amount = record { e8s = \(try await e8s(spec.amounts["amount"], "amount")) : nat64 }; \
                fee = record { e8s = \(fee) : nat64 }; from_subaccount = \(Self.optSubaccount(spec.subaccounts["fromSubaccount"])); \
                to = \(CandidValue.blobLiteral(to.bytes)); \
                created_at_time = \(createdAt.map { "opt record { timestamp_nanos = \($0) : nat64 }" } ?? "null") })
                """
            return try await ledgerUpdate("transfer", args, caller: spec.caller, createdAt: createdAt)
        case .icrc1Transfer:
            let to = try icpAccount(spec.accounts["to"], subaccount: spec.subaccounts["toSubaccount"])
            let createdAt = try await time(spec.texts["createdAtTime"])
            let args = """
                (record { from_subaccount = \(Self.optSubaccount(spec.subaccounts["fromSubaccount"])); \
                to = \(to.candidText); amount = \(try await e8s(spec.amounts["amount"], "amount")) : nat; \
                fee = \(try await optNat(spec.amounts["fee"], "fee")); memo = \(try memo(spec.texts["memo"])); \
                created_at_time = \(createdAt.map { "opt (\($0) : nat64)" } ?? "null") })
                """
            return try await ledgerUpdate("icrc1_transfer", args, caller: spec.caller, createdAt: createdAt)
        case .approve:
            let spender = try icpAccount(spec.accounts["spender"], subaccount: spec.subaccounts["spenderSubaccount"])
            let createdAt = try await time(spec.texts["createdAtTime"])
            let expiresAt = try await time(spec.texts["expiresAt"])
            let args = """
                (record { from_subaccount = \(Self.optSubaccount(spec.subaccounts["fromSubaccount"])); \
                spender = \(spender.candidText); amount = \(try await e8s(spec.amounts["amount"], "amount")) : nat; \
                expected_allowance = \(try await optNat(spec.amounts["expectedAllowance"], "expectedAllowance")); \
                expires_at = \(expiresAt.map { "opt (\($0) : nat64)" } ?? "null"); \
                fee = \(try await optNat(spec.amounts["fee"], "fee")); memo = \(try memo(spec.texts["memo"])); \
                created_at_time = \(createdAt.map { "opt (\($0) : nat64)" } ?? "null") })
                """
            return try await ledgerUpdate("icrc2_approve", args, caller: spec.caller, createdAt: createdAt)
        case .transferFrom:
            let from = try icpAccount(spec.accounts["from"], subaccount: spec.subaccounts["fromSubaccount"])
            let to = try icpAccount(spec.accounts["to"], subaccount: spec.subaccounts["toSubaccount"])
            let createdAt = try await time(spec.texts["createdAtTime"])
            let args = """
                (record { spender_subaccount = \(Self.optSubaccount(spec.subaccounts["spenderSubaccount"])); \
                from = \(from.candidText); to = \(to.candidText); \
                amount = \(try await e8s(spec.amounts["amount"], "amount")) : nat; \
                fee = \(try await optNat(spec.amounts["fee"], "fee")); memo = \(try memo(spec.texts["memo"])); \
                created_at_time = \(createdAt.map { "opt (\($0) : nat64)" } ?? "null") })
                """
            return try await ledgerUpdate("icrc2_transfer_from", args, caller: spec.caller, createdAt: createdAt)
        case .call:
            guard let methodTemplate = spec.texts["method"] else { throw StepFailure("icpCall needs a method") }
            let method = try resolve(methodTemplate)
            let args = try spec.texts["args"].map(resolve) ?? "()"
            let types = try spec.texts["types"].map(resolve)
            let reply = try await ledgerCall(method, args, caller: spec.caller, query: spec.query, types: types)
            return ["reply": reply.text]
        }
    }

    // MARK: Calls

    /// Encodes `arguments` (Candid text) at the method's types, calls, and decodes the reply at its result types.
    /// With `types` (e.g. `(text)`) the arguments are encoded at those instead, to send a canister what it does
    /// not expect; a method the interface lacks gets its arguments' inferred types and an untyped reply.
    func ledgerCall(_ method: String, _ arguments: String, caller: String?, query: Bool, types: String? = nil)
        async throws -> (text: String, values: [CandidValue])
    {
        let known = (try? ledgerInterface.method(method)) != nil
        let arg: [UInt8]
        do {
            if types != nil || !known {
                arg = try CandidTextCodec.encode(arguments, types: types)
            } else {
                arg = try CandidTextCodec.encode(arguments, interface: ledgerInterface, method: method)
            }
        } catch {
            throw StepFailure("cannot encode the arguments of \(method): \(error)")
        }
        let identity = try icpIdentity(caller)
        let answer: AgentReply
        do { answer = try await backend.icpCall(method: method, arg: arg, identity: identity, query: query) } catch let
            unavailable as ICPUnavailable
        {
            throw StepSkip(unavailable.reason)
        }
        switch answer {
        case .replied(let bytes):
            if !known {
                do { return (try CandidTextCodec.decode(bytes), []) } catch {
                    throw StepFailure("the reply of \(method) is not Candid: \(error)")
                }
            }
            do {
                let function = try ledgerInterface.method(method)
                let types = try CandidArgumentTypes(function.results, environment: ledgerInterface.environment)
                let values = try bytes.withUnsafeBytes { try CandidDeserializer.decode($0, as: types) }
                let text = try CandidTextCodec.decode(
                    bytes, interface: ledgerInterface, method: method, direction: .results)
                return (text, values)
            } catch {
                throw StepFailure("the reply of \(method) does not decode at its .did types: \(error)")
            }
        case .rejected(let code, let message, let errorCode):
            // The reject code stands in for a JSON-RPC code, so `expect: {code: 5}` matches a canister error.
            throw RPCError(code: Int(code), message: errorCode.map { "\($0): \(message)" } ?? message)
        }
    }

    /// An update whose result is `variant { Ok : nat; Err : … }`: the block index, or the error thrown.
    func ledgerUpdate(_ method: String, _ arguments: String, caller: String?, createdAt: UInt64?) async throws
        -> [String: String]
    {
        let reply = try await ledgerCall(method, arguments, caller: caller, query: false)
        guard case .variant(let field)? = reply.values.first else {
            throw StepFailure("\(method) replied \(reply.text), not a result variant")
        }
        guard field.label == CandidLabel("Ok") else {
            var message = reply.text
            if message.hasPrefix("(variant { Err = ") && message.hasSuffix(" })") {
                message = String(message.dropFirst("(variant { Err = ".count).dropLast(" })".count))
            }
            throw ICPLedgerError(message: message)
        }
        let index: String
        switch field.value {
        case .nat(let n): index = n.description
        case .nat64(let n): index = String(n)
        default: index = "\(field.value)"
        }
        return ["blockIndex": index, "createdAtTime": createdAt.map(String.init) ?? "", "reply": reply.text]
    }

    func icpBalance(_ account: Account) async throws -> UInt64 {
        let reply = try await ledgerCall("icrc1_balance_of", "(\(account.candidText))", caller: nil, query: true)
        return try Self.natValue(reply.values.first, "icrc1_balance_of")
    }

    func icpAllowance(of owner: Account, spender: Account) async throws -> UInt64 {
        let reply = try await ledgerCall(
            "icrc2_allowance", "(record { account = \(owner.candidText); spender = \(spender.candidText) })",
            caller: nil, query: true)
        guard case .record(let fields)? = reply.values.first,
            let allowance = fields.first(where: { $0.label == CandidLabel("allowance") })
        else { throw StepFailure("icrc2_allowance replied \(reply.text)") }
        return try Self.natValue(allowance.value, "icrc2_allowance")
    }

    static func natValue(_ value: CandidValue?, _ method: String) throws -> UInt64 {
        switch value {
        case .nat(let n)?:
            guard let small = UInt64(n.description) else { throw StepFailure("\(method) replied \(n), above 2^64") }
            return small
        case .nat64(let n)?: return n
        default: throw StepFailure("\(method) replied \(String(describing: value)), not a nat")
        }
    }

    // MARK: Accounts and values

    /// The ICP identity of a scenario account (its secp256k1 key); anonymous when `name` is nil.
    func icpIdentity(_ name: String?) throws -> KeyIdentity {
        guard let name else {
            // Queries without a caller run as a fixed throwaway key: reads need no funds.
            return try KeyIdentity(ed25519PrivateKey: Array(repeating: 0x5a, count: 32))
        }
        return try KeyIdentity(secp256k1PrivateKey: try account(name).privateKey)
    }

    /// An account name (its principal, with `subaccount`) or an account text (principal or ICRC-1 account).
    func icpAccount(_ template: Template?, subaccount: UInt64?) throws -> Account {
        guard let template else { throw StepFailure("no account given") }
        let text = try resolve(template)
        let sub = subaccount.map(Subaccount.init(index:))
        if accounts[text] != nil {
            return Account(owner: try icpIdentity(text).principal, subaccount: sub)
        }
        do {
            let account = try Account(text: text)
            return sub.map { Account(owner: account.owner, subaccount: $0) } ?? account
        } catch {
            throw StepFailure("'\(text)' is neither an account name nor a principal or ICRC-1 account: \(error)")
        }
    }

    /// Like ``icpAccount(_:subaccount:)``, also accepting a 64-hex-digit account identifier.
    func icpAccountIdentifier(_ template: Template?, subaccount: UInt64?) throws -> AccountIdentifier {
        if let template {
            let text = try resolve(template)
            let hex = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
            if hex.count == 64, hex.allSatisfy(\.isHexDigit) {
                do { return try AccountIdentifier(hex: hex) } catch {
                    throw StepFailure("invalid account identifier '\(text)': \(error)")
                }
            }
        }
        return AccountIdentifier(try icpAccount(template, subaccount: subaccount))
    }

    func e8s(_ expression: AmountExpression?, _ what: String) async throws -> UInt64 {
        guard let expression else { throw StepFailure("\(what) is missing") }
        let value = try await evaluate(expression)
        guard !value.negative, let e8s = value.magnitude.uint64Value else {
            throw StepFailure("\(what) \(expression.text) = \(value) is not an amount of e8s (0 ... 2^64 - 1)")
        }
        return e8s
    }

    func optNat(_ expression: AmountExpression?, _ what: String) async throws -> String {
        guard let expression else { return "null" }
        return "opt (\(try await e8s(expression, what)) : nat)"
    }

    /// `now`, `now+DURATION`, `now-DURATION` (the ledger's time; 90s, 30m, 25h, 2d) or nanoseconds.
    func time(_ template: Template?) async throws -> UInt64? {
        guard let template else { return nil }
        let text = try resolve(template).filter { $0 != " " }
        guard text.hasPrefix("now") else {
            guard let n = UInt64(text) else {
                throw StepFailure("'\(text)' is not a time: use now, now+25h, now-90s or nanoseconds since the epoch")
            }
            return n
        }
        let info = try await call("sandnet_icpInfo", [])
        guard let now = info["ledgerTimeNanos"]?.stringValue.flatMap(UInt64.init) else {
            throw StepFailure("sandnet_icpInfo has no ledgerTimeNanos")
        }
        let rest = text.dropFirst(3)
        guard let sign = rest.first else { return now }
        let seconds: UInt64
        do throws(QuantityError) {
            guard sign == "+" || sign == "-" else { throw QuantityError.invalidDuration(String(rest)) }
            seconds = try QuantityParser.seconds(String(rest.dropFirst()))
        } catch .invalidDuration {
            throw StepFailure("'\(text)' is not a time: use now, now+25h, now-90s or nanoseconds since the epoch")
        } catch {
            throw StepFailure("'\(text)': \(error)")
        }
        // Checked although the duration limit (100 years) keeps both in range: nanoseconds in 64 bits end in 2554.
        let (delta, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (later, o2) = now.addingReportingOverflow(delta)
        guard !o1, !o2 || sign == "-" else {
            throw StepFailure("'\(text)' is later than 2^64-1 nanoseconds since the epoch (the year 2554)")
        }
        return sign == "+" ? later : (now > delta ? now - delta : 0)
    }

    /// A memo given as `0x…` hex bytes or as text (UTF-8).
    func memo(_ template: Template?) throws -> String {
        guard let template else { return "null" }
        let text = try resolve(template)
        if text.hasPrefix("0x"), let bytes = try? Hex.decodePrefixed(text) {
            return "opt " + CandidValue.blobLiteral(bytes)
        }
        return "opt " + CandidValue.blobLiteral(Array(text.utf8))
    }

    static func optSubaccount(_ n: UInt64?) -> String { Subaccount.optionalCandidText(n.map(Subaccount.init(index:))) }
}
