import ByteCoding
import CBORCoding
import ICPIdentity
import ICPLedger
import KeyValueStorage

/// How an ICP ledger is laid out in a ``KeyValueStore`` (keys start with one tag byte):
/// - `M` → CBOR `[version, chain length, total supply]`
/// - `B` ‖ be64(index) → CBOR `[parent hash | null, timestamp, packed transaction]` (the packed CBOR the
///   transaction hash covers, so stored blocks re-hash to what they were)
/// - `A` ‖ 28-byte account hash → be64(balance) (absent when zero)
/// - `P` ‖ from hash ‖ spender hash → CBOR `[allowance, expires_at | null]`
///
/// One ``LedgerChanges`` is one batch: its blocks with the balances and approvals they changed and the meta record,
/// so a ledger reopens at the last change set written, whole.
enum ICPLedgerRecords {
    static let version: UInt64 = 1

    static let metaKey: [UInt8] = [UInt8(ascii: "M")]
    static let blockTag = UInt8(ascii: "B")
    static let balanceTag = UInt8(ascii: "A")
    static let approvalTag = UInt8(ascii: "P")

    static func blockKey(_ index: UInt64) -> [UInt8] { [blockTag] + BigEndian.bytes(index) }
    static func balanceKey(_ account: AccountIdentifier) -> [UInt8] { [balanceTag] + account.hash }
    static func approvalKey(_ key: LedgerCanister.ApprovalKey) -> [UInt8] {
        [approvalTag] + key.from.hash + key.spender.hash
    }

    /// The one batch that writes `changes`.
    static func batch(_ changes: LedgerChanges) -> WriteBatch {
        var batch = WriteBatch()
        for (offset, block) in changes.blocks.enumerated() {
            batch.put(blockKey(changes.firstIndex + UInt64(offset)), encode(block))
        }
        for (account, balance) in changes.balances {
            if balance == 0 {
                batch.delete(balanceKey(account))
            } else {
                batch.put(balanceKey(account), BigEndian.bytes(balance))
            }
        }
        for (key, approval) in changes.approvals {
            if let approval {
                batch.put(
                    approvalKey(key),
                    CBOREncoder.encode(
                        .array([.unsigned(approval.amount), approval.expiresAt.map { .unsigned($0) } ?? .null])))
            } else {
                batch.delete(approvalKey(key))
            }
        }
        batch.put(
            metaKey,
            CBOREncoder.encode(
                .array([.unsigned(version), .unsigned(changes.chainLength), .unsigned(changes.totalSupply)])))
        return batch
    }

    static func encode(_ block: Block) -> [UInt8] {
        CBOREncoder.encode(
            .array([
                block.parentHash.map { .bytes($0) } ?? .null, .unsigned(block.timestamp),
                .bytes(block.transaction.packedCBOR),
            ]))
    }

    static func decodeBlock(_ bytes: [UInt8], index: Int) throws(ICPLedgerStorageError) -> Block {
        let value: CBORValue
        do { value = try CBORDecoder().decode(bytes) } catch { throw .corruptStore("stored block \(index): \(error)") }
        guard let items = value.arrayValue, items.count == 3, let timestamp = items[1].uint64Value,
            let packed = items[2].bytesValue
        else { throw .corruptStore("stored block \(index) has the wrong shape") }
        let transaction: Transaction
        do { transaction = try Transaction(packedCBOR: packed) } catch {
            throw .corruptStore("stored block \(index): \(error.message)")
        }
        return Block(
            parentHash: items[0].isNull ? nil : items[0].bytesValue, transaction: transaction, timestamp: timestamp)
    }

    /// Reads a whole ledger back and checks it: the block count against the meta record, every block's parent hash.
    static func load(
        configuration: LedgerConfiguration, meta: [UInt8], store: any KeyValueStore, now: TimestampNanos
    ) throws(ICPLedgerStorageError) -> LedgerCanister {
        let fields: [CBORValue]
        do { fields = try CBORDecoder().decode(meta).arrayValue ?? [] } catch {
            throw .corruptStore("ledger meta: \(error)")
        }
        guard fields.count == 3, fields[0].uint64Value == version, let length = fields[1].uint64Value,
            let supply = fields[2].uint64Value
        else { throw .corruptStore("ledger meta record has an unknown version or shape") }

        var stored: [[UInt8]] = []
        var balances: [AccountIdentifier: UInt64] = [:]
        var approvals: [LedgerCanister.ApprovalKey: LedgerCanister.StoredApproval] = [:]
        var failure: ICPLedgerStorageError?
        do {
            try store.scan(prefix: [blockTag]) { _, value in
                stored.append(value)
                return true
            }
            try store.scan(prefix: [balanceTag]) { key, value in
                guard key.count == 29, let balance = BigEndian.integer(UInt64.self, from: value),
                    let account = try? AccountIdentifier(bytes: Array(key[1...]))
                else {
                    failure = .corruptStore("stored balance record is malformed")
                    return false
                }
                balances[account] = balance
                return true
            }
            try store.scan(prefix: [approvalTag]) { key, value in
                guard key.count == 57, let from = try? AccountIdentifier(bytes: Array(key[1..<29])),
                    let spender = try? AccountIdentifier(bytes: Array(key[29...])),
                    let items = (try? CBORDecoder().decode(value))?.arrayValue, items.count == 2,
                    let amount = items[0].uint64Value
                else {
                    failure = .corruptStore("stored approval record is malformed")
                    return false
                }
                approvals[LedgerCanister.ApprovalKey(from: from, spender: spender)] = LedgerCanister.StoredApproval(
                    amount: amount, expiresAt: items[1].uint64Value)
                return true
            }
        } catch {
            throw .storageFailure("\(error)")
        }
        if let failure { throw failure }
        guard UInt64(stored.count) == length else {
            throw .corruptStore("ledger storage holds \(stored.count) blocks but its meta record says \(length)")
        }
        var tip: [UInt8]?
        var blocks: [Block] = []
        blocks.reserveCapacity(stored.count)
        for (index, bytes) in stored.enumerated() {
            let block = try decodeBlock(bytes, index: index)
            guard block.parentHash == tip else {
                throw .corruptStore("stored block \(index) does not chain to its parent")
            }
            tip = block.hash
            blocks.append(block)
        }
        return LedgerCanister(
            configuration: configuration, blocks: blocks, balances: balances, approvals: approvals, totalSupply: supply,
            now: now)
    }
}
