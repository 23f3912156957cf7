import EthereumTypes
import KeccakHashing
import KeyValueStorage
import MerkleTrie
import RLPCoding

/// Keeps a ledger in a ``KeyValueStore``. Layout (all keys start with one tag byte):
/// - `M` → meta rlp[version, head number, burned, supply, chain id, genesis hash]
/// - `B` ‖ be64(number) → block rlp[header, transactions, receipts]
/// - `A` ‖ address → account rlp[nonce, balance, code]
/// - `H` ‖ address ‖ be64(block) → account after that block (empty value: account removed)
/// - `P` ‖ hash → a pool transaction (written and deleted incrementally)
///
/// Each block is written in ONE atomic batch with the meta record, so a process killed at any moment
/// reopens at the last committed block (LevelDB batches are all-or-nothing).
final class LedgerPersistence: @unchecked Sendable {
    // `@unchecked Sendable`: owned by exactly one Ledger value, which the server mutates under one lock.
    let store: any KeyValueStore
    let syncWrites: Bool
    var pendingDirty: Set<Address> = []
    static let version: UInt64 = 1

    init(store: any KeyValueStore, syncWrites: Bool) {
        self.store = store
        self.syncWrites = syncWrites
    }

    func noteDirty(_ addresses: Set<Address>) { pendingDirty.formUnion(addresses) }

    func storageFailure(_ error: StorageError) -> LedgerError { .invalidRequest("data directory: \(error.message)") }

    /// One batch: the block, the accounts it changed, their history, the pool and the meta record.
    func commit(block: Block, ledger: inout Ledger) throws(LedgerError) {
        var batch = WriteBatch()
        batch.put(Self.blockKey(block.number), Self.encode(block))
        for address in pendingDirty {
            let account = ledger.state.accounts[address]
            if let account { batch.put(Self.accountKey(address), Self.encode(account)) } else {
                batch.delete(Self.accountKey(address))
            }
            batch.put(Self.historyKey(address, block.number), account.map(Self.encode) ?? [])
        }
        pendingDirty.removeAll(keepingCapacity: true)
        Self.append(poolChanges: &ledger.state.pool, to: &batch)
        batch.put([UInt8(ascii: "M")], Self.meta(ledger))
        do { try store.write(batch, sync: syncWrites) } catch { throw storageFailure(error) }
    }

    /// Pool changes alone (a submission that mined nothing).
    func commitPool(ledger: inout Ledger) throws(LedgerError) {
        var batch = WriteBatch()
        Self.append(poolChanges: &ledger.state.pool, to: &batch)
        guard !batch.isEmpty else { return }
        do { try store.write(batch, sync: syncWrites) } catch { throw storageFailure(error) }
    }

    static func poolKey(_ hash: [UInt8]) -> [UInt8] { [UInt8(ascii: "P")] + hash }

    static func append(poolChanges pool: inout TransactionPool, to batch: inout WriteBatch) {
        for (hash, change) in pool.drainJournal() {
            switch change {
            case .put(let tx):
                var e = RLPEncoder(capacity: 200 + tx.data.count)
                append(tx, to: &e)
                batch.put(poolKey(hash), e.bytes)
            case .delete:
                batch.delete(poolKey(hash))
            }
        }
    }

    /// Dev changes outside a block: accounts and pool now, sealed into history with the next block.
    func commitState(ledger: inout Ledger) throws(LedgerError) {
        var batch = WriteBatch()
        for address in ledger.state.dirty {
            if let account = ledger.state.accounts[address] {
                batch.put(Self.accountKey(address), Self.encode(account))
            } else {
                batch.delete(Self.accountKey(address))
            }
        }
        Self.append(poolChanges: &ledger.state.pool, to: &batch)
        batch.put([UInt8(ascii: "M")], Self.meta(ledger))
        do { try store.write(batch, sync: syncWrites) } catch { throw storageFailure(error) }
    }

