import CandidCoding
import ICPIdentity
import ICPLedger
import Testing

@testable import ICPLedgerService

/// A service over a ledger where Alice holds 10 ICP and Bob 1 ICP (blocks 0 and 1), time 1 700 000 000 s; calls
/// built from Candid values at the service's own .did types, replies decoded back at its result types.
enum Fixture {
    static let second: UInt64 = 1_000_000_000
    static let start: UInt64 = 1_700_000_000 * second
    static let window: UInt64 = 24 * 3600 * second

    static func principal(_ seed: UInt8) -> Principal {
        try! Principal(bytes: [UInt8](repeating: seed, count: 28) + [0x02])
    }

    static let minter = principal(0xAA)
    static let alice = principal(0x01)
    static let bob = principal(0x02)
    static let carol = principal(0x03)

    static func account(_ principal: Principal, _ subaccount: UInt64? = nil) -> Account {
        Account(owner: principal, subaccount: subaccount.map { Subaccount(index: $0) })
    }

    static func id(_ principal: Principal, _ subaccount: UInt64? = nil) -> AccountIdentifier {
        AccountIdentifier(account(principal, subaccount))
    }

    static func service() -> LedgerService {
        LedgerService(
            ledger: LedgerCanister(
                configuration: LedgerConfiguration(mintingAccount: account(minter)),
                initialBalances: [
                    (id(alice), Tokens(e8s: 10 * Tokens.e8sPerToken)), (id(bob), Tokens(e8s: Tokens.e8sPerToken)),
                ],
                now: start))
    }

    static func entry(_ method: String) throws -> LedgerService.MethodTable.Entry {
        try #require(LedgerService.table.entries[method], "no method \(method)")
    }

    /// The argument bytes of `method` for `values`, at the service's argument types.
    static func arg(_ method: String, _ values: [CandidValue]) throws -> [UInt8] {
        try CandidSerializer.encode(values, as: try entry(method).arguments)
    }

    /// The reply values, decoded at the method's result types; records an issue for a reject.
    static func replyValues(_ method: String, _ response: CanisterResponse) throws -> [CandidValue] {
        guard case .reply(let bytes) = response else {
            Issue.record("\(method) was rejected: \(response)")
            throw RejectedCall()
        }
        return try CandidDeserializer.decode(bytes, as: try entry(method).results)
    }

    struct RejectedCall: Error {}

    // MARK: Values

    typealias R = CandidReply
    static func account(_ account: Account) -> CandidValue { R.account(account) }
    static func nat(_ n: UInt64) -> CandidValue { .nat(CandidNat(n)) }
    static func some(_ v: CandidValue) -> CandidValue { .opt(v) }
    static let none: CandidValue = .opt(nil)
    static func record(_ fields: [(String, CandidValue)]) -> CandidValue { R.record(fields) }
    static func variant(_ tag: String, _ value: CandidValue = .null) -> CandidValue { R.variant(tag, value) }
    static func tokens(_ e8s: UInt64) -> CandidValue { R.tokens(Tokens(e8s: e8s)) }
    static func timestamp(_ t: UInt64) -> CandidValue { R.timestamp(t) }
    static func ok(_ index: UInt64) -> CandidValue { variant("Ok", nat(index)) }
    static func err(_ tag: String, _ fields: [(String, CandidValue)]? = nil) -> CandidValue {
        variant("Err", variant(tag, fields.map(record) ?? .null))
    }

    static func icrc1Transfer(
        to: Account, amount: UInt64, fee: UInt64? = nil, memo: [UInt8]? = nil, createdAt: UInt64? = nil,
        fromSubaccount: UInt64? = nil
    ) -> CandidValue {
        record([
            ("from_subaccount", .opt(fromSubaccount.map { .blob(Subaccount(index: $0).bytes) })),
            ("to", account(to)), ("amount", nat(amount)), ("fee", .opt(fee.map(nat))),
            ("memo", .opt(memo.map { .blob($0) })), ("created_at_time", .opt(createdAt.map { .nat64($0) })),
        ])
    }

    static func legacyTransfer(
        to: AccountIdentifier, amount: UInt64, fee: UInt64 = 10_000, memo: UInt64 = 0, createdAt: UInt64? = nil
    ) -> CandidValue {
        record([
            ("memo", .nat64(memo)), ("amount", tokens(amount)), ("fee", tokens(fee)), ("from_subaccount", none),
            ("to", .blob(to.bytes)), ("created_at_time", .opt(createdAt.map(timestamp))),
        ])
    }

    static func approve(
        spender: Account, amount: UInt64, expected: UInt64? = nil, expiresAt: UInt64? = nil, fee: UInt64? = nil,
        createdAt: UInt64? = nil
    ) -> CandidValue {
        record([
            ("from_subaccount", none), ("spender", account(spender)), ("amount", nat(amount)),
            ("expected_allowance", .opt(expected.map(nat))), ("expires_at", .opt(expiresAt.map { .nat64($0) })),
            ("fee", .opt(fee.map(nat))), ("memo", none), ("created_at_time", .opt(createdAt.map { .nat64($0) })),
        ])
    }

    static func transferFrom(
        from: Account, to: Account, amount: UInt64, fee: UInt64? = nil, createdAt: UInt64? = nil
    ) -> CandidValue {
        record([
            ("spender_subaccount", none), ("from", account(from)), ("to", account(to)), ("amount", nat(amount)),
            ("fee", .opt(fee.map(nat))), ("memo", none), ("created_at_time", .opt(createdAt.map { .nat64($0) })),
        ])
    }
}

extension LedgerService {
    /// Calls `method` as the IC would for its kind (queries via `query`, the rest via `update`) and decodes the reply.
    mutating func call(
        _ method: String, _ values: [CandidValue] = [], caller: Principal = Fixture.alice,
        now: UInt64 = Fixture.start
    ) throws -> CandidValue {
        let arg = try Fixture.arg(method, values)
        let response =
            LedgerService.kind(of: method) == .query
            ? query(method: method, arg: arg, caller: caller, now: now)
            : commitUpdate(method: method, arg: arg, caller: caller, now: now)
        let values = try Fixture.replyValues(method, response)
        return try #require(values.first)
    }

    /// The raw response of an update call.
    mutating func updateResponse(
        _ method: String, _ values: [CandidValue], caller: Principal = Fixture.alice, now: UInt64 = Fixture.start
    ) throws -> CanisterResponse {
        commitUpdate(method: method, arg: try Fixture.arg(method, values), caller: caller, now: now)
    }

    /// An update as its owner runs it in memory: the changes committed, the response returned.
    mutating func commitUpdate(method: String, arg: [UInt8], caller: Principal, now: UInt64) -> CanisterResponse {
        let outcome = update(method: method, arg: arg, caller: caller, now: now)
        if let changes = outcome.changes { ledger.commit(changes) }
        return outcome.answer
    }
}

extension CandidValue {
    /// A record field by name (test helper).
    subscript(_ name: String) -> CandidValue? {
        guard case .record(let fields) = self else { return nil }
        return fields.first { $0.label.id == CandidLabel.hash(name) }?.value
    }
}
