import EthereumLedger
import EthereumTypes
import KeyValueStorage
import RLPCoding

/// The records of an Ethereum chain in a ``KeyValueStore``. Layout (all keys start with one tag byte):
/// - `M` → head record rlp[version, head number, burned, supply, chain id, genesis hash]
/// - `B` ‖ be64(number) → block rlp[header, transactions, receipts]
/// - `A` ‖ address → account rlp[nonce, balance, code] (the state now, including unsealed dev changes)
/// - `H` ‖ address ‖ be64(block) → account after that block (empty value: account removed)
/// - `P` ‖ hash → a pool transaction
///
/// Every change a ledger operation makes is one atomic batch ending with the head record, so a process killed at
/// any moment reopens at the last committed block (LevelDB batches are all-or-nothing).
enum LedgerRecords {
    static let version: UInt64 = 1
    static let metaKey: [UInt8] = [UInt8(ascii: "M")]
    static let blockTag = UInt8(ascii: "B")
    static let accountTag = UInt8(ascii: "A")
    static let historyTag = UInt8(ascii: "H")
    static let poolTag = UInt8(ascii: "P")

    /// The batch that writes `changes`.
    static func batch(_ changes: LedgerChanges) -> WriteBatch {
        var batch = WriteBatch()
        for (number, block) in changes.blocks {
            if let block { batch.put(blockKey(number), encode(block)) } else { batch.delete(blockKey(number)) }
        }
        for (address, account) in changes.accounts {
            if let account { batch.put(accountKey(address), encode(account)) } else { batch.delete(accountKey(address)) }
        }
        for record in changes.history {
            let key = historyKey(record.address, record.block)
            if let entry = record.entry { batch.put(key, entry.map(encode) ?? []) } else { batch.delete(key) }
        }
        for (hash, transaction) in changes.pool {
            if let transaction {
                var e = RLPEncoder(capacity: 200 + transaction.data.count)
                append(transaction, to: &e)
                batch.put(poolKey(hash), e.bytes)
            } else {
                batch.delete(poolKey(hash))
            }
        }
        batch.put(metaKey, meta(changes.head))
        return batch
    }

    // MARK: Keys

    static func be64(_ n: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: n >> (56 - UInt64($0) * 8)) } }
    static func readBE64(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    static func blockKey(_ n: UInt64) -> [UInt8] { [blockTag] + be64(n) }
    static func accountKey(_ a: Address) -> [UInt8] { [accountTag] + a.bytes }
    static func historyKey(_ a: Address, _ n: UInt64) -> [UInt8] { [historyTag] + a.bytes + be64(n) }
    static func poolKey(_ hash: [UInt8]) -> [UInt8] { [poolTag] + hash }

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

    /// An address, or nil for the empty string (no recipient, no contract).
    static func optionalAddress(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(RLPDecodingError) -> Address? {
        bytes.isEmpty ? nil : try readAddress(bytes, at: offset)
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
            let address = try readAddress(try item.readFixedBytes(20), at: item.position)
            var keys = try item.readList()
            var storageKeys: [[UInt8]] = []
            while !keys.isAtEnd { storageKeys.append(Array(try keys.readBytes())) }
            accessList.append(.init(address: address, storageKeys: storageKeys))
        }
        let intrinsic = try t.readUInt64()
        let floor = try t.readUInt64()
        let hash = Array(try t.readFixedBytes(32))
        let sender = try readAddress(try t.readFixedBytes(20), at: t.position)
        let encoding = Array(try t.readBytes())
        let v = try uint256(&t)
        let rr = try uint256(&t)
        let s = try uint256(&t)
        return LedgerTransaction(
            type: type, chainID: chainID, nonce: nonce, gasLimit: gas, maxFeePerGas: maxFee,
            maxPriorityFeePerGas: tip, to: try optionalAddress(toBytes, at: 0), value: value, data: data,
            accessList: accessList, intrinsicGas: intrinsic, floorGas: floor, hash: hash, sender: sender,
            encoding: encoding, v: v, r: rr, s: s)
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
            let from = try readAddress(try x.readFixedBytes(20), at: x.position)
            let to = try x.readBytes()
            let contract = try x.readBytes()
            receipts.append(
                Receipt(
                    type: type, status: status, cumulativeGasUsed: cumulative, gasUsed: gasUsed,
                    effectiveGasPrice: price, logs: [], logsBloom: LogsBloom.empty, transactionHash: hash,
                    transactionIndex: index, blockNumber: header.number, from: from,
                    to: try optionalAddress(to, at: x.position),
                    contractAddress: try optionalAddress(contract, at: x.position)))
        }
        return Block(header: header, hash: header.hash, transactions: txs, receipts: receipts)
    }
}
