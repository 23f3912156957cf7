import EthereumLedger
import EthereumTypes
import Foundation
import KeyValueStorage
import LevelDBStorage
import Synchronization
import Testing

@testable import EthereumLedgerStorage

/// A real in-memory store that fails its writes on demand and keeps every batch it accepted.
final class FailingStore: KeyValueStore {
    let inner = InMemoryStore()
    private let state = Mutex<(failing: Bool, batches: [WriteBatch])>((false, []))

    var failing: Bool {
        get { state.withLock { $0.failing } }
        set { state.withLock { $0.failing = newValue } }
    }

    /// The batches written so far (cleared by ``forgetBatches()``).
    var batches: [WriteBatch] { state.withLock { $0.batches } }
    func forgetBatches() { state.withLock { $0.batches.removeAll() } }

    func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try inner.get(key) }

    func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        let fail = state.withLock { state in
            if !state.failing { state.batches.append(batch) }
            return state.failing
        }
        if fail { throw StorageError("disk full (test)") }
        try inner.write(batch, sync: sync)
    }

    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try inner.scan(prefix: prefix, body)
    }
}

/// Everything a client can observe of a ledger, to compare before and after.
struct Observed: Equatable {
    var head: [UInt8]
    var number: UInt64
    var accounts: [Address: Account]
    var pool: [[UInt8]]
    var burned: UInt256
    var supply: UInt256
    var nextBaseFee: UInt256

    init(_ ledger: Ledger) {
        head = ledger.head.hash
        number = ledger.blockNumber
        accounts = Dictionary(uniqueKeysWithValues: ledger.world.addresses.map { ($0, ledger.account($0)) })
        pool = ledger.pool.all.map(\.hash)
        burned = ledger.burned
        supply = ledger.totalSupply
        nextBaseFee = ledger.nextBaseFee
    }
}

@Suite struct LedgerOwnerTests {
    let now: UInt64 = 1_800_000_000
    static let failure = LedgerError.storageFailure("disk full (test)")

    func open(_ store: some KeyValueStore) throws -> PersistentLedger {
        try PersistentLedger.open(config: Fixtures.config, genesis: PersistenceTests.genesis, store: store)
    }

    @Test func aFailedBlockWriteLeavesMemoryUntouched() throws {
        let store = FailingStore()
        var owner = try open(store)
        _ = try owner.run { try $0.submit(Signed.transfer(nonce: 0), now: now) }
        let before = Observed(owner.ledger)
        store.failing = true
        let tx = Signed.transfer(nonce: 1)
        #expect(throws: Self.failure) { try owner.run { try $0.submit(tx, now: now) } }
        #expect(Self.failure.message == "data directory: disk full (test)")
        #expect(Observed(owner.ledger) == before)
        #expect(owner.ledger.transaction(tx.hash) == nil)
        // The client heard of the failure and the chain is where it was: the same transaction goes through.
        store.failing = false
        let mined = try owner.run { try $0.submit(tx, now: now) }.minedBlocks
        #expect(mined.map(\.number) == [2])
        let reopened = try open(store).ledger
        #expect(Observed(reopened) == Observed(owner.ledger))
    }

    @Test func failedDevChangesRevertsAndReorgsLeaveMemoryUntouched() throws {
        let store = FailingStore()
        var owner = try open(store)
        let beforeSnapshot = Observed(owner.ledger)
        let id = owner.perform { $0.snapshot() }
        for n in 0..<3 { _ = try owner.run { try $0.submit(Signed.transfer(nonce: UInt64(n)), now: now) } }
        let mined = Observed(owner.ledger)

        store.failing = true
        #expect(throws: Self.failure) { try owner.run { try $0.setBalance(Fixtures.carol, Fixtures.ether) } }
        #expect(throws: Self.failure) { try owner.run { try $0.setNonce(Signed.alice.address, 9) } }
        #expect(throws: Self.failure) { try owner.run { try $0.revert(to: id) } }
        #expect(throws: Self.failure) {
            try owner.run { try $0.reorg(depth: 2, requeueTransactions: true, now: now) }
        }
        #expect(throws: Self.failure) { try owner.run { try $0.mine(blocks: 5, now: now) } }
        #expect(Observed(owner.ledger) == mined)
        #expect(owner.ledger.retainedChanges.snapshots == 1)

