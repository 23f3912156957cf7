import Foundation
import ICPIdentity
import ICPLedger
import ICPLedgerStorage
import KeyValueStorage
import LevelDBStorage
import Synchronization
import Testing

/// The ledger's owner over a store: every change set is one batch written before memory changes; reopening gives
/// back the ledger in memory; a failed write changes nothing and is a typed error.
@Suite struct PersistenceTests {
    typealias F = Fixture

    static let initial: [(AccountIdentifier, Tokens)] = [(F.id(F.alice), 1_000_000), (F.id(F.bob), 20_000)]

    static func open(
        _ store: any KeyValueStore, initialBalances: [(AccountIdentifier, Tokens)] = [], syncWrites: Bool = false
    ) throws -> PersistentICPLedger {
        try PersistentICPLedger.open(
            configuration: F.configuration, store: store, syncWrites: syncWrites, initialBalances: initialBalances,
            now: F.start)
    }

    /// Runs a few operations of every kind through `owner`; returns the ledger after each.
    static func exercise(_ owner: PersistentICPLedger) throws -> [LedgerCanister] {
        var states: [LedgerCanister] = []
        #expect(
            try owner.run {
                try $0.icrc1Transfer(
                    caller: F.alice, ICRC1TransferArgs(to: F.account(F.carol), amount: 1_000, createdAtTime: F.start),
                    now: F.start)
            } == .success(2))
        states.append(owner.ledger)
        #expect(
            try owner.run {
                try $0.icrc2Approve(
                    caller: F.alice,
                    ApproveArgs(spender: F.account(F.bob), amount: 50_000, expiresAt: F.start + F.window), now: F.start)
            } == .success(3))
        states.append(owner.ledger)
        #expect(
            try owner.run {
                try $0.icrc2TransferFrom(
                    caller: F.bob, TransferFromArgs(from: F.account(F.alice), to: F.account(F.bob), amount: 100),
                    now: F.start)
            } == .success(4))
        states.append(owner.ledger)
        #expect(
            try owner.run {
                try $0.transfer(
                    caller: F.bob, TransferArgs(amount: 10_000, fee: 0, to: F.id(F.minter).bytes), now: F.start)
            } == .success(5))
        states.append(owner.ledger)
        return states
    }

    @Test func reopenRestoresEverything() throws {
        let store = InMemoryStore()
        let owner = try Self.open(store, initialBalances: Self.initial)
        _ = try Self.exercise(owner)
        // A store that holds a ledger is reopened, not initialized again.
        let reopened = try Self.open(store, initialBalances: [(F.id(F.carol), 5)]).ledger
        #expect(reopened == owner.ledger)
        #expect(reopened.chainLength == 6 && reopened.icrc1BalanceOf(F.account(F.carol)) == 1_000)
        #expect(
            reopened.icrc2Allowance(account: F.account(F.alice), spender: F.account(F.bob), now: F.start)
                == Allowance(allowance: 50_000 - 100 - 10_000, expiresAt: F.start + F.window))
        // The deduplication index is rebuilt from the blocks.
        #expect(
            try reopened.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.carol), amount: 1_000, createdAtTime: F.start),
                now: F.start
            ).answer == .failure(.duplicate(duplicateOf: 2)))
    }

    @Test func levelDBReopen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("icp-ledger-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var written: LedgerCanister?
        do {
            let owner = try Self.open(
                try LevelDBStore(path: directory), initialBalances: Self.initial, syncWrites: true)
            _ = try Self.exercise(owner)
            written = owner.ledger
        }
        let reopened = try Self.open(try LevelDBStore(path: directory)).ledger
        #expect(reopened == written)
        #expect(reopened.chainLength == 6 && reopened.icrc1BalanceOf(F.account(F.carol)) == 1_000)
    }

    /// A full disk during a transfer: the call gets a typed error naming the storage, the ledger in memory is as it
    /// was (no block, no balance change, no deduplication entry), and once the disk recovers a reopened ledger
    /// equals the one in memory, before and after the transfer is retried.
    @Test func failedWriteChangesNothing() throws {
        let store = FailingStore()
        let owner = try Self.open(store, initialBalances: [(F.id(F.alice), 1_000_000)])
        let before = owner.ledger
        let transfer: (LedgerCanister) throws -> LedgerOutcome<Result<UInt64, ICRC1TransferError>> = {
            try $0.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.bob), amount: 5, createdAtTime: F.start),
                now: F.start)
        }
        store.writesLeft(0)
        #expect(throws: ICPLedgerStorageError.storageFailure("disk full")) { try owner.run(transfer) }
        #expect(owner.ledger == before)
        #expect(owner.ledger.chainLength == 1 && owner.ledger.icrc1BalanceOf(F.account(F.alice)) == 1_000_000)
        #expect(owner.ledger.icrc1BalanceOf(F.account(F.bob)) == 0)

        store.writesLeft(nil)
        #expect(try Self.open(store).ledger == owner.ledger)
        // Not a duplicate: nothing of the failed attempt was kept.
        #expect(try owner.run(transfer) == .success(1))
        #expect(owner.ledger.icrc1BalanceOf(F.account(F.bob)) == 5)
        #expect(try Self.open(store).ledger == owner.ledger)
    }

    /// A ledger's initial balances are one batch: a store that takes a single write holds all of them.
    @Test func initialBalancesAreOneBatch() throws {
        let store = FailingStore()
        store.writesLeft(1)
        let owner = try Self.open(store, initialBalances: Self.initial)
        #expect(owner.ledger.chainLength == 2)
        store.writesLeft(nil)
        let reopened = try Self.open(store).ledger
        #expect(reopened == owner.ledger)
        #expect(reopened.icrc1BalanceOf(F.account(F.bob)) == 20_000)
    }

    /// A crash after any batch: the store then holds exactly the ledger as it was after that batch.
    @Test func everyBatchReopensToItsLedger() throws {
        let store = FailingStore()
        let owner = try Self.open(store, initialBalances: Self.initial)
        let states = [owner.ledger] + (try Self.exercise(owner))
        let batches = store.batches
        #expect(batches.count == states.count)
        for (count, state) in zip(1..., states) {
            let crashed = InMemoryStore()
            for batch in batches.prefix(count) { try crashed.write(batch, sync: false) }
            #expect(try Self.open(crashed).ledger == state)
        }
    }

    @Test func corruptStoreIsReported() throws {
        let store = InMemoryStore()
        _ = try Self.open(store, initialBalances: [(F.id(F.alice), 1)])
        try store.put([UInt8(ascii: "M")], [0x83, 0x01, 0x05, 0x01])
        #expect(throws: ICPLedgerStorageError.corruptStore("ledger storage holds 1 blocks but its meta record says 5"))
        {
            try Self.open(store)
        }
    }
}

