import ICPIdentity
import ICPLedger

/// Principals, accounts and a ledger for the tests. Time starts at 1 700 000 000 s after the epoch.
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
    static let minting = Account(owner: minter)

    static func account(_ principal: Principal, _ subaccount: UInt64? = nil) -> Account {
        Account(owner: principal, subaccount: subaccount.map { Subaccount(index: $0) })
    }

    static func id(_ principal: Principal, _ subaccount: UInt64? = nil) -> AccountIdentifier {
        AccountIdentifier(account(principal, subaccount))
    }

    static let configuration = LedgerConfiguration(mintingAccount: minting)

    /// Alice holds 10 ICP, Bob 1 ICP.
    static func ledger() -> LedgerCanister {
        LedgerCanister(
            configuration: configuration,
            initialBalances: [
                (id(alice), Tokens(e8s: 10 * Tokens.e8sPerToken)), (id(bob), Tokens(e8s: Tokens.e8sPerToken)),
            ],
            now: start)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

extension LedgerCanister {
    /// Runs a call on the ledger and commits its changes in memory, as the ledger's owner does once it has written
    /// them.
    @discardableResult
    mutating func run<Answer>(_ call: (LedgerCanister) throws -> LedgerOutcome<Answer>) rethrows -> Answer {
        let outcome = try call(self)
        if let changes = outcome.changes { commit(changes) }
        return outcome.answer
    }
}
