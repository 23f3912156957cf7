import EthereumLedger
import EthereumTransactions
import EthereumTypes
import KeyValueStorage
import RLPCoding

/// The records of an Ethereum chain in a ``KeyValueStore``. Layout (all keys start with one tag byte):
/// - `M` → head record rlp[version, head number, burned, supply, chain id, genesis hash]
/// - `B` ‖ be64(number) → block rlp[header, [rlp[sender, EIP-2718 transaction]…], [consensus receipt…]]
/// - `A` ‖ address → account rlp[nonce, balance, code(, [[slot, word], …])] (the state now, including unsealed dev
///   changes; the storage item only when the account has storage)
/// - `H` ‖ address ‖ be64(block) → account after that block (empty value: account removed)
/// - `P` ‖ hash → a pool transaction rlp[sender, EIP-2718 transaction]
/// - `C` → the run-time chain parameters rlp[chain id, gas limit, coinbase], once a developer method changed them
///   (absent: the configuration's)
/// - `N` ‖ block hash → be64(number)
/// - `T` ‖ transaction hash → be64(block number) ‖ be64(index)
/// - `S` ‖ be64(number) → rlp[burned, supply, [address…]]: the totals after the block and the addresses it changed
///   (each has an `H` record at that block)
///
/// The ledger holds only a window of recent blocks with their indexes, totals and history; the rest is read from
/// these records (``StoredBlocks``).
///
/// Every change a ledger operation makes is one atomic batch ending with the head record, so a process killed at
/// any moment reopens at the last committed block (LevelDB batches are all-or-nothing).
enum LedgerRecords {
    /// 2: transactions as rlp[sender, EIP-2718 encoding], receipts as their consensus encoding.
    /// 3: the `N`, `T` and `S` records (a version 2 store is upgraded in place when opened).
    static let version: UInt64 = 3
    static let metaKey: [UInt8] = [UInt8(ascii: "M")]
    static let blockTag = UInt8(ascii: "B")
    static let accountTag = UInt8(ascii: "A")
    static let historyTag = UInt8(ascii: "H")
    static let poolTag = UInt8(ascii: "P")
    static let parametersKey: [UInt8] = [UInt8(ascii: "C")]
    static let blockHashTag = UInt8(ascii: "N")
    static let transactionTag = UInt8(ascii: "T")
    static let blockChangesTag = UInt8(ascii: "S")

    /// The batch that writes `changes`.
    static func batch(_ changes: LedgerChanges) -> WriteBatch {
        var batch = WriteBatch()
        // Index records of removed blocks go first; a requeued transaction mined again is only put.
        var included = Set<[UInt8]>()
        for case (_, let block?) in changes.blocks { for tx in block.transactions { included.insert(tx.hash) } }
        for block in changes.removedBlocks {
            batch.delete(blockHashKey(block.hash))
            for tx in block.transactions where !included.contains(tx.hash) { batch.delete(transactionKey(tx.hash)) }
        }
        var changed: [UInt64: [Address]] = [:]
        for record in changes.history where record.entry != nil {
            changed[record.block, default: []].append(record.address)
        }
        for (number, block) in changes.blocks {
            guard let block else {
                batch.delete(blockKey(number))
                batch.delete(blockChangesKey(number))
                continue
            }
            batch.put(blockKey(number), encode(block))
            batch.put(blockHashKey(block.hash), be64(number))
            for (index, tx) in block.transactions.enumerated() {
                batch.put(transactionKey(tx.hash), be64(number) + be64(UInt64(index)))
            }
            let totals = changes.totals[number] ?? Totals(burned: changes.head.burned, supply: changes.head.supply)
            batch.put(blockChangesKey(number), encodeBlockChanges(totals, changed[number] ?? []))
        }
        for (address, account) in changes.accounts {
            if let account {
                batch.put(accountKey(address), encode(account))
            } else {
                batch.delete(accountKey(address))
            }
        }
        for record in changes.history {
            let key = historyKey(record.address, record.block)
            if let entry = record.entry { batch.put(key, entry.map(encode) ?? []) } else { batch.delete(key) }
        }
        for (hash, transaction) in changes.pool {
            if let transaction {
                batch.put(poolKey(hash), encode(transaction))
            } else {
                batch.delete(poolKey(hash))
            }
        }
        if let parameters = changes.parameters { batch.put(parametersKey, encode(parameters)) }
        batch.put(metaKey, meta(changes.head))
        return batch
    }

