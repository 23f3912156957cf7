import EthereumTypes
import KeccakHashing
import RLPCoding

/// A log entry. EVM-less: no code runs, so the simulator itself emits none; the type exists for receipts,
/// blooms and filters.
public struct Log: Sendable, Equatable {
    public var address: Address
    public var topics: [[UInt8]]
    public var data: [UInt8]

    public init(address: Address, topics: [[UInt8]], data: [UInt8]) {
        self.address = address
        self.topics = topics
        self.data = data
    }
}

/// A transaction receipt (Byzantium+) with the lookup fields JSON-RPC returns.
public struct Receipt: Sendable, Equatable {
    public var type: UInt8
    public var status: Bool
    public var cumulativeGasUsed: UInt64
    public var gasUsed: UInt64
    public var effectiveGasPrice: UInt256
    public var logs: [Log]
    public var logsBloom: [UInt8]
    public var transactionHash: [UInt8]
    public var transactionIndex: Int
    public var blockNumber: UInt64
    public var from: Address
    public var to: Address?
    public var contractAddress: Address?

    public init(
        type: UInt8, status: Bool, cumulativeGasUsed: UInt64, gasUsed: UInt64, effectiveGasPrice: UInt256,
        logs: [Log], logsBloom: [UInt8], transactionHash: [UInt8], transactionIndex: Int, blockNumber: UInt64,
        from: Address, to: Address?, contractAddress: Address?
    ) {
        self.type = type
        self.status = status
        self.cumulativeGasUsed = cumulativeGasUsed
        self.gasUsed = gasUsed
        self.effectiveGasPrice = effectiveGasPrice
        self.logs = logs
        self.logsBloom = logsBloom
        self.transactionHash = transactionHash
        self.transactionIndex = transactionIndex
        self.blockNumber = blockNumber
        self.from = from
        self.to = to
        self.contractAddress = contractAddress
    }

    /// type ‖ rlp[status, cumulativeGasUsed, logsBloom, logs] (legacy: no type byte): the receipts-trie value.
    public var encoding: [UInt8] {
        var e = RLPEncoder(capacity: 300)
        if type != 0 { e.bytes.append(type) }
        e.appendList { r in
            r.appendUInt64(status ? 1 : 0)
            r.appendUInt64(cumulativeGasUsed)
            r.appendBytes(logsBloom)
            r.appendList { logList in
                for log in logs {
                    logList.appendList { l in
                        l.appendBytes(log.address.bytes)
                        l.appendList { t in for topic in log.topics { t.appendBytes(topic) } }
                        l.appendBytes(log.data)
                    }
                }
            }
        }
        return e.bytes
    }
}

/// The 2048-bit log bloom (Yellow Paper §4.3.1).
public enum LogsBloom {
    public static let empty = [UInt8](repeating: 0, count: 256)

    /// Sets the three bits of `item` (an address or topic) in `bloom`.
    public static func add(_ item: [UInt8], to bloom: inout [UInt8]) {
        let h = Keccak256.hash(item)
        for i in stride(from: 0, to: 6, by: 2) {
            let bit = (Int(h[i]) << 8 | Int(h[i + 1])) & 0x7ff
            bloom[255 - bit / 8] |= UInt8(1 << (bit % 8))
        }
    }

    public static func of(_ logs: [Log]) -> [UInt8] {
        var bloom = empty
        for log in logs {
            add(log.address.bytes, to: &bloom)
            for topic in log.topics { add(topic, to: &bloom) }
        }
        return bloom
    }

    /// True if every bit of `item` is set (a possible match).
    public static func mayContain(_ bloom: [UInt8], _ item: [UInt8]) -> Bool {
        var probe = empty
        add(item, to: &probe)
        for i in 0..<256 where probe[i] & bloom[i] != probe[i] { return false }
        return true
    }
}

/// A sealed block with its transactions and receipts.
public struct Block: Sendable, Equatable {
    public var header: BlockHeader
    public var hash: [UInt8]
    public var transactions: [LedgerTransaction]
    public var receipts: [Receipt]

    public init(header: BlockHeader, hash: [UInt8], transactions: [LedgerTransaction], receipts: [Receipt]) {
        self.header = header
        self.hash = hash
        self.transactions = transactions
        self.receipts = receipts
    }

    public var number: UInt64 { header.number }

    /// RLP size of the block [header, transactions, ommers, withdrawals] as eth_getBlock reports it.
    public var size: Int {
        var e = RLPEncoder()
        e.appendList { b in
            b.appendRaw(header.encoding)
            b.appendList { txs in
                for tx in transactions {
                    if tx.type == 0 { txs.appendRaw(tx.encoding) } else { txs.appendBytes(tx.encoding) }
                }
            }
            b.appendList { _ in }
            b.appendList { _ in }
        }
        return e.bytes.count
    }
}
