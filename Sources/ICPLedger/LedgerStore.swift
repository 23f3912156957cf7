import ByteCoding
import CBORCoding
import ICPIdentity
import KeyValueStorage

/// Keeps a ledger in a ``KeyValueStore``. Layout (keys start with one tag byte):
/// - `M` → CBOR `[version, chain length, total supply]`
/// - `B` ‖ be64(index) → CBOR `[parent hash | null, timestamp, packed transaction]` (the packed CBOR the
///   transaction hash covers, so stored blocks re-hash to what they were)
/// - `A` ‖ 28-byte account hash → be64(balance) (absent when zero)
/// - `P` ‖ from hash ‖ spender hash → CBOR `[allowance, expires_at | null]`
///
/// Each block is one atomic batch with the balances and approvals it changed and the meta record, so a ledger
/// reopens at its last committed block.
final class LedgerStore: Sendable {
    // `Sendable`: only immutable references; the store itself is `Sendable`.
    let store: any KeyValueStore
    let syncWrites: Bool
    static let version: UInt64 = 1

    init(store: any KeyValueStore, syncWrites: Bool) {
        self.store = store
        self.syncWrites = syncWrites
    }

    static func be64(_ value: UInt64) -> [UInt8] { BigEndian.bytes(value) }
    static func readBE64(_ bytes: [UInt8]) -> UInt64? { BigEndian.integer(UInt64.self, from: bytes) }

    static let metaKey: [UInt8] = [UInt8(ascii: "M")]
    static func blockKey(_ index: UInt64) -> [UInt8] { [UInt8(ascii: "B")] + be64(index) }
    static func balanceKey(_ account: AccountIdentifier) -> [UInt8] { [UInt8(ascii: "A")] + account.hash }
    static func approvalKey(_ key: LedgerCanister.ApprovalKey) -> [UInt8] {
        [UInt8(ascii: "P")] + key.from.hash + key.spender.hash
    }

    func commit(block: Block, index: UInt64, delta: LedgerCanister.Delta) throws(LedgerTrap) {
        var batch = WriteBatch()
        batch.put(Self.blockKey(index), Self.encode(block))
        for (account, balance) in delta.balances {
            if balance == 0 {
                batch.delete(Self.balanceKey(account))
            } else {
                batch.put(Self.balanceKey(account), Self.be64(balance))
            }
        }
        for (key, approval) in delta.approvals {
            if let approval {
                batch.put(
                    Self.approvalKey(key),
                    CBOREncoder.encode(
                        .array([.unsigned(approval.amount), approval.expiresAt.map { .unsigned($0) } ?? .null])))
            } else {
                batch.delete(Self.approvalKey(key))
            }
        }
        batch.put(
            Self.metaKey,
            CBOREncoder.encode(.array([.unsigned(Self.version), .unsigned(index + 1), .unsigned(delta.supply)])))
        do { try store.write(batch, sync: syncWrites) } catch { throw LedgerTrap("ledger storage: \(error.message)") }
    }

    static func encode(_ block: Block) -> [UInt8] {
        CBOREncoder.encode(
            .array([
                block.parentHash.map { .bytes($0) } ?? .null, .unsigned(block.timestamp),
                .bytes(block.transaction.packedCBOR),
            ]))
    }

    static func decodeBlock(_ bytes: [UInt8]) throws(LedgerTrap) -> Block {
        do {
            let value = try CBORDecoder().decode(bytes)
            guard let items = value.arrayValue, items.count == 3, let timestamp = items[1].uint64Value,
                let packed = items[2].bytesValue
            else { throw LedgerTrap("stored block has the wrong shape") }
            let parent = items[0].isNull ? nil : items[0].bytesValue
            let transaction = try Transaction(packedCBOR: packed)
            return Block(parentHash: parent, transaction: transaction, timestamp: timestamp)
        } catch let error as LedgerTrap {
            throw error
        } catch {
            throw LedgerTrap("stored block: \(error)")
        }
    }
}

