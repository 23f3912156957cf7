import ByteCoding
import EthereumLedger
import EthereumTypes
import KeyValueStorage
import RLPCoding

/// The owner of a ``Ledger`` kept in a ``KeyValueStore``: it lets the ledger compute an operation, writes what
/// changed as one atomic batch, and only then keeps the new state. When the write fails the ledger is rolled
/// back to where it was, so memory never runs ahead of the disk and the caller hears of the failure.
///
/// History stays in the store: the ledger holds the last ``recentBlocks`` blocks (and those a live snapshot may
/// need) with their hash and transaction indexes, totals and history entries, and reads older ones through caches
/// of at most ``cachedBlocks`` blocks (``cachedTransactions`` transactions) and 16 × ``cachedBlocks`` lookups each
/// (``StoredBlocks``), so memory stays flat however long the chain grows. Without a store the ledger holds everything and grows with the chain.
///
/// Without a store (``init(_:)``) it simply holds the ledger.
public struct PersistentLedger: Sendable {
    /// Blocks kept in memory behind the head by default.
    public static let recentBlocks: UInt64 = 32
    /// Older blocks kept in the read cache.
    public static let cachedBlocks = 64
    /// Transactions in the read cache's blocks together: a decoded transaction with its receipt costs ~1.5 KB (a
    /// node under the soak, whose blocks carry ~145, went from 69 to 83 MB RSS when a client read 210 old blocks),
    /// so this keeps the cache near 6 MB however full the blocks are.
    public static let cachedTransactions = 4_096

    /// The ledger as last committed.
    public private(set) var ledger: Ledger
    let store: (any KeyValueStore)?
    let archive: StoredBlocks?
    let syncWrites: Bool
    let recentBlocks: UInt64

    /// A ledger in memory only.
    public init(_ ledger: Ledger) {
        self.ledger = ledger
        self.store = nil
        self.archive = nil
        self.syncWrites = false
        self.recentBlocks = Self.recentBlocks
    }

    init(ledger: Ledger, store: any KeyValueStore, syncWrites: Bool, recentBlocks: UInt64) {
        let archive = StoredBlocks(
            store: store, capacity: Self.cachedBlocks, transactionLimit: Self.cachedTransactions)
        self.ledger = ledger
        self.ledger.archive = archive
        self.store = store
        self.archive = archive
        self.syncWrites = syncWrites
        self.recentBlocks = recentBlocks
        self.ledger.releaseBlocks(keepingRecent: recentBlocks)
    }

    /// Blocks in the read cache (bounded by ``cachedBlocks``).
    public var cachedBlockCount: Int { archive?.cachedCount ?? 0 }

    /// Transactions in the read cache's blocks (bounded by ``cachedTransactions``, except that the block read last
    /// always stays).
    public var cachedTransactionCount: Int { archive?.cachedTransactions ?? 0 }

    /// Hash, transaction and history lookups in the read caches (bounded by 3 × 16 × ``cachedBlocks``).
    public var cachedLookupCount: Int { archive?.cachedLookups ?? 0 }

    /// Runs `body` on the ledger and writes what it changed as one batch (nothing when it changed nothing).
    ///
    /// When `body` throws, what it changed before throwing is still written, then its error is rethrown. When the
    /// write fails the ledger is rolled back to where it was before `body` and
    /// ``LedgerError/storageFailure(_:)`` is thrown, if `E` can carry it; a body that cannot throw (`E` is
    /// `Never`: reads, and settings that are not persisted) gets its result with the ledger rolled back.
    @discardableResult
    public mutating func perform<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> sending T {
        guard let store else { return try body(&ledger) }
        let mark = ledger.beginChanges()
        let result: Result<T, E>
        do throws(E) { result = .success(try body(&ledger)) } catch { result = .failure(error) }
        let changes = LedgerChanges(ledger, since: mark)
        if !changes.isEmpty {
            do {
                try store.write(LedgerRecords.batch(changes), sync: syncWrites)
            } catch {
                ledger.rollBack(to: mark)
                if case .failure(let bodyError) = result { throw bodyError }
                if let failure = LedgerError.storageFailure(error.message) as? E { throw failure }
                return try result.get()
            }
        }
        archive?.forget(changes.blocks.map(\.number), removed: !changes.removedBlocks.isEmpty)
        ledger.commitChanges(mark)
        ledger.releaseBlocks(keepingRecent: recentBlocks)
        return try result.get()
    }