    /// After a revert or reorg: replace everything in one batch.
    func rewriteAll(ledger: inout Ledger) throws(LedgerError) {
        var batch = WriteBatch()
        do {
            for tag in ["A", "B", "H", "P"] {
                try store.scan(prefix: [UInt8(ascii: tag.unicodeScalars.first!)]) { key, _ in
                    batch.delete(key)
                    return true
                }
            }
        } catch {
            throw .invalidRequest("data directory: \(error)")
        }
        for block in ledger.state.blocks { batch.put(Self.blockKey(block.number), Self.encode(block)) }
        for (address, account) in ledger.state.accounts { batch.put(Self.accountKey(address), Self.encode(account)) }
        for (address, entries) in ledger.state.history {
            for entry in entries {
                batch.put(Self.historyKey(address, entry.block), entry.account.map(Self.encode) ?? [])
            }
        }
        _ = ledger.state.pool.drainJournal()
        for tx in ledger.state.pool.all {
            var e = RLPEncoder(capacity: 200 + tx.data.count)
            Self.append(tx, to: &e)
            batch.put(Self.poolKey(tx.hash), e.bytes)
        }
        batch.put([UInt8(ascii: "M")], Self.meta(ledger))
        pendingDirty.removeAll()
        do { try store.write(batch, sync: true) } catch { throw storageFailure(error) }
    }

    func flush(ledger: inout Ledger) throws(LedgerError) {
        var batch = WriteBatch()
        Self.append(poolChanges: &ledger.state.pool, to: &batch)
        batch.put([UInt8(ascii: "M")], Self.meta(ledger))
        do { try store.write(batch, sync: true) } catch { throw storageFailure(error) }
    }

    // MARK: Keys

