import ABICoding
import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding
import NativeContracts
import Yams

/// `token:` — an ERC-20 call as a signed transaction: `transfer`, `approve`, `transferFrom`, or an EIP-2612
/// `permit` that `owner` signs (EIP-712, locally) and `from` submits. Amounts are in the token's base units
/// (1 USDC = 1000000). The token is a symbol of the default native tokens (USDC, WETH, LINK, USDT) or an address.
public struct TokenStepSpec: Sendable {
    public enum Action: String, Sendable, CaseIterable {
        case transfer, approve, transferFrom, permit
    }

    public var action: Action
    public var token: String
    /// The account that signs and sends the transaction.
    public var from: String
    /// `transfer`/`transferFrom`: the recipient (account name or address).
    public var to: Template?
    /// `approve`/`permit`: the spender.
    public var spender: Template?
    /// `transferFrom`/`permit`: the owner of the tokens (for `permit`, the account that signs the permit).
    public var owner: String?
    public var amount: AmountExpression
    /// `permit`: seconds after the latest block's timestamp (default 3600).
    public var deadlineSeconds: UInt64
    /// Gas limit; default `eth_estimateGas`.
    public var gas: AmountExpression?
}

/// `tokenBalance:` of an account in base units: comparisons and `changedBy` since a step.
public struct TokenBalanceCheck: Sendable {
    public var account: String
    public var token: String
    public var checks: [Clause]
}

extension ScenarioBuilder {
    static let tokenKeys = ["action", "token", "from", "to", "spender", "owner", "amount", "deadline", "gas"]

    func tokenStep(_ node: Node, _ what: String) throws(ScenarioFormatError) -> TokenStepSpec {
        let fields = try reader.mapping(node, what)
        try reader.allow(fields, Self.tokenKeys, in: what)
        func field(_ key: String) -> Node? { fields.first { $0.key == key }?.value }
        let actionText = try reader.scalar(try reader.required(fields, "action", in: what, at: node), "\(what) action")
        guard let action = TokenStepSpec.Action(rawValue: actionText) else {
            throw reader.error(
                "unknown token action '\(actionText)'; expected one of: "
                    + TokenStepSpec.Action.allCases.map(\.rawValue).joined(separator: ", "), at: node)
        }
        let token = try reader.scalar(try reader.required(fields, "token", in: what, at: node), "\(what) token")
        let from = try accountName(try reader.required(fields, "from", in: what, at: node), "\(what) from")
        func party(_ key: String) throws(ScenarioFormatError) -> Template? {
            guard let value = field(key) else { return nil }
            let text = try reader.scalar(value, "\(what) \(key)")
            if names.accounts.contains(text) { return Template("${\(text).address}", at: reader.location(value)) }
            return try template(value, "\(what) \(key)")
        }
        var spec = TokenStepSpec(
            action: action, token: token, from: from, to: try party("to"), spender: try party("spender"),
            owner: try field("owner").map { (n) throws(ScenarioFormatError) in try accountName(n, "\(what) owner") },
            amount: try expression(try reader.required(fields, "amount", in: what, at: node), "\(what) amount"),
            deadlineSeconds: 3600,
            gas: try field("gas").map { (n) throws(ScenarioFormatError) in try expression(n, "\(what) gas") })
        if let d = field("deadline") {
            spec.deadlineSeconds = try reader.unsigned(d, "\(what) deadline", range: 0...315_360_000)
        }
        switch action {
        case .transfer where spec.to == nil, .transferFrom where spec.to == nil:
            throw reader.error("\(what) \(action.rawValue) needs 'to'", at: node)
        case .approve where spec.spender == nil, .permit where spec.spender == nil:
            throw reader.error("\(what) \(action.rawValue) needs 'spender'", at: node)
        case .transferFrom where spec.owner == nil, .permit where spec.owner == nil:
            throw reader.error("\(what) \(action.rawValue) needs 'owner'", at: node)
        default: break
        }
        return spec
    }

    func tokenBalance(_ node: Node, _ what: String) throws(ScenarioFormatError) -> (TokenBalanceCheck, since: Int?) {
        let fields = try reader.mapping(node, what)
        let operators = Clause.Operator.allCases.map(\.rawValue)
        try reader.allow(fields, ["of", "token", "since"] + operators, in: what)
        let account = try accountName(try reader.required(fields, "of", in: what, at: node), "\(what) of")
        let token = try reader.scalar(try reader.required(fields, "token", in: what, at: node), "\(what) token")
        var since: Int?
        if let s = fields.first(where: { $0.key == "since" }) {
            let id = try reader.scalar(s.value, "\(what) since")
            guard let step = names.steps[id] else {
                throw reader.error("'since' names a step id; no earlier step has id '\(id)'", at: s.value)
            }
            since = step.index
        }
        let checks = try clauses(fields, what: what, allowChange: true, since: since)
        if checks.isEmpty {
            throw reader.error("\(what) needs a comparison: one of \(operators.joined(separator: ", "))", at: node)
        }
        return (TokenBalanceCheck(account: account, token: token, checks: checks), since)
    }
}

extension ScenarioExecution {
    /// The token's address: a default token's symbol, or an address.
    func tokenAddress(_ text: String) throws -> Address {
        if let token = NativeContractRegistry.sepoliaDefaults.token(named: text) { return token.address }
        do { return try Address(parsing: text) } catch {
            throw StepFailure("unknown token '\(text)': a symbol of USDC, WETH, LINK, USDT or an address")
        }
    }

