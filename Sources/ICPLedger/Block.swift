import ByteCoding
import CryptoCore

/// A transaction with the metadata the ledger attached: ledger.did `Block`.
public struct Block: Hashable, Sendable {
    /// The hash of the previous block; nil for block 0.
    public var parentHash: [UInt8]?
    public var transaction: Transaction
    /// Ledger time when the block was made.
    public var timestamp: TimestampNanos

    public init(parentHash: [UInt8]?, transaction: Transaction, timestamp: TimestampNanos) {
        self.parentHash = parentHash
        self.transaction = transaction
        self.timestamp = timestamp
    }

    /// The block hash the next block's `parent_hash` holds: SHA-256 of ``protobufEncoding``
    /// (`BlockType::block_hash` for the ICP ledger).
    public var hash: [UInt8] { Digest.sha256.hash(protobufEncoding) }

    /// The protobuf encoding of `ic_ledger.pb.v1.Block` (`Block {1: Hash parent_hash; 2: TimeStamp timestamp;
    /// 3: Transaction transaction}`), what `query_encoded_blocks` returns and the block hash covers.
    ///
    /// Mint, burn and transfer follow the schema field by field; the ICRC-2 extensions (`Approve` as field 5 and
    /// `TransferFrom` as field 6 of `Send`, the burn `spender` as field 4) follow the schema in the reference notes
    /// but have not been checked against a mainnet block hash.
    public var protobufEncoding: [UInt8] {
        var out = ProtobufWriter()
        if let parentHash { out.message(1) { $0.bytes(1, parentHash) } }
        out.message(2) { $0.uint64(1, timestamp) }
        out.message(3) { Self.writeTransaction(transaction, into: &$0) }
        return out.bytes
    }

    static func writeTransaction(_ tx: Transaction, into out: inout ProtobufWriter) {
        // Transaction {4: Memo memo; 7: Icrc1Memo icrc1_memo; 6: TimeStamp created_at_time;
        //              oneof transfer {1: Burn; 2: Mint; 3: Send}}, written in field-number order.
        switch tx.operation {
        case .burn(let from, let amount, let spender):
            out.message(1) { burn in
                burn.message(1) { $0.bytes(1, from.hash) }
                burn.message(3) { $0.uint64(1, amount.e8s) }
                if let spender { burn.message(4) { $0.bytes(1, spender.hash) } }
            }
        case .mint(let to, let amount):
            out.message(2) { mint in
                mint.message(2) { $0.bytes(1, to.hash) }
                mint.message(3) { $0.uint64(1, amount.e8s) }
            }
        case .transfer(let from, let to, let amount, let fee, let spender):
            out.message(3) { send in
                send.message(1) { $0.bytes(1, from.hash) }
                send.message(2) { $0.bytes(1, to.hash) }
                send.message(3) { $0.uint64(1, amount.e8s) }
                send.message(4) { $0.uint64(1, fee.e8s) }
                if let spender { send.message(6) { $0.message(1) { $0.bytes(1, spender.hash) } } }
            }
        case .approve(let from, let spender, let allowance, let expectedAllowance, let expiresAt, let fee):
            out.message(3) { send in
                send.message(1) { $0.bytes(1, from.hash) }
                send.message(2) { $0.bytes(1, spender.hash) }
                send.message(3) { $0.uint64(1, 0) }
                send.message(4) { $0.uint64(1, fee.e8s) }
                send.message(5) { approve in
                    approve.message(1) { $0.uint64(1, allowance.e8s) }
                    if let expiresAt { approve.message(2) { $0.uint64(1, expiresAt) } }
                    if let expectedAllowance { approve.message(3) { $0.uint64(1, expectedAllowance.e8s) } }
                }
            }
        }
        out.message(4) { $0.uint64(1, tx.memo) }
        if let createdAtTime = tx.createdAtTime { out.message(6) { $0.uint64(1, createdAtTime) } }
        if let icrc1Memo = tx.icrc1Memo { out.message(7) { $0.bytes(1, icrc1Memo) } }
    }
}

/// The few protobuf wire-format pieces blocks need: varints, length-delimited bytes and nested messages,
/// with proto3's rule that zero scalars and empty bytes are not written.
struct ProtobufWriter {
    var bytes: [UInt8] = []

    /// A varint is unsigned LEB128.
    mutating func varint(_ value: UInt64) { LEB128.append(value, to: &bytes) }

    mutating func uint64(_ field: UInt64, _ value: UInt64) {
        guard value != 0 else { return }
        varint(field << 3)
        varint(value)
    }

    mutating func bytes(_ field: UInt64, _ value: [UInt8]) {
        guard !value.isEmpty else { return }
        varint(field << 3 | 2)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A nested message is written even when empty (prost writes every `Some` submessage).
    mutating func message(_ field: UInt64, _ body: (inout ProtobufWriter) -> Void) {
        var inner = ProtobufWriter()
        body(&inner)
        varint(field << 3 | 2)
        varint(UInt64(inner.bytes.count))
        bytes.append(contentsOf: inner.bytes)
    }
}