    static func be64(_ n: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: n >> (56 - UInt64($0) * 8)) } }
    static func blockKey(_ n: UInt64) -> [UInt8] { [UInt8(ascii: "B")] + be64(n) }
    static func accountKey(_ a: Address) -> [UInt8] { [UInt8(ascii: "A")] + a.bytes }
    static func historyKey(_ a: Address, _ n: UInt64) -> [UInt8] { [UInt8(ascii: "H")] + a.bytes + be64(n) }

    static func meta(_ ledger: Ledger) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { m in
            m.appendUInt64(version)
            m.appendUInt64(ledger.blockNumber)
            m.appendBytes(ledger.state.burned.minimalBigEndianBytes)
            m.appendBytes(ledger.state.supply.minimalBigEndianBytes)
            m.appendUInt64(ledger.config.chainID)
            m.appendBytes(ledger.state.blocks[0].hash)
        }
        return e.bytes
    }

    // MARK: Encoding

    static func encode(_ account: Account) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { l in
            l.appendUInt64(account.nonce)
            l.appendBytes(account.balance.minimalBigEndianBytes)
            l.appendBytes(account.code)
        }
        return e.bytes
    }

    static func decodeAccount(_ bytes: [UInt8]) throws(RLPDecodingError) -> Account {
        var r = RLPReader(bytes)
        var l = try r.readList()
        let nonce = try l.readUInt64()
        let balance = try uint256(&l)
        let code = Array(try l.readBytes())
        return Account(nonce: nonce, balance: balance, code: code)
    }

    static func uint256(_ r: inout RLPReader) throws(RLPDecodingError) -> UInt256 {
        let at = r.position
        let bytes = try r.readUnsignedIntegerBytes(maxBytes: 32)
        guard let value = UInt256(bigEndian: bytes) else { throw RLPDecodingError(.integerOverflow, at: at) }
        return value
    }

    static func append(_ tx: LedgerTransaction, to e: inout RLPEncoder) {
        e.appendList { t in
            t.appendUInt64(UInt64(tx.type))
            t.appendList { c in if let id = tx.chainID { c.appendUInt64(id) } }
            t.appendUInt64(tx.nonce)
            t.appendUInt64(tx.gasLimit)
            t.appendBytes(tx.maxFeePerGas.minimalBigEndianBytes)
            t.appendBytes(tx.maxPriorityFeePerGas.minimalBigEndianBytes)
            t.appendBytes(tx.to?.bytes ?? [])
            t.appendBytes(tx.value.minimalBigEndianBytes)
            t.appendBytes(tx.data)
            t.appendList { list in
                for entry in tx.accessList {
                    list.appendList { item in
                        item.appendBytes(entry.address.bytes)
                        item.appendList { keys in for k in entry.storageKeys { keys.appendBytes(k) } }
                    }
                }
            }
            t.appendUInt64(tx.intrinsicGas)
            t.appendUInt64(tx.floorGas)
            t.appendBytes(tx.hash)
            t.appendBytes(tx.sender.bytes)
            t.appendBytes(tx.encoding)
            t.appendBytes(tx.v.minimalBigEndianBytes)
            t.appendBytes(tx.r.minimalBigEndianBytes)
            t.appendBytes(tx.s.minimalBigEndianBytes)
        }
    }

    static func decodeTransaction(_ r: inout RLPReader) throws(RLPDecodingError) -> LedgerTransaction {
        var t = try r.readList()
        let type = UInt8(truncatingIfNeeded: try t.readUInt64())
        var c = try t.readList()
        let chainID: UInt64? = c.isAtEnd ? nil : try c.readUInt64()
        let nonce = try t.readUInt64()
        let gas = try t.readUInt64()
        let maxFee = try uint256(&t)
        let tip = try uint256(&t)
        let toBytes = try t.readBytes()
        let value = try uint256(&t)
        let data = Array(try t.readBytes())
        var list = try t.readList()
        var accessList: [LedgerTransaction.AccessListEntry] = []
        while !list.isAtEnd {
            var item = try list.readList()
            let address = Address(try item.readFixedBytes(20))!
            var keys = try item.readList()
            var storageKeys: [[UInt8]] = []
            while !keys.isAtEnd { storageKeys.append(Array(try keys.readBytes())) }
            accessList.append(.init(address: address, storageKeys: storageKeys))
        }
        let intrinsic = try t.readUInt64()
        let floor = try t.readUInt64()
        let hash = Array(try t.readFixedBytes(32))
        let sender = Address(try t.readFixedBytes(20))!
        let encoding = Array(try t.readBytes())
        let v = try uint256(&t)
        let rr = try uint256(&t)
        let s = try uint256(&t)
        return LedgerTransaction(
            type: type, chainID: chainID, nonce: nonce, gasLimit: gas, maxFeePerGas: maxFee,
            maxPriorityFeePerGas: tip, to: toBytes.isEmpty ? nil : Address(toBytes), value: value, data: data,
            accessList: accessList, intrinsicGas: intrinsic, floorGas: floor, hash: hash, sender: sender,
            encoding: encoding, v: v, r: rr, s: s)
    }

    static func encodePool(_ txs: [LedgerTransaction]) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { l in for tx in txs { append(tx, to: &l) } }
        return e.bytes
    }

    static func encode(_ block: Block) -> [UInt8] {
        var e = RLPEncoder(capacity: 1024)
        e.appendList { b in
            b.appendRaw(block.header.encoding)
            b.appendList { txs in for tx in block.transactions { append(tx, to: &txs) } }
            b.appendList { rs in
                for r in block.receipts {
                    rs.appendList { x in
                        x.appendUInt64(UInt64(r.type))
                        x.appendUInt64(r.status ? 1 : 0)
                        x.appendUInt64(r.cumulativeGasUsed)
                        x.appendUInt64(r.gasUsed)
                        x.appendBytes(r.effectiveGasPrice.minimalBigEndianBytes)
                        x.appendBytes(r.transactionHash)
                        x.appendUInt64(UInt64(r.transactionIndex))
                        x.appendBytes(r.from.bytes)
                        x.appendBytes(r.to?.bytes ?? [])
                        x.appendBytes(r.contractAddress?.bytes ?? [])
                    }
                }
            }
        }
        return e.bytes
    }

    static func decodeHeader(_ r: inout RLPReader) throws(RLPDecodingError) -> BlockHeader {
        var h = try r.readList()
        let parent = Array(try h.readFixedBytes(32))
        let ommers = Array(try h.readFixedBytes(32))
        let coinbase = Address(try h.readFixedBytes(20))!
        let stateRoot = Array(try h.readFixedBytes(32))
        let txRoot = Array(try h.readFixedBytes(32))
        let receiptsRoot = Array(try h.readFixedBytes(32))
        let bloom = Array(try h.readFixedBytes(256))
        let difficulty = try uint256(&h)
        let number = try h.readUInt64()
        let gasLimit = try h.readUInt64()
        let gasUsed = try h.readUInt64()
        let timestamp = try h.readUInt64()
        let extra = Array(try h.readBytes())
        let mix = Array(try h.readFixedBytes(32))
        let nonce = Array(try h.readFixedBytes(8))
        let baseFee = try uint256(&h)
        var header = BlockHeader(
            parentHash: parent, coinbase: coinbase, stateRoot: stateRoot, transactionsRoot: txRoot,
            receiptsRoot: receiptsRoot, number: number, gasLimit: gasLimit, gasUsed: gasUsed, timestamp: timestamp,
            extraData: extra, mixHash: mix, baseFeePerGas: baseFee)
        header.ommersHash = ommers
        header.logsBloom = bloom
        header.difficulty = difficulty
        header.nonce = nonce
        header.withdrawalsRoot = h.isAtEnd ? nil : Array(try h.readFixedBytes(32))
        header.blobGasUsed = h.isAtEnd ? nil : try h.readUInt64()
        header.excessBlobGas = h.isAtEnd ? nil : try h.readUInt64()
        header.parentBeaconBlockRoot = h.isAtEnd ? nil : Array(try h.readFixedBytes(32))
        header.requestsHash = h.isAtEnd ? nil : Array(try h.readFixedBytes(32))
        return header
    }

    static func decodeBlock(_ bytes: [UInt8]) throws(RLPDecodingError) -> Block {
        var r = RLPReader(bytes)
        var b = try r.readList()
        let header = try decodeHeader(&b)
        var txList = try b.readList()
        var txs: [LedgerTransaction] = []
        while !txList.isAtEnd { txs.append(try decodeTransaction(&txList)) }
        var receiptList = try b.readList()
        var receipts: [Receipt] = []
        while !receiptList.isAtEnd {
            var x = try receiptList.readList()
            let type = UInt8(truncatingIfNeeded: try x.readUInt64())
            let status = try x.readUInt64() == 1
            let cumulative = try x.readUInt64()
            let gasUsed = try x.readUInt64()
            let price = try uint256(&x)
            let hash = Array(try x.readFixedBytes(32))
            let index = Int(try x.readUInt64())
            let from = Address(try x.readFixedBytes(20))!
            let to = try x.readBytes()
            let contract = try x.readBytes()
            receipts.append(
                Receipt(
                    type: type, status: status, cumulativeGasUsed: cumulative, gasUsed: gasUsed,
                    effectiveGasPrice: price, logs: [], logsBloom: LogsBloom.empty, transactionHash: hash,
                    transactionIndex: index, blockNumber: header.number, from: from,
                    to: to.isEmpty ? nil : Address(to), contractAddress: contract.isEmpty ? nil : Address(contract)))
        }
        return Block(header: header, hash: header.hash, transactions: txs, receipts: receipts)
    }
}