    static func encode(_ parameters: ChainParameters) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { l in
            l.appendUInt64(parameters.chainID)
            l.appendUInt64(parameters.gasLimit)
            l.appendBytes(parameters.coinbase.bytes)
        }
        return e.bytes
    }

    static func decodeParameters(_ bytes: [UInt8]) throws(RLPDecodingError) -> ChainParameters {
        var r = RLPReader(bytes)
        var l = try r.readList()
        let chainID = try l.readUInt64()
        let gasLimit = try l.readUInt64()
        let coinbase = try readAddress(try l.readFixedBytes(20), at: l.position)
        try l.finish()
        return ChainParameters(chainID: chainID, gasLimit: gasLimit, coinbase: coinbase)
    }

    // MARK: Keys

    static func be64(_ n: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: n >> (56 - UInt64($0) * 8)) } }
    static func readBE64(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    static func blockKey(_ n: UInt64) -> [UInt8] { [blockTag] + be64(n) }
    static func accountKey(_ a: Address) -> [UInt8] { [accountTag] + a.bytes }
    static func historyKey(_ a: Address, _ n: UInt64) -> [UInt8] { [historyTag] + a.bytes + be64(n) }
    static func poolKey(_ hash: [UInt8]) -> [UInt8] { [poolTag] + hash }
    static func blockHashKey(_ hash: [UInt8]) -> [UInt8] { [blockHashTag] + hash }
    static func transactionKey(_ hash: [UInt8]) -> [UInt8] { [transactionTag] + hash }
    static func blockChangesKey(_ n: UInt64) -> [UInt8] { [blockChangesTag] + be64(n) }

    static func encodeBlockChanges(_ totals: Totals, _ changed: [Address]) -> [UInt8] {
        var e = RLPEncoder(capacity: 80 + 21 * changed.count)
        e.appendList { l in
            l.appendBytes(totals.burned.minimalBigEndianBytes)
            l.appendBytes(totals.supply.minimalBigEndianBytes)
            l.appendList { a in for address in changed { a.appendBytes(address.bytes) } }
        }
        return e.bytes
    }

    static func decodeBlockChanges(_ bytes: [UInt8]) throws(RLPDecodingError) -> (totals: Totals, changed: [Address]) {
        var r = RLPReader(bytes)
        var l = try r.readList()
        let burned = try uint256(&l)
        let supply = try uint256(&l)
        var list = try l.readList()
        var changed: [Address] = []
        while !list.isAtEnd { changed.append(try readAddress(try list.readBytes(), at: list.position)) }
        return (Totals(burned: burned, supply: supply), changed)
    }

    static func meta(_ head: LedgerChanges.Head) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { m in
            m.appendUInt64(version)
            m.appendUInt64(head.number)
            m.appendBytes(head.burned.minimalBigEndianBytes)
            m.appendBytes(head.supply.minimalBigEndianBytes)
            m.appendUInt64(head.chainID)
            m.appendBytes(head.genesisHash)
        }
        return e.bytes
    }

    static func readAddress(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(RLPDecodingError) -> Address {
        guard let address = Address(bytes) else {
            throw RLPDecodingError(.wrongByteLength(expected: 20, actual: bytes.count), at: offset)
        }
        return address
    }

    // MARK: Encoding

    static func encode(_ account: Account) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { l in
            l.appendUInt64(account.nonce)
            l.appendBytes(account.balance.minimalBigEndianBytes)
            l.appendBytes(account.code)
            // Storage (native tokens, anvil_setStorageAt) as a fourth item, [[slot, word], …] in slot order; an
            // account without storage keeps the three-item record of earlier versions.
            if !account.storage.isEmpty {
                l.appendList { words in
                    for (slot, word) in account.storage.words.sorted(by: { $0.key < $1.key }) {
                        words.appendList { pair in
                            pair.appendBytes(slot.minimalBigEndianBytes)
                            pair.appendBytes(word.minimalBigEndianBytes)
                        }
                    }
                }
            }
        }
        return e.bytes
    }

    static func decodeAccount(_ bytes: [UInt8]) throws(RLPDecodingError) -> Account {
        var r = RLPReader(bytes)
        var l = try r.readList()
        let nonce = try l.readUInt64()
        let balance = try uint256(&l)
        let code = Array(try l.readBytes())
        var storage = AccountStorage()
        if !l.isAtEnd {
            var words = try l.readList()
            while !words.isAtEnd {
                var pair = try words.readList()
                let slot = try uint256(&pair)
                let word = try uint256(&pair)
                guard !word.isZero else { throw RLPDecodingError(.integerOverflow, at: pair.position) }
                storage[slot] = word
            }
        }
        return Account(nonce: nonce, balance: balance, code: code, storage: storage)
    }

    static func uint256(_ r: inout RLPReader) throws(RLPDecodingError) -> UInt256 {
        let at = r.position
        let bytes = try r.readUnsignedIntegerBytes(maxBytes: 32)
        guard let value = UInt256(bigEndian: bytes) else { throw RLPDecodingError(.integerOverflow, at: at) }
        return value
    }

    /// A transaction: rlp[sender, its EIP-2718 encoding]. The encoding is decoded with the wallet's codec
    /// (`SignedTransaction`), the one transaction encoding there is; the sender is kept so reopening needs no
    /// signature recovery.
    static func append(_ tx: LedgerTransaction, to e: inout RLPEncoder) {
        e.appendList { t in
            t.appendBytes(tx.sender.bytes)
            t.appendBytes(tx.encoding)
        }
    }

    static func encode(_ tx: LedgerTransaction) -> [UInt8] {
        var e = RLPEncoder(capacity: 32 + tx.encoding.count)
        append(tx, to: &e)
        return e.bytes
    }

    static func decodeTransaction(_ r: inout RLPReader) throws -> LedgerTransaction {
        var t = try r.readList()
        let sender = try readAddress(try t.readBytes(), at: t.position)
        let signed = try SignedTransaction(decoding: Array(try t.readBytes()))
        try t.finish()
        return LedgerTransaction(signed, sender: sender)
    }

    /// A block: rlp[header, [transaction…], [receipt…]], each receipt its consensus encoding (the receipts-trie
    /// value); the lookup fields JSON-RPC adds are derived from the transaction and the header.
    static func encode(_ block: Block) -> [UInt8] {
        var e = RLPEncoder(capacity: 1024)
        e.appendList { b in
            b.appendRaw(block.header.encoding)
            b.appendList { txs in for tx in block.transactions { append(tx, to: &txs) } }
            b.appendList { rs in for r in block.receipts { rs.appendBytes(r.encoding) } }
        }
        return e.bytes
    }

    static func decodeHeader(_ r: inout RLPReader) throws(RLPDecodingError) -> BlockHeader {
        var h = try r.readList()
        let parent = Array(try h.readFixedBytes(32))
        let ommers = Array(try h.readFixedBytes(32))
        let coinbase = try readAddress(try h.readFixedBytes(20), at: h.position)
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

    static func decodeBlock(_ bytes: [UInt8]) throws -> Block {
        var r = RLPReader(bytes)
        var b = try r.readList()
        let header = try decodeHeader(&b)
        var txList = try b.readList()
        var txs: [LedgerTransaction] = []
        while !txList.isAtEnd { txs.append(try decodeTransaction(&txList)) }
        var receiptList = try b.readList()
        var receipts: [Receipt] = []
        var previousCumulative: UInt64 = 0
        while !receiptList.isAtEnd {
            let at = receiptList.position
            let encoded = Array(try receiptList.readBytes())
            guard receipts.count < txs.count else { throw RLPDecodingError(.trailingBytes, at: at) }
            let tx = txs[receipts.count]
            var payload = RLPReader(encoded.first.map { $0 >= 0xc0 } == true ? encoded : Array(encoded.dropFirst()))
            var x = try payload.readList()
            let status = try x.readUInt64() == 1
            let cumulative = try x.readUInt64()
            let bloom = Array(try x.readFixedBytes(256))
            var logList = try x.readList()
            var logs: [Log] = []
            while !logList.isAtEnd {
                var l = try logList.readList()
                let address = try readAddress(try l.readBytes(), at: l.position)
                var topicList = try l.readList()
                var topics: [[UInt8]] = []
                while !topicList.isAtEnd { topics.append(Array(try topicList.readFixedBytes(32))) }
                logs.append(Log(address: address, topics: topics, data: Array(try l.readBytes())))
            }
            guard cumulative >= previousCumulative else { throw RLPDecodingError(.integerOverflow, at: at) }
            receipts.append(
                Receipt(
                    type: tx.type, status: status, cumulativeGasUsed: cumulative,
                    gasUsed: cumulative - previousCumulative,
                    effectiveGasPrice: tx.effectiveGasPrice(baseFee: header.baseFeePerGas), logs: logs,
                    logsBloom: bloom, transactionHash: tx.hash, transactionIndex: receipts.count,
                    blockNumber: header.number, from: tx.sender, to: tx.to,
                    contractAddress: tx.to == nil ? Ledger.contractAddress(sender: tx.sender, nonce: tx.nonce) : nil))
            previousCumulative = cumulative
        }
        guard receipts.count == txs.count else { throw RLPDecodingError(.unexpectedEnd, at: receiptList.position) }
        return Block(header: header, hash: header.hash, transactions: txs, receipts: receipts)
    }
}
