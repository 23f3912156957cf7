import Foundation
import ICPIdentity
import ICPLedger
import KeyValueStorage
import LevelDBStorage
import Testing

/// Queries, metadata, and persistence: reopen, LevelDB, and a store that fails mid-operation.
@Suite struct QueryAndPersistenceTests {
    typealias F = Fixture

    @Test func metadataAndStandards() {
        let ledger = F.ledger()
        #expect(ledger.symbol == "ICP" && ledger.name == "Internet Computer" && ledger.decimals == 8)
        #expect(ledger.transferFee == Tokens(e8s: 10_000))
        #expect(ledger.icrc1MintingAccount == F.minting)
        #expect(ledger.icrc1Metadata.map(\.key) == ["icrc1:decimals", "icrc1:name", "icrc1:symbol", "icrc1:fee"])
        #expect(ledger.icrc1Metadata.map(\.value) == [.nat(8), .text("Internet Computer"), .text("ICP"), .nat(10_000)])
        #expect(ledger.icrc1SupportedStandards.map(\.name) == ["ICRC-1", "ICRC-2"])
        #expect(ledger.accountIdentifier(F.account(F.alice)) == F.id(F.alice).bytes)
        #expect(Tokens(e8s: 123_450_000).description == "1.2345 ICP")
    }

    @Test func queryBlocksRanges() throws {
        var ledger = LedgerCanister(configuration: F.configuration, now: F.start)
        for index in 0..<2005 { try ledger.mint(to: F.id(F.alice), amount: 1, memo: UInt64(index), now: F.start) }
        let all = ledger.queryBlocks(start: 0, length: 5000)
        #expect(
            all.chainLength == 2005 && all.blocks.count == 2000 && all.firstBlockIndex == 0 && all.certificate == nil)
        let tail = ledger.queryBlocks(start: 2003, length: 10)
        #expect(tail.blocks.map(\.transaction.memo) == [2003, 2004] && tail.firstBlockIndex == 2003)
        let past = ledger.queryBlocks(start: 9000, length: 10)
        #expect(past.blocks.isEmpty && past.firstBlockIndex == 2005)
        #expect(ledger.queryBlocks(start: 5, length: 0).blocks.isEmpty)
        for index in 1..<2005 { #expect(ledger.blocks[index].parentHash == ledger.blocks[index - 1].hash) }
    }

    /// Runs a few operations of every kind against `ledger`.
    static func exercise(_ ledger: inout LedgerCanister) throws {
        #expect(
            try ledger.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.carol), amount: 1_000, createdAtTime: F.start),
                now: F.start
            ).success != nil)
        #expect(
            try ledger.icrc2Approve(
                caller: F.alice, ApproveArgs(spender: F.account(F.bob), amount: 50_000, expiresAt: F.start + F.window),
                now: F.start
            ).success != nil)
        #expect(
            try ledger.icrc2TransferFrom(
                caller: F.bob, TransferFromArgs(from: F.account(F.alice), to: F.account(F.bob), amount: 100),
                now: F.start
            ).success != nil)
        #expect(
            try ledger.transfer(
                caller: F.bob, TransferArgs(amount: 10_000, fee: 0, to: F.id(F.minter).bytes), now: F.start
            ).success != nil)
    }

    @Test func reopenRestoresEverything() throws {
        let store = InMemoryStore()
        var ledger = try LedgerCanister.open(
            configuration: F.configuration, store: store,
            initialBalances: [(F.id(F.alice), 1_000_000), (F.id(F.bob), 20_000)],
            now: F.start)
        try Self.exercise(&ledger)
        let reopened = try LedgerCanister.open(
            configuration: F.configuration, store: store, initialBalances: [(F.id(F.carol), 5)], now: F.start)
        #expect(reopened.blocks == ledger.blocks)
        #expect(reopened.tipHash == ledger.tipHash)
        #expect(reopened.icrc1TotalSupply == ledger.icrc1TotalSupply)
        for principal in [F.alice, F.bob, F.carol, F.minter] {
            #expect(reopened.icrc1BalanceOf(F.account(principal)) == ledger.icrc1BalanceOf(F.account(principal)))
        }
        #expect(
            reopened.icrc2Allowance(account: F.account(F.alice), spender: F.account(F.bob), now: F.start)
                == Allowance(allowance: 50_000 - 100 - 10_000, expiresAt: F.start + F.window))
        // The deduplication index is rebuilt from the blocks.
        var again = reopened
        #expect(
            try again.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.carol), amount: 1_000, createdAtTime: F.start),
                now: F.start)
                == .failure(.duplicate(duplicateOf: 2)))
    }

    @Test func levelDBReopen() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("icp-ledger-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var tip: [UInt8]?
        do {
            let store = try LevelDBStore(path: directory)
            var ledger = try LedgerCanister.open(
                configuration: F.configuration, store: store, syncWrites: true,
                initialBalances: [(F.id(F.alice), 1_000_000), (F.id(F.bob), 20_000)], now: F.start)
            try Self.exercise(&ledger)
            tip = ledger.tipHash
        }
        let store = try LevelDBStore(path: directory)
        let ledger = try LedgerCanister.open(configuration: F.configuration, store: store, now: F.start)
        #expect(ledger.tipHash == tip && ledger.chainLength == 6)
        #expect(ledger.icrc1BalanceOf(F.account(F.carol)) == 1_000)
    }

    /// A store whose writes fail: the call traps and the ledger in memory is unchanged.
    final class FailingStore: KeyValueStore, @unchecked Sendable {
        // `@unchecked Sendable`: used from one test only.
        let inner = InMemoryStore()
        var failWrites = false
        func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try inner.get(key) }
        func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
            if failWrites { throw StorageError("disk full") }
            try inner.write(batch, sync: sync)
        }
        func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
            try inner.scan(prefix: prefix, body)
        }
    }

    @Test func failedWriteLeavesTheLedgerUnchanged() throws {
        let store = FailingStore()
        var ledger = try LedgerCanister.open(
            configuration: F.configuration, store: store, initialBalances: [(F.id(F.alice), 1_000_000)], now: F.start)
        store.failWrites = true
        #expect(throws: LedgerTrap("ledger storage: disk full")) {
            try ledger.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.bob), amount: 5, createdAtTime: F.start),
                now: F.start)
        }
        #expect(ledger.chainLength == 1 && ledger.icrc1BalanceOf(F.account(F.alice)) == 1_000_000)
        store.failWrites = false
        #expect(
            try ledger.icrc1Transfer(
                caller: F.alice, ICRC1TransferArgs(to: F.account(F.bob), amount: 5, createdAtTime: F.start),
                now: F.start) == .success(1))
        #expect(try LedgerCanister.open(configuration: F.configuration, store: store, now: F.start).chainLength == 2)
    }

    @Test func corruptStoreIsReported() throws {
        let store = InMemoryStore()
        _ = try LedgerCanister.open(
            configuration: F.configuration, store: store, initialBalances: [(F.id(F.alice), 1)], now: F.start)
        try store.put([UInt8(ascii: "M")], [0x83, 0x01, 0x05, 0x01])
        #expect(throws: LedgerTrap("ledger storage holds 1 blocks but its meta record says 5")) {
            try LedgerCanister.open(configuration: F.configuration, store: store, now: F.start)
        }
    }
}
