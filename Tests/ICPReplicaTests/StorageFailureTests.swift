import CandidCoding
import ICPIdentity
import ICPLedger
import ICPLedgerService
import ICPLedgerStorage
import ICPReplica
import KeyValueStorage
import Synchronization
import Testing

/// A replica whose ledger is kept in a store that stops taking writes (a full disk): calls and faucet mints are
/// answered with an error that says the storage failed, memory and disk keep the same ledger, and everything works
/// again once the disk does.
@Suite struct StorageFailureTests {
    static let start = ReplicaFixture.start

    @Test func aFailedWriteIsAnsweredAndChangesNothing() throws {
        let store = FailingStore()
        let alice = try KeyIdentity(ed25519PrivateKey: Array(repeating: 0x11, count: 32))
        let bob = try KeyIdentity(secp256k1PrivateKey: Array(repeating: 0x22, count: 32))
        let aliceID = AccountIdentifier(principal: alice.principal)
        let configuration = LedgerConfiguration(mintingAccount: Account(owner: try Principal(text: "aaaaa-aa")))
        let reopen = {
            try PersistentICPLedger.open(
                configuration: configuration, store: store, initialBalances: [(aliceID, Tokens(e8s: 1_000_000_000))],
                now: Self.start)
        }
        let replica = Replica(ledger: try reopen()) { Self.start }
        let interface = try CandidTextParser.parseInterface(LedgerService.candidInterface)
        let arg = try CandidTextCodec.encode(
            """
            (record { from_subaccount = null; to = record { owner = principal "\(bob.principal.text)"; \
            subaccount = null }; amount = 5 : nat; fee = null; memo = null; created_at_time = null })
            """, interface: interface, method: "icrc1_transfer")
        func transfer() -> CanisterResponse {
            replica.call(method: "icrc1_transfer", arg: arg, caller: alice.principal, kind: .update)
        }
        let before = replica.ledger.ledger

        store.writesLeft(0)
        let rejected = transfer()
        guard case .reject(let code, let message, let errorCode) = rejected else {
            Issue.record("a transfer whose write failed was answered \(rejected)")
            return
        }
        #expect(code == .sysTransient && errorCode == nil)
        #expect(
            message
                == "Error from Canister ryjl3-tyaaa-aaaaa-aaaba-cai: the ledger's storage failed, so the call changed "
                + "nothing: the ICP ledger's storage failed: disk full")
        #expect(throws: Replica.MintError.storage(.storageFailure("disk full"))) {
            try replica.mint(to: aliceID, amount: Tokens(e8s: 1))
        }
        #expect(replica.ledger.ledger == before)
        #expect(replica.readService { $0.ledger.balance(of: aliceID) } == Tokens(e8s: 1_000_000_000))

        store.writesLeft(nil)
        #expect(try reopen().ledger == replica.ledger.ledger)
        #expect(transfer().replyBytes != nil)
        #expect(try replica.mint(to: aliceID, amount: Tokens(e8s: 1)) == 2)
        #expect(replica.readService { $0.ledger.balance(of: aliceID) } == Tokens(e8s: 1_000_000_000 - 5 - 10_000 + 1))
        #expect(try reopen().ledger == replica.ledger.ledger)
    }
}

/// An in-memory store that can be told to refuse writes (a full disk).
final class FailingStore: KeyValueStore {
    let inner = InMemoryStore()
    private let left = Mutex<Int?>(nil)

    /// Accept `count` more writes, then fail every one (nil: never fail).
    func writesLeft(_ count: Int?) { left.withLock { $0 = count } }

    func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try inner.get(key) }

    func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        try left.withLock { left throws(StorageError) in
            if let count = left {
                guard count > 0 else { throw StorageError("disk full") }
                left = count - 1
            }
        }
        try inner.write(batch, sync: sync)
    }

    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try inner.scan(prefix: prefix, body)
    }
}