    /// Replaces the chain with `fresh` (`anvil_reset`): in a store, every record of the chain is deleted and `fresh`
    /// written in their place as one synced batch, so a crash leaves either chain whole. Only this chain's records are
    /// touched (other parts of the store, such as the ICP ledger's, stay). When the write fails nothing changes.
    public mutating func reset(to fresh: Ledger) throws(LedgerError) {
        guard let store else {
            ledger = fresh
            return
        }
        var batch = WriteBatch()
        do {
            for tag in [
                LedgerRecords.blockTag, LedgerRecords.accountTag, LedgerRecords.historyTag, LedgerRecords.poolTag,
                LedgerRecords.blockHashTag, LedgerRecords.transactionTag, LedgerRecords.blockChangesTag,
            ] {
                try store.scan(prefix: [tag]) { key, _ in
                    batch.delete(key)
                    return true
                }
            }
        } catch {
            throw .storageFailure("\(error)")
        }
        batch.delete(LedgerRecords.parametersKey)
        for operation in LedgerRecords.batch(LedgerChanges(everythingIn: fresh)).operations {
            switch operation {
            case .put(let key, let value): batch.put(key, value)
            case .delete(let key): batch.delete(key)
            }
        }
        do { try store.write(batch, sync: true) } catch { throw .storageFailure(error.message) }
        archive?.forgetAll()
        ledger = fresh
        ledger.archive = archive
        ledger.releaseBlocks(keepingRecent: recentBlocks)
    }

    /// Writes the head record with a synced write (clean shutdown); everything else is already written.
    public func flush() throws(LedgerError) {
        guard let store else { return }
        var batch = WriteBatch()
        batch.put(LedgerRecords.metaKey, LedgerRecords.meta(LedgerChanges.Head(of: ledger)))
        do { try store.write(batch, sync: true) } catch { throw .storageFailure(error.message) }
    }

    /// Opens the chain kept in `store`, or creates it from `genesis` when the store holds no chain.
    ///
    /// - Throws: ``LedgerError/storageFailure(_:)`` when the store fails;
    ///   ``LedgerError/corruptDataDirectory(_:)`` when its records do not decode or fit together (or it holds
    ///   chain records but no head record: a new chain is never written over them);
    ///   ``LedgerError/dataDirectoryChainMismatch(stored:configured:)`` and
    ///   ``LedgerError/unsupportedDataVersion(found:expected:)``.
    ///
    /// - Parameter recentBlocks: blocks kept in memory behind the head (older ones are read from `store`).
    public static func open(
        config: ChainConfig, genesis: [GenesisAccount], store: any KeyValueStore, syncWrites: Bool = false,
        recentBlocks: UInt64 = PersistentLedger.recentBlocks
    ) throws(LedgerError) -> PersistentLedger {
        let meta: [UInt8]?
        do { meta = try store.get(LedgerRecords.metaKey) } catch { throw .storageFailure(error.message) }
        guard let meta else {
            for tag in [
                LedgerRecords.blockTag, LedgerRecords.accountTag, LedgerRecords.historyTag, LedgerRecords.poolTag,
                LedgerRecords.blockHashTag, LedgerRecords.transactionTag, LedgerRecords.blockChangesTag,
            ] {
                var found = false
                do {
                    try store.scan(prefix: [tag]) { _, _ in
                        found = true
                        return false
                    }
                } catch {
                    throw .storageFailure("\(error)")
                }
                if found {
                    throw .corruptDataDirectory(
                        "data directory is inconsistent: it holds chain records but no head record; "
                            + "refusing to start a new chain over them")
                }
            }
            let fresh = Ledger(config: config, genesis: genesis)
            do {
                try store.write(LedgerRecords.batch(LedgerChanges(everythingIn: fresh)), sync: true)
            } catch {
                throw .storageFailure(error.message)
            }
            return PersistentLedger(ledger: fresh, store: store, syncWrites: syncWrites, recentBlocks: recentBlocks)
        }
        let (ledger, stale) = try LedgerRecords.load(config: config, meta: meta, store: store, keep: recentBlocks)
        if !stale.isEmpty {
            // Pool transactions included before a crash: delete their records now.
            var batch = WriteBatch()
            for hash in stale { batch.delete(LedgerRecords.poolKey(hash)) }
            do { try store.write(batch, sync: syncWrites) } catch { throw .storageFailure(error.message) }
        }
        return PersistentLedger(ledger: ledger, store: store, syncWrites: syncWrites, recentBlocks: recentBlocks)
    }
}