/// An in-memory store that keeps every batch it wrote and can be told to refuse writes (a full disk).
final class FailingStore: KeyValueStore {
    let inner = InMemoryStore()
    private let state = Mutex<(writesLeft: Int?, batches: [WriteBatch])>((nil, []))

    /// Accept `count` more writes, then fail every one (nil: never fail).
    func writesLeft(_ count: Int?) { state.withLock { $0.writesLeft = count } }

    var batches: [WriteBatch] { state.withLock { $0.batches } }

    func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try inner.get(key) }

    func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        try state.withLock { state throws(StorageError) in
            if let left = state.writesLeft {
                guard left > 0 else { throw StorageError("disk full") }
                state.writesLeft = left - 1
            }
            try inner.write(batch, sync: sync)
            state.batches.append(batch)
        }
    }

    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try inner.scan(prefix: prefix, body)
    }
}

extension PersistentICPLedger {
    /// Runs a call through the owner (written, then committed); a trap is rethrown.
    @discardableResult
    func run<Answer: Sendable>(_ call: (LedgerCanister) throws -> LedgerOutcome<Answer>) throws -> Answer {
        let result: Result<Answer, LedgerTrap> = try perform { ledger in
            do { return try call(ledger).map { .success($0) } } catch {
                return LedgerOutcome(.failure(error as? LedgerTrap ?? LedgerTrap("\(error)")))
            }
        }
        return try result.get()
    }
}
