import EthereumLedger
import EthereumTransactions
import EthereumTypes

/// Block selectors accepted by the `…ByNumber` and state methods (execution-apis `BlockNumberOrTagOrHash`).
public enum BlockSelector: Sendable, Equatable {
    case latest, pending, earliest, safe, finalized
    case number(UInt64)
    case hash([UInt8])
}

/// An eth_getLogs / eth_newFilter criterion.
public struct LogFilter: Sendable, Equatable {
    /// geth's limits (`eth/filters`): 4 topic positions, at most 1,000 addresses and 1,000 topics per position
    /// (`--rpc.logquerylimit`).
    public static let maxTopics = 4
    public static let queryLimit = 1_000

    public var fromBlock: BlockSelector?
    public var toBlock: BlockSelector?
    public var blockHash: [UInt8]?
    public var addresses: [Address]
    /// Per position: nil matches anything, otherwise any of the listed topics.
    public var topics: [[[UInt8]]?]

    public init(
        fromBlock: BlockSelector? = nil, toBlock: BlockSelector? = nil, blockHash: [UInt8]? = nil,
        addresses: [Address] = [], topics: [[[UInt8]]?] = []
    ) {
        self.fromBlock = fromBlock
        self.toBlock = toBlock
        self.blockHash = blockHash
        self.addresses = addresses
        self.topics = topics
    }

    var criteriaCount: Int { addresses.count + topics.reduce(0) { $0 + ($1?.count ?? 0) } }

    /// Whether more addresses, or more topics in one position, than ``queryLimit`` are asked for.
    public var exceedsQueryLimit: Bool {
        addresses.count > Self.queryLimit || topics.contains { ($0?.count ?? 0) > Self.queryLimit }
    }

    public func matches(_ log: Log) -> Bool {
        if !addresses.isEmpty && !addresses.contains(log.address) { return false }
        for (i, wanted) in topics.enumerated() {
            guard let wanted else { continue }
            guard i < log.topics.count, wanted.contains(log.topics[i]) else { return false }
        }
        return true
    }
}

/// A log with where it was emitted, as eth_getLogs and filters hand it out.
public struct LogEntry: Sendable, Equatable {
    public var log: Log
    public var receipt: Receipt
    public var block: Block
    /// The log's position in its transaction's receipt.
    public var index: Int
    /// True when the log's block left the chain (a reorg): subscribers and filters get it again with this set.
    public var removed = false

    public init(log: Log, receipt: Receipt, block: Block, index: Int, removed: Bool = false) {
        self.log = log
        self.receipt = receipt
        self.block = block
        self.index = index
        self.removed = removed
    }

    /// The log's position in its block (`logIndex`): logs of the receipts before its own, then its index.
    public var logIndex: Int {
        block.receipts.prefix(receipt.transactionIndex).reduce(0) { $0 + $1.logs.count } + index
    }

    /// Every log of `block`, marked removed.
    public static func removed(from block: Block) -> [LogEntry] {
        block.receipts.flatMap { receipt in
            receipt.logs.enumerated().map {
                LogEntry(log: $0.element, receipt: receipt, block: block, index: $0.offset, removed: true)
            }
        }
    }
}

/// A transaction object as eth_call, eth_estimateGas and eth_sendTransaction receive it (execution-apis
/// `GenericTransaction`, geth's `TransactionArgs`).
public struct TransactionRequest: Sendable, Equatable {
    public var from: Address?
    public var to: Address?
    /// nil: unset (a zero `gas` from a client means unset too).
    public var gas: UInt64?
    public var gasPrice: UInt256?
    public var maxFeePerGas: UInt256?
    public var maxPriorityFeePerGas: UInt256?
    public var value: UInt256 = .zero
    public var data: [UInt8] = []
    public var nonce: UInt64?
    public var type: UInt64?
    public var accessList: [AccessListEntry] = []

    public init(from: Address? = nil, to: Address? = nil, value: UInt256 = .zero, data: [UInt8] = []) {
        self.from = from
        self.to = to
        self.value = value
        self.data = data
    }

    /// Gas a value transfer with this data and access list uses: intrinsic, or the EIP-7623 floor.
    public var gasNeeded: UInt64 {
        let gas = IntrinsicGas(
            data: data, isContractCreation: to == nil, accessListAddresses: accessList.count,
            accessListStorageKeys: accessList.reduce(0) { $0 + $1.storageKeys.count })
        return max(gas.standard, gas.floor)
    }
}

/// eth_feeHistory's answer: per block its base fee (plus the next block's), gas used ratio and, when percentiles
/// were asked for, the effective tips at those percentiles.
public struct FeeHistory: Sendable, Equatable {
    public var oldestBlock: UInt64
    /// One per block, plus the base fee of the block after the newest.
    public var baseFeePerGas: [UInt256]
    public var gasUsedRatio: [Double]
    /// One row per block, one tip per percentile; nil when no percentiles were asked for.
    public var reward: [[UInt256]]?
}

/// A transaction with where it sits: its block and index once mined, nil for both while pending.
public struct TransactionLookup: Sendable {
    public var transaction: LedgerTransaction
    public var block: Block?
    public var index: Int?
}

/// The block the pool's executable transactions make next (the `pending` tag): sealed on a copy of the ledger
/// (``Ledger/pendingState(now:)``), so its roots, receipts and size are real; clients are shown no hash, nonce or
/// miner, as geth shows its pending block.
public struct PendingBlock: Sendable {
    public var block: Block
    public var number: UInt64 { block.number }
    public var transactions: [LedgerTransaction] { block.transactions }
}

/// A block as a `…ByNumber` method finds it: a sealed block, or the pending one.
public enum BlockView: Sendable {
    case sealed(Block)
    case pending(PendingBlock)
}

/// The transaction pool split as txpool_* shows it: executable (`pending`) and waiting for a nonce gap (`queued`).
public struct PoolContent: Sendable {
    public var pending: [LedgerTransaction]
    public var queued: [LedgerTransaction]
}

/// What a polling filter has seen since its last poll.
public enum FilterChanges: Sendable {
    /// Block or pending-transaction hashes.
    case hashes([[UInt8]])
    case logs([LogEntry])
}

/// One account of a state dump or load: absent fields are left as they are when loading.
public struct AccountOverride: Sendable, Equatable {
    public var address: Address
    public var balance: UInt256?
    public var nonce: UInt64?
    public var code: [UInt8]?

    public init(address: Address, balance: UInt256? = nil, nonce: UInt64? = nil, code: [UInt8]? = nil) {
        self.address = address
        self.balance = balance
        self.nonce = nonce
        self.code = code
    }
}

/// anvil_nodeInfo's facts about the head.
public struct NodeInfo: Sendable, Equatable {
    public var blockNumber: UInt64
    public var blockTimestamp: UInt64
    public var blockHash: [UInt8]
    public var chainID: UInt64
    /// The head's base fee and the next block's gas limit (Anvil's `environment`).
    public var baseFee: UInt256
    public var gasLimit: UInt64
}