extension Ledger {
    /// Opens the chain kept in `store`, or creates it from `genesis` when the store is empty. Every sealed
    /// block is then written to the store in one atomic batch.
    public static func open(
        config: ChainConfig, genesis: [GenesisAccount], store: any KeyValueStore, syncWrites: Bool = false
    ) throws(LedgerError) -> Ledger {
        let persistence = LedgerPersistence(store: store, syncWrites: syncWrites)
        let fresh = Ledger(config: config, genesis: genesis)
        let meta: [UInt8]?
        do { meta = try store.get([UInt8(ascii: "M")]) } catch { throw persistence.storageFailure(error) }
        guard let meta else {
            var ledger = fresh
            ledger.persistence = persistence
            try persistence.rewriteAll(ledger: &ledger)
            return ledger
        }
        do {
            return try load(config: config, fresh: fresh, meta: meta, persistence: persistence)
        } catch let error as LedgerError {
            throw error
        } catch {
            throw .invalidRequest("data directory is corrupt: \(error)")
        }
    }

    static func load(
        config: ChainConfig, fresh: Ledger, meta: [UInt8], persistence: LedgerPersistence
    ) throws -> Ledger {
        var r = RLPReader(meta)
        var m = try r.readList()
        let version = try m.readUInt64()
        guard version == LedgerPersistence.version else {
            throw LedgerError.invalidRequest("data directory has format version \(version), expected \(LedgerPersistence.version)")
        }
        let headNumber = try m.readUInt64()
        let burned = try LedgerPersistence.uint256(&m)
        let supply = try LedgerPersistence.uint256(&m)
        let chainID = try m.readUInt64()
        let genesisHash = Array(try m.readFixedBytes(32))
        guard chainID == config.chainID else {
            throw LedgerError.invalidRequest(
                "data directory holds chain id \(chainID), not \(config.chainID); use another --data-dir")
        }
        var ledger = fresh
        ledger.state = ChainState()
        var blocks: [Block] = []
        let store = persistence.store
        try store.scan(prefix: [UInt8(ascii: "B")]) { key, value in
            let block = try LedgerPersistence.decodeBlock(value)
            guard block.number <= headNumber else { return false }
            blocks.append(block)
            return true
        }
        guard blocks.count == Int(headNumber) + 1, blocks.first?.hash == genesisHash else {
            throw LedgerError.invalidRequest("data directory is inconsistent: expected blocks 0…\(headNumber)")
        }
        ledger.state.blocks = blocks
        for block in blocks {
            ledger.state.blockNumbers[block.hash] = block.number
            for (i, tx) in block.transactions.enumerated() {
                ledger.state.transactionIndex[tx.hash] = TransactionLocation(blockNumber: block.number, index: i)
            }
        }
        try store.scan(prefix: [UInt8(ascii: "A")]) { key, value in
            let address = Address(key[1...])!
            let account = try LedgerPersistence.decodeAccount(value)
            ledger.state.accounts[address] = account
            return true
        }
        try store.scan(prefix: [UInt8(ascii: "H")]) { key, value in
            let address = Address(key[1..<21])!
            var n: UInt64 = 0
            for b in key[21..<29] { n = n << 8 | UInt64(b) }
            guard n <= headNumber else { return true }
            let account = value.isEmpty ? nil : try LedgerPersistence.decodeAccount(value)
            ledger.state.history[address, default: []].append((n, account))
            return true
        }
        // Accounts written after the last block (dev methods) are newer than their history: seal them next.
        for (address, account) in ledger.state.accounts where ledger.state.history[address]?.last?.account != account {
            ledger.state.dirty.insert(address)
        }
        // The committed state root is the head's; rebuild the trie from history's view at the head.
        for (address, entries) in ledger.state.history {
            if let account = entries.last?.account, !account.isEmpty || !account.code.isEmpty {
                ledger.state.stateTrie.set(Keccak256.hash(address.bytes), account.stateEncoding)
            }
        }
        guard ledger.state.stateTrie.rootHash == blocks[blocks.count - 1].header.stateRoot else {
            throw LedgerError.invalidRequest("data directory is inconsistent: state root does not match the head block")
        }
        ledger.state.burned = burned
        ledger.state.supply = supply
        // Per-block totals before the head are not stored; reorgs below a reopen point keep the head totals.
        ledger.state.totals = Array(repeating: (burned, supply), count: blocks.count)
        var poolTransactions: [LedgerTransaction] = []
        try store.scan(prefix: [UInt8(ascii: "P")]) { key, value in
            guard key.count == 33 else { return true }
            var reader = RLPReader(value)
            poolTransactions.append(try LedgerPersistence.decodeTransaction(&reader))
            return true
        }
        for tx in poolTransactions where tx.nonce >= ledger.account(tx.sender).nonce { ledger.state.pool.insert(tx) }
        // Stale entries (mined before the crash) are deleted with the next write.
        for tx in poolTransactions where tx.nonce < ledger.account(tx.sender).nonce {
            ledger.state.pool.journal[tx.hash] = .delete
        }
        ledger.persistence = persistence
        return ledger
    }

    /// Writes the pool and meta record with a synced write (clean shutdown).
    public mutating func flush() throws(LedgerError) { try persistence?.flush(ledger: &self) }
}