extension LedgerCanister {
    /// A ledger kept in `store`: reopened from it when it holds one, otherwise created with `initialBalances`
    /// minted at `now` and written to it. On reopening the block chain is re-hashed and checked.
    ///
    /// - Throws: ``LedgerTrap`` when the store cannot be read or written or holds an inconsistent ledger.
    public static func open(
        configuration: LedgerConfiguration, store: any KeyValueStore, syncWrites: Bool = false,
        initialBalances: [(AccountIdentifier, Tokens)] = [], now: TimestampNanos
    ) throws(LedgerTrap) -> LedgerCanister {
        let persistence = LedgerStore(store: store, syncWrites: syncWrites)
        var ledger = LedgerCanister(configuration: configuration, store: persistence)
        let meta: [UInt8]?
        do { meta = try store.get(LedgerStore.metaKey) } catch { throw LedgerTrap("ledger storage: \(error.message)") }
        guard let meta else {
            for (account, amount) in initialBalances { try ledger.mint(to: account, amount: amount, now: now) }
            return ledger
        }
        try ledger.load(meta: meta, from: store)
        ledger.purgeRecentTransactions(now: now)
        return ledger
    }

    mutating func load(meta: [UInt8], from store: any KeyValueStore) throws(LedgerTrap) {
        let fields: [CBORValue]
        do { fields = try CBORDecoder().decode(meta).arrayValue ?? [] } catch {
            throw LedgerTrap("ledger meta: \(error)")
        }
        guard fields.count == 3, fields[0].uint64Value == LedgerStore.version, let length = fields[1].uint64Value,
            let supply = fields[2].uint64Value
        else { throw LedgerTrap("ledger meta record has an unknown version or shape") }

        var stored: [[UInt8]] = []
        var balances: [AccountIdentifier: UInt64] = [:]
        var approvals: [ApprovalKey: StoredApproval] = [:]
        var failure: LedgerTrap?
        do {
            try store.scan(prefix: [UInt8(ascii: "B")]) { _, value in
                stored.append(value)
                return true
            }
            try store.scan(prefix: [UInt8(ascii: "A")]) { key, value in
                guard key.count == 29, let balance = LedgerStore.readBE64(value),
                    let account = try? AccountIdentifier(bytes: Array(key[1...]))
                else {
                    failure = LedgerTrap("stored balance record is malformed")
                    return false
                }
                balances[account] = balance
                return true
            }
            try store.scan(prefix: [UInt8(ascii: "P")]) { key, value in
                guard key.count == 57, let from = try? AccountIdentifier(bytes: Array(key[1..<29])),
                    let spender = try? AccountIdentifier(bytes: Array(key[29...])),
                    let items = (try? CBORDecoder().decode(value))?.arrayValue, items.count == 2,
                    let amount = items[0].uint64Value
                else {
                    failure = LedgerTrap("stored approval record is malformed")
                    return false
                }
                approvals[ApprovalKey(from: from, spender: spender)] = StoredApproval(
                    amount: amount, expiresAt: items[1].uint64Value)
                return true
            }
        } catch {
            throw LedgerTrap("ledger storage: \(error)")
        }
        if let failure { throw failure }
        guard UInt64(stored.count) == length else {
            throw LedgerTrap("ledger storage holds \(stored.count) blocks but its meta record says \(length)")
        }
        var tip: [UInt8]?
        var blocks: [Block] = []
        blocks.reserveCapacity(stored.count)
        for (index, bytes) in stored.enumerated() {
            let block = try LedgerStore.decodeBlock(bytes)
            guard block.parentHash == tip else {
                throw LedgerTrap("stored block \(index) does not chain to its parent")
            }
            tip = block.hash
            if let createdAt = block.transaction.createdAtTime {
                remember(block.transaction.hash, index: UInt64(index), createdAtTime: createdAt)
            }
            blocks.append(block)
        }
        self.blocks = blocks
        self.tipHash = tip
        self.balances = balances
        self.approvals = approvals
        self.totalSupply = supply
    }
}