    /// `balanceOf(holder)` through `eth_call`.
    func tokenBalance(_ token: Address, of holder: Address) async throws -> UInt256 {
        let balanceOf = ERC20Call.balanceOf(owner: holder)
        let data = balanceOf.encoded()
        let result = try await call(
            "eth_call",
            [
                .object([("to", .string(token.lowercased)), ("data", .string(Hex.encodePrefixed(data)))]),
                .string("latest"),
            ])
        guard let text = result.stringValue, let bytes = try? Hex.decodePrefixed(text),
            let value = try? balanceOf.function.decodeOutput(bytes)[0].uintValue
        else { throw StepFailure("balanceOf at \(token.checksummed) did not answer one word") }
        return value
    }

    func party(_ template: Template?) throws -> Address {
        guard let template else { throw StepFailure("missing account") }
        let text = try resolve(template)
        do { return try Address(parsing: text) } catch {
            throw StepFailure("'\(text)' is not an address: \(error)", location: template.location)
        }
    }

    func tokenStep(_ spec: TokenStepSpec) async throws -> [String: String] {
        let token = try tokenAddress(spec.token)
        let amount = try await self.amount(spec.amount)
        let data: [UInt8]
        switch spec.action {
        case .transfer: data = ERC20Call.transfer(to: try party(spec.to), amount: amount).encoded()
        case .approve: data = ERC20Call.approve(spender: try party(spec.spender), amount: amount).encoded()
        case .transferFrom:
            data = ERC20Call.transferFrom(
                from: try account(spec.owner ?? spec.from).address, to: try party(spec.to), amount: amount
            ).encoded()
        case .permit: data = try await permitCalldata(spec, token: token, amount: amount)
        }
        let from = try account(spec.from)
        var gas = spec.gas
        if gas == nil {
            let estimate = try await call(
                "eth_estimateGas",
                [
                    .object([
                        ("from", .string(from.address.lowercased)), ("to", .string(token.lowercased)),
                        ("data", .string(Hex.encodePrefixed(data))),
                    ])
                ])
            let location = SourceLocation(file: "", line: 0, column: 0)
            gas = try AmountExpression(parsing: try quantity(estimate, "eth_estimateGas").description, at: location)
        }
        let location = SourceLocation(file: "", line: 0, column: 0)
        let send = SendSpec(
            from: spec.from, to: Template(token.lowercased, at: location), value: nil, kind: .eip1559, nonce: nil,
            gas: gas, gasPrice: nil, maxFeePerGas: nil, maxPriorityFeePerGas: nil, chainID: nil,
            data: Template(Hex.encodePrefixed(data), at: location), accessList: [])
        return try await self.send(send)
    }

    /// `permit(owner, spender, value, deadline, v, r, s)` with the owner's EIP-712 signature over the token's domain
    /// (name and version read from the token: `name()`, version "2" for USDC's FiatToken, "1" otherwise).
    func permitCalldata(_ spec: TokenStepSpec, token: Address, amount: UInt256) async throws -> [UInt8] {
        let owner = try account(spec.owner ?? spec.from)
        let spender = try party(spec.spender)
        func read(_ data: [UInt8]) async throws -> [UInt8] {
            let result = try await call(
                "eth_call",
                [
                    .object([("to", .string(token.lowercased)), ("data", .string(Hex.encodePrefixed(data)))]),
                    .string("latest"),
                ])
            return try Hex.decodePrefixed(result.stringValue ?? "0x")
        }
        let name = try ERC20ReturnValue.decodeString(try await read(ERC20Call.name.encoded()))
        let nonceWord = try await read(try Self.nonces.encodeCall([.address(owner.address)]))
        guard let nonce = try? Self.nonces.decodeOutput(nonceWord)[0].uintValue else {
            throw StepFailure("nonces() did not answer a word")
        }
        let head = try await call("eth_getBlockByNumber", [.string("latest"), .bool(false)])
        guard let ts = head["timestamp"]?.stringValue, let timestamp = UInt64(ts.dropFirst(2), radix: 16) else {
            throw StepFailure("the latest block has no timestamp")
        }
        let deadline = UInt256(timestamp) + UInt256(spec.deadlineSeconds)
        let version = NativeContractRegistry.sepoliaDefaults.token(at: token)?.profile.permitVersion ?? "1"
        let chainID = try await self.chainID()
        let domain = JSON.object([
            ("name", .string(name)), ("version", .string(version)), ("chainId", .number(String(chainID))),
            ("verifyingContract", .string(token.checksummed)),
        ])
        let message = JSON.object([
            ("owner", .string(owner.address.checksummed)), ("spender", .string(spender.checksummed)),
            ("value", .string(amount.description)), ("nonce", .string(nonce.description)),
            ("deadline", .string(deadline.description)),
        ])
        func members(_ pairs: [(String, String)]) -> [TypedData.Member] {
            pairs.map { TypedData.Member(name: $0.0, type: $0.1) }
        }
        let typed = TypedData(
            types: [
                "EIP712Domain": members([
                    ("name", "string"), ("version", "string"), ("chainId", "uint256"), ("verifyingContract", "address"),
                ]),
                "Permit": members([
                    ("owner", "address"), ("spender", "address"), ("value", "uint256"), ("nonce", "uint256"),
                    ("deadline", "uint256"),
                ]),
            ], primaryType: "Permit", domain: domain, message: message)
        let signature = try typed.sign(privateKey: owner.privateKey)
        return try Self.permit.encodeCall([
            .address(owner.address), .address(spender), .uint(amount), .uint(deadline),
            .uint(UInt256(UInt64(signature.v))),
            .fixedBytes(signature.r.bigEndianBytes), .fixedBytes(signature.s.bigEndianBytes),
        ])
    }

    static let nonces = ABISignature(literal: "nonces(address)(uint256)")
    static let permit = ABISignature(literal: "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)")
}