        store.failing = false
        #expect(try owner.run { try $0.revert(to: id) })
        #expect(Observed(owner.ledger) == beforeSnapshot)
        #expect(owner.ledger.retainedChanges.snapshots == 0)
        #expect(owner.ledger.retainedChanges.journalEntries == 0)
        #expect(Observed(try open(store).ledger) == beforeSnapshot)
    }

    @Test func aRevertWritesOnlyWhatChanged() throws {
        let store = FailingStore()
        var owner = try open(store)
        for n in 0..<30 { _ = try owner.run { try $0.submit(Signed.transfer(nonce: UInt64(n)), now: now) } }
        let id = owner.perform { $0.snapshot() }
        let tx = Signed.transfer(nonce: 30)
        _ = try owner.run { try $0.submit(tx, now: now) }
        store.forgetBatches()
        #expect(try owner.run { try $0.revert(to: id) })
        let batches = store.batches
        #expect(batches.count == 1)
        // Block 31 with its hash, transaction and totals records, its three accounts (alice, bob, coinbase) and
        // their history after block 31, the pool record and the head record: nothing of the 30 blocks before.
        var be31: [UInt8] = [UInt8](repeating: 0, count: 7) + [31]
        be31.insert(UInt8(ascii: "B"), at: 0)
        let operations = batches.first?.operations ?? []
        #expect(operations.count == 12)
        #expect(operations.contains(.delete(be31)))
        #expect(operations.contains(.delete([UInt8(ascii: "P")] + tx.hash)))
        #expect(Observed(try open(store).ledger) == Observed(owner.ledger))
    }

    @Test func aReorgWritesOnlyWhatChanged() throws {
        let store = FailingStore()
        var owner = try open(store)
        for n in 0..<30 { _ = try owner.run { try $0.submit(Signed.transfer(nonce: UInt64(n)), now: now) } }
        store.forgetBatches()
        _ = try owner.run { try $0.reorg(depth: 1, requeueTransactions: true, now: now) }
        let operations = store.batches.flatMap(\.operations)
        #expect(store.batches.count == 1)
        // Block 30 replaced (the old hash record deleted; the new hash, the requeued transaction's location and
        // the totals put), the three accounts, their history after block 30, the pool record of the requeued
        // transaction (put and mined again: deleted) and the head record.
        #expect(operations.count == 13)
        #expect(Observed(try open(store).ledger) == Observed(owner.ledger))
    }

    @Test func readsAndUnpersistedSettingsWriteNothing() throws {
        let store = FailingStore()
        var owner = try open(store)
        store.forgetBatches()
        _ = owner.perform { $0.blockNumber }
        _ = owner.perform { $0.snapshot() }
        try owner.perform { try $0.increaseTime(60) }
        owner.perform { $0.setNextBaseFee(Fixtures.gwei) }
        #expect(store.batches.isEmpty)
    }

    @Test func snapshotMemoryFollowsChangesAndIsReleasedOnRevert() throws {
        var ledger = Fixtures.ledger(.manual)
        let first = ledger.snapshot()
        let atFirst = Observed(ledger)
        for _ in 0..<1_500 {
            _ = ledger.snapshot()
            _ = try ledger.mine(now: now)
        }
        // One journal entry per empty block: nothing is copied per snapshot.
        #expect(ledger.retainedChanges.snapshots == 1_501)
        #expect(ledger.retainedChanges.journalEntries == 1_500)
        #expect(try ledger.revert(to: first))
        #expect(ledger.retainedChanges.snapshots == 0)
        #expect(ledger.retainedChanges.journalEntries == 0)
        #expect(Observed(ledger) == atFirst)

        // The same through an owner, with transactions in the blocks.
        var owner = try open(InMemoryStore())
        let start = owner.perform { $0.snapshot() }
        let atStart = Observed(owner.ledger)
        for n in 0..<100 {
            _ = owner.perform { $0.snapshot() }
            _ = try owner.run { try $0.submit(Signed.transfer(nonce: UInt64(n)), now: now) }
        }
        // Per block: the pool insert and removal, three accounts, three history entries and the block.
        #expect(owner.ledger.retainedChanges.journalEntries == 100 * 9)
        #expect(try owner.run { try $0.revert(to: start) })
        #expect(owner.ledger.retainedChanges.snapshots == 0)
        #expect(owner.ledger.retainedChanges.journalEntries == 0)
        #expect(Observed(owner.ledger) == atStart)
    }

    @Test func strayOrShortKeysAreClearErrors() throws {
        for (key, expected) in [
            ([UInt8(ascii: "A"), 1, 2, 3], "key 41010203 under tag 'A' is 4 bytes long, expected 21"),
            ([UInt8(ascii: "B"), 0, 0], "key 420000 under tag 'B' is 3 bytes long, expected 9"),
            (
                [UInt8(ascii: "H")] + [UInt8](repeating: 7, count: 20),
                "key 48\(String(repeating: "07", count: 20)) under tag 'H' is 21 bytes long, expected 29"
            ),
            ([UInt8(ascii: "P"), 9], "key 5009 under tag 'P' is 2 bytes long, expected 33"),
        ] {
            let store = InMemoryStore()
            _ = try open(store)
            try store.put(key, [0xc0])
            #expect(throws: LedgerError.corruptDataDirectory("data directory is corrupt: " + expected)) {
                try open(store)
            }
        }
    }

    @Test func recordsWithoutAHeadRecordAreNotOverwritten() throws {
        let store = InMemoryStore()
        _ = try open(store)
        var batch = WriteBatch()
        batch.delete([UInt8(ascii: "M")])
        try store.write(batch, sync: false)
        #expect(
            throws: LedgerError.corruptDataDirectory(
                "data directory is inconsistent: it holds chain records but no head record; "
                    + "refusing to start a new chain over them")
        ) { try open(store) }
        #expect(try store.get([UInt8(ascii: "M")]) == nil)
    }

    /// The read cache's blocks are bounded by their transactions too: full blocks do not make 64 blocks' worth.
    @Test func theBlockCacheIsBoundedByTransactions() {
        var cache = FIFOCache<UInt64, String>(capacity: 64, weightLimit: 10)
        for n in 0..<3 { cache.put(UInt64(n), "b\(n)", weight: 4) }
        #expect(cache.count == 2)
        #expect(cache.weight == 8)
        #expect(cache.get(0) == nil && cache.get(2) == "b2")
        cache.put(3, "big", weight: 25)  // heavier than the limit alone: it stays, the rest go
        #expect(cache.count == 1 && cache.weight == 25 && cache.get(3) == "big")
        cache.remove(3)
        cache.put(3, "again", weight: 1)
        cache.put(4, "next", weight: 1)
        #expect(cache.count == 2 && cache.weight == 2 && cache.get(3) == "again")
        #expect(PersistentLedger.cachedTransactions == 4_096)
    }

    @Test func historyStaysInTheStoreAndIsReadThroughABoundedCache() throws {
        let store = InMemoryStore()
        func open() throws -> PersistentLedger {
            try PersistentLedger.open(
                config: Fixtures.config, genesis: PersistenceTests.genesis, store: store, recentBlocks: 8)
        }
        var owner = try open()
        var hashes: [[UInt8]] = [owner.ledger.head.hash]
        var transactions: [LedgerTransaction] = []
        for n in 0..<300 {
            let tx = Signed.transfer(nonce: UInt64(n))
            transactions.append(tx)
            _ = try owner.run { try $0.submit(tx, now: now) }
            hashes.append(owner.ledger.head.hash)
        }
        // Memory holds the recent blocks only; the rest are read back through a bounded cache.
        #expect(owner.ledger.chain.blocksInMemory <= 11)
        #expect((0...300).map { owner.ledger.block(number: UInt64($0))?.hash } == hashes)
        #expect(owner.cachedBlockCount == PersistentLedger.cachedBlocks)
        #expect(owner.cachedTransactionCount == PersistentLedger.cachedBlocks)  // one transfer a block
        let (receipt, block) = try #require(owner.ledger.receipt(transactions[3].hash))
        #expect(block.number == 4)
        #expect(receipt.transactionHash == transactions[3].hash)
        #expect(receipt.from == Signed.alice.address)
        #expect(owner.ledger.transaction(transactions[3].hash)?.1 == TransactionLocation(blockNumber: 4, index: 0))
        #expect(owner.ledger.block(hash: hashes[10])?.number == 10)

        // A revert over blocks mined after a snapshot, and reorgs deeper than memory.
        let id = owner.perform { $0.snapshot() }
        _ = try owner.run { try $0.mine(blocks: 50, now: now) }
        #expect(try owner.run { try $0.revert(to: id) })
        #expect(owner.ledger.head.hash == hashes[300])
        let replaced = try owner.run { try $0.reorg(depth: 100, requeueTransactions: true, now: now) }
        #expect(replaced.count == 100)
        #expect(owner.ledger.blockNumber == 300)
        #expect(owner.ledger.block(number: 200)?.hash == hashes[200])
        #expect(owner.ledger.block(number: 201)?.hash != hashes[201])
        #expect(owner.ledger.account(Signed.alice.address).nonce == 300)
        let afterReorg = (0...300).map { owner.ledger.block(number: UInt64($0))?.hash }
        let second = owner.perform { $0.snapshot() }
        _ = try owner.run { try $0.reorg(depth: 150, requeueTransactions: false, now: now) }
        _ = try owner.run { try $0.mine(blocks: 20, now: now) }
        #expect(owner.ledger.blockNumber == 320)
        #expect(try owner.run { try $0.revert(to: second) })
        #expect((0...300).map { owner.ledger.block(number: UInt64($0))?.hash } == afterReorg)
        #expect(owner.ledger.chain.blocksInMemory <= 11)

        let reopened = try open().ledger
        #expect(Observed(reopened) == Observed(owner.ledger))
        #expect(reopened.chain.blocksInMemory == 9)
        #expect((0...300).map { reopened.block(number: UInt64($0))?.hash } == afterReorg)
    }

    @Test func lookupsPastTheWindowComeFromTheStore() throws {
        let path = PersistenceTests.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        func open() throws -> PersistentLedger {
            try PersistentLedger.open(
                config: Fixtures.config, genesis: PersistenceTests.genesis, store: LevelDBStore(path: path),
                recentBlocks: 8)
        }
        let alice = Signed.alice.address
        let carol = Address([UInt8](repeating: 0xc4, count: 20))!
        var hashes: [[UInt8]] = []
        var transactions: [LedgerTransaction] = []
        var balances: [UInt256] = []
        var burned: [UInt256] = []
        // Memory holds a window of at most 8 + 2 + 1 blocks with their indexes and totals, and the history entries
        // after its first block (alice, bob and the coinbase change in every block), not 201 blocks' worth.
        func expectBounded(_ ledger: Ledger, window: Int) {
            let held = ledger.chain.heldInMemory
            #expect(held.blocks <= window)
            #expect(held.blockHashes == held.blocks)
            #expect(held.transactions == held.blocks)
            #expect(held.totals == held.blocks)
            #expect(held.historyEntries == 3 * (held.blocks - 1))
            #expect(ledger.chain.indexedFrom == 201 - UInt64(held.blocks))
        }
        do {
            var owner = try open()
            hashes = [owner.ledger.head.hash]
            balances = [owner.ledger.account(alice).balance]
            burned = [owner.ledger.burned]
            for n in 0..<200 {
                // One transfer to an address nothing else touches: only the store's records know it changed.
                let tx = Signed.transfer(to: n == 149 ? carol : Signed.bob.address, nonce: UInt64(n))
                transactions.append(tx)
                _ = try owner.run { try $0.submit(tx, now: now) }
                hashes.append(owner.ledger.head.hash)
                balances.append(owner.ledger.account(alice).balance)
                burned.append(owner.ledger.burned)
            }
            expectBounded(owner.ledger, window: 11)
            #expect(owner.cachedLookupCount == 0)

            // Lookups below the window are answered from the store, through the bounded caches.
            #expect(owner.ledger.block(hash: hashes[5])?.number == 5)
            #expect(owner.ledger.transaction(transactions[2].hash)?.1 == TransactionLocation(blockNumber: 3, index: 0))
            let (receipt, block) = try #require(owner.ledger.receipt(transactions[2].hash))
            #expect(receipt.transactionHash == transactions[2].hash)
            #expect(block.number == 3)
            for n in [0, 1, 3, 50, 150, 199] {
                #expect(owner.ledger.account(alice, atBlock: UInt64(n)).balance == balances[n])
            }
            #expect(owner.ledger.account(Fixtures.config.coinbase, atBlock: 0) == Account())
            // A state proof 100 blocks back rebuilds that block's trie from the changes the store records.
            let proof = try #require(owner.ledger.stateProof(alice, slots: [], atBlock: 100))
            #expect(proof.stateRoot == owner.ledger.block(number: 100)?.header.stateRoot)
            #expect(proof.account?.balance == balances[100])
            #expect(owner.ledger.block(hash: [UInt8](repeating: 7, count: 32)) == nil)
            #expect(owner.ledger.receipt([UInt8](repeating: 7, count: 32)) == nil)
            #expect(owner.cachedLookupCount > 0)
        }

        // Reopened: the same window, the same answers.
        var owner = try open()
        expectBounded(owner.ledger, window: 9)
        #expect(owner.ledger.block(hash: hashes[7])?.number == 7)
        #expect(owner.ledger.account(alice, atBlock: 20).balance == balances[20])

        // A reorg below the window brings back its blocks, history and per-block totals from the store: the
        // burned total is the one after block 40, also across the reopen.
        let replaced = try owner.run { try $0.reorg(depth: 160, requeueTransactions: false, now: now) }
        #expect(replaced.count == 160)
        #expect(owner.ledger.burned == burned[40])
        #expect(owner.ledger.account(alice).balance == balances[40])
        #expect(owner.ledger.block(number: 40)?.hash == hashes[40])
        #expect(owner.ledger.transaction(transactions[150].hash) == nil)
        #expect(owner.ledger.totalSupply == owner.ledger.world.sumOfBalances + owner.ledger.burned)
        let observed = Observed(owner.ledger)
        owner = PersistentLedger(Ledger(genesis: []))  // closes the database before it is reopened
        let reopened = try open().ledger
        #expect(Observed(reopened) == observed)
        #expect(reopened.transaction(transactions[150].hash) == nil)
        #expect(reopened.block(hash: hashes[100]) == nil)
        #expect(reopened.account(alice, atBlock: 30).balance == balances[30])
    }

    @Test func aVersion2StoreGetsItsIndexRecordsWhenOpened() throws {
        let store = InMemoryStore()
        func open() throws -> PersistentLedger {
            try PersistentLedger.open(
                config: Fixtures.config, genesis: PersistenceTests.genesis, store: store, recentBlocks: 4)
        }
        var transactions: [LedgerTransaction] = []
        var hashes: [[UInt8]] = []
        do {
            var owner = try open()
            for n in 0..<30 {
                let tx = Signed.transfer(nonce: UInt64(n))
                transactions.append(tx)
                _ = try owner.run { try $0.submit(tx, now: now) }
                hashes.append(owner.ledger.head.hash)
            }
        }
        // What version 2 wrote: no hash, transaction or totals records, and 2 in the head record.
        func count(_ tag: Unicode.Scalar) throws -> Int {
            var n = 0
            try store.scan(prefix: [UInt8(ascii: tag)]) { _, _ in
                n += 1
                return true
            }
            return n
        }
        var batch = WriteBatch()
        for tag: Unicode.Scalar in ["N", "T", "S"] {
            try store.scan(prefix: [UInt8(ascii: tag)]) { key, _ in
                batch.delete(key)
                return true
            }
        }
        var meta = try #require(try store.get([UInt8(ascii: "M")]))
        // rlp[version, …]: the version is the first byte after the list header.
        let at = meta[0] > 0xf7 ? 1 + Int(meta[0] - 0xf7) : 1
        #expect(meta[at] == 3)
        meta[at] = 2
        batch.put([UInt8(ascii: "M")], meta)
        try store.write(batch, sync: false)
        #expect(try count("T") == 0)

        var owner = try open()
        #expect(try store.get([UInt8(ascii: "M")])?[at] == 3)
        #expect(try count("N") == 31)
        #expect(try count("T") == 30)
        #expect(try count("S") == 31)
        #expect(owner.ledger.chain.indexedFrom == 26)
        #expect(owner.ledger.transaction(transactions[1].hash)?.1 == TransactionLocation(blockNumber: 2, index: 0))
        #expect(owner.ledger.block(hash: hashes[2])?.number == 3)
        let replaced = try owner.run { try $0.reorg(depth: 20, requeueTransactions: false, now: now) }
        #expect(replaced.count == 20)
        #expect(owner.ledger.account(Signed.alice.address).nonce == 10)
    }
}