extension LedgerRecords {
    /// Reads a whole chain back. Every key is checked before it is used: a stray or short key is a clear error.
    static func load(
        config: ChainConfig, meta: [UInt8], store: any KeyValueStore, keep: UInt64
    ) throws(LedgerError) -> (Ledger, stale: [[UInt8]]) {
        do {
            return try loadRecords(config: config, meta: meta, store: store, keep: keep)
        } catch let error as LedgerError {
            throw error
        } catch let error as StorageError {
            throw .storageFailure(error.message)
        } catch {
            throw .corruptDataDirectory("data directory is corrupt: \(error)")
        }
    }

    /// A record that does not decode, with where it is.
    struct RecordError: Error, CustomStringConvertible {
        var key: [UInt8]
        var why: String
        var description: String { "record \(Hex.encode(key.prefix(40))): \(why)" }
    }

    static func checkKey(_ key: [UInt8], length: Int) throws(LedgerError) {
        guard key.count == length else {
            throw .corruptDataDirectory(
                "data directory is corrupt: key \(Hex.encode(key.prefix(40))) under tag "
                    + "'\(String(UnicodeScalar(key[0])))' is \(key.count) bytes long, expected \(length)")
        }
    }

    static func decoding<T>(_ key: [UInt8], _ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw RecordError(key: key, why: "\(error)") }
    }

    /// Scans every block once (checking that each chains to its parent) and keeps only the last `keep + 1` in
    /// memory, with the history entries from the first of them on; the rest of the history stays in the store.
    static func loadRecords(
        config: ChainConfig, meta: [UInt8], store: any KeyValueStore, keep: UInt64
    ) throws -> (Ledger, stale: [[UInt8]]) {
        var r = RLPReader(meta)
        var m = try decoding(metaKey) { () throws in try r.readList() }
        let (version, headNumber, burned, supply, chainID, genesisHash) = try decoding(metaKey) {
            () throws in
            (
                try m.readUInt64(), try m.readUInt64(), try uint256(&m), try uint256(&m), try m.readUInt64(),
                Array(try m.readFixedBytes(32))
            )
        }
        guard version == LedgerRecords.version || version == 2 else {
            throw LedgerError.unsupportedDataVersion(found: version, expected: LedgerRecords.version)
        }
        guard chainID == config.chainID else {
            throw LedgerError.dataDirectoryChainMismatch(stored: chainID, configured: config.chainID)
        }
        let heldFrom = headNumber > keep ? headNumber - keep : 0
        // A version 2 store gets its index records (totals: the head's, as version 2 kept them) in one batch.
        var upgrade: WriteBatch? = version == 2 ? WriteBatch() : nil
        var blocks: [Block] = []
        var previous: Block?
        var expected: UInt64 = 0
        try store.scan(prefix: [blockTag]) { key, value in
            try checkKey(key, length: 9)
            let number = readBE64(key[1...])
            guard number <= headNumber else { return false }
            let block = try decoding(key) { () throws in try decodeBlock(value) }
            guard block.number == number, number == expected else {
                throw LedgerError.corruptDataDirectory(
                    "data directory is inconsistent: expected blocks 0…\(headNumber), found block \(number) "
                        + "after \(previous.map { String($0.number) } ?? "none")")
            }
            if let previous, block.header.parentHash != previous.hash {
                throw LedgerError.corruptDataDirectory(
                    "data directory is inconsistent: block \(number) does not chain to its parent")
            }
            if number == 0 && block.hash != genesisHash {
                throw LedgerError.corruptDataDirectory(
                    "data directory is inconsistent: expected blocks 0…\(headNumber)")
            }
            if upgrade != nil {
                upgrade?.put(blockHashKey(block.hash), be64(number))
                for (index, tx) in block.transactions.enumerated() {
                    upgrade?.put(transactionKey(tx.hash), be64(number) + be64(UInt64(index)))
                }
            }
            if number >= heldFrom { blocks.append(block) }
            previous = block
            expected += 1
            return true
        }
        guard expected == headNumber + 1 else {
            throw LedgerError.corruptDataDirectory("data directory is inconsistent: expected blocks 0…\(headNumber)")
        }
        // The account records in key order (= address order) first, into an array: the history pass below walks
        // it alongside the history records (also in address order) instead of looking every address up, and the
        // map is then made once at its final size instead of growing (and rehashing) by doubling.
        var loaded: [(address: Address, account: Account)] = []
        var ordered = true
        try store.scan(prefix: [accountTag]) { key, value in
            try checkKey(key, length: 21)
            let address = try readAddress(key[1...], at: 1)
            if let last = loaded.last, !(last.address < address) { ordered = false }
            loaded.append((address, try decoding(key) { () throws in try decodeAccount(value) }))
            return true
        }
        var accounts = [Address: Account](minimumCapacity: loaded.count)
        if !ordered { for (address, account) in loaded { accounts[address] = account } }
        // One pass over the history in key order (per address, by block): the window's entries are kept; of the
        // rest only the state at the head, where the account record differs from it (dev changes after the head).
        var history: [Address: [HistoryEntry]] = [:]
        var sealed: [Address: Account?] = [:]
        var changedAt: [UInt64: [Address]] = [:]
        var current: (address: Address, last: HistoryEntry)?
        var withHistory = 0
        var cursor = 0
        /// The account record of `address`: a forward walk while addresses are asked in ascending order (history
        /// keys are), a walk from the start otherwise.
        func accountRecord(_ address: Address) -> Account? {
            guard ordered else { return accounts[address] }
            if cursor > 0, !(loaded[cursor - 1].address < address) { cursor = 0 }
            while cursor < loaded.count, loaded[cursor].address < address { cursor += 1 }
            return cursor < loaded.count && loaded[cursor].address == address ? loaded[cursor].account : nil
        }
        func finish() {
            guard let (address, last) = current else { return }
            let now = accountRecord(address)
            if now != nil { withHistory += 1 }
            if now != last.account { sealed[address] = last.account }
        }
        try store.scan(prefix: [historyTag]) { key, value in
            try checkKey(key, length: 29)
            let address = try readAddress(key[1..<21], at: 1)
            let n = readBE64(key[21..<29])
            guard n <= headNumber else { return true }
            let account = value.isEmpty ? nil : try decoding(key) { () throws in try decodeAccount(value) }
            let entry = HistoryEntry(block: n, account: account)
            if current?.address != address { finish() }
            current = (address, entry)
            if n > heldFrom { history[address, default: []].append(entry) }
            if upgrade != nil { changedAt[n, default: []].append(address) }
            return true
        }
        finish()
        if ordered {
            for (address, account) in loaded { accounts[address] = account }
        }
        loaded = []
        if withHistory < accounts.count {
            // Accounts created by dev methods after the head, with no history: not in the sealed state. Rare, so
            // the addresses with history are only collected then.
            var seen = Set<Address>()
            try store.scan(prefix: [historyTag]) { key, _ in
                if readBE64(key[21..<29]) <= headNumber { seen.insert(try readAddress(key[1..<21], at: 1)) }
                return true
            }
            for address in accounts.keys where !seen.contains(address) { sealed[address] = .some(nil) }
        }
        var totals: [Totals] = []
        if var batch = upgrade {
            for number in 0...headNumber {
                batch.put(
                    blockChangesKey(number),
                    encodeBlockChanges(Totals(burned: burned, supply: supply), changedAt[number] ?? []))
            }
            batch.put(
                metaKey,
                LedgerRecords.meta(
                    LedgerChanges.Head(
                        number: headNumber, burned: burned, supply: supply, chainID: chainID, genesisHash: genesisHash))
            )
            try store.write(batch, sync: true)
        } else {
            for block in blocks {
                guard let bytes = try store.get(blockChangesKey(block.number)) else {
                    throw LedgerError.corruptDataDirectory(
                        "data directory is inconsistent: block \(block.number) has no totals record")
                }
                totals.append(
                    try decoding(blockChangesKey(block.number)) { () throws in try decodeBlockChanges(bytes).totals })
            }
        }
        var pool: [LedgerTransaction] = []
        try store.scan(prefix: [poolTag]) { key, value in
            try checkKey(key, length: 33)
            var reader = RLPReader(value)
            let tx = try decoding(key) { () throws in try decodeTransaction(&reader) }
            guard tx.hash == Array(key[1...]) else { throw RecordError(key: key, why: "holds another transaction") }
            pool.append(tx)
            return true
        }
        var stored = StoredChain(
            blocks: blocks, totals: totals, genesisHash: genesisHash, accounts: accounts, history: history,
            sealed: sealed, pool: pool, burned: burned, supply: supply)
        if let bytes = try store.get(parametersKey) {
            stored.parameters = try decoding(parametersKey) { () throws in try decodeParameters(bytes) }
        }
        let ledger = try Ledger(config: config, restoring: stored)
        let stale = pool.map(\.hash).filter { !ledger.pool.contains($0) }
        return (ledger, stale)
    }
}
