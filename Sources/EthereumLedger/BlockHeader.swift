import EthereumTypes
import KeccakHashing
import RLPCoding

/// A block header with every Prague field (execution-specs `prague/blocks.py` Header); the block hash is
/// keccak256(rlp(header)).
public struct BlockHeader: Sendable, Equatable {
    public var parentHash: [UInt8]
    public var ommersHash: [UInt8] = BlockHeader.emptyOmmersHash
    public var coinbase: Address
    public var stateRoot: [UInt8]
    public var transactionsRoot: [UInt8]
    public var receiptsRoot: [UInt8]
    public var logsBloom: [UInt8] = [UInt8](repeating: 0, count: 256)
    public var difficulty: UInt256 = .zero
    public var number: UInt64
    public var gasLimit: UInt64
    public var gasUsed: UInt64
    public var timestamp: UInt64
    public var extraData: [UInt8]
    public var mixHash: [UInt8]
    public var nonce: [UInt8] = [UInt8](repeating: 0, count: 8)
    public var baseFeePerGas: UInt256
    public var withdrawalsRoot: [UInt8]? = BlockHeader.emptyTrieRoot
    public var blobGasUsed: UInt64? = 0
    public var excessBlobGas: UInt64? = 0
    public var parentBeaconBlockRoot: [UInt8]? = [UInt8](repeating: 0, count: 32)
    public var requestsHash: [UInt8]? = BlockHeader.emptyRequestsHash

    /// keccak256(rlp([])).
    public static let emptyOmmersHash: [UInt8] = Keccak256.hash([0xc0])
    /// keccak256(rlp("")).
    public static let emptyTrieRoot: [UInt8] = Keccak256.hash([0x80])
    /// EIP-7685 requests hash with no requests: sha256 of the empty string.
    public static let emptyRequestsHash: [UInt8] = [
        0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
        0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55,
    ]

    public init(
        parentHash: [UInt8], coinbase: Address, stateRoot: [UInt8], transactionsRoot: [UInt8],
        receiptsRoot: [UInt8], number: UInt64, gasLimit: UInt64, gasUsed: UInt64, timestamp: UInt64,
        extraData: [UInt8], mixHash: [UInt8], baseFeePerGas: UInt256
    ) {
        self.parentHash = parentHash
        self.coinbase = coinbase
        self.stateRoot = stateRoot
        self.transactionsRoot = transactionsRoot
        self.receiptsRoot = receiptsRoot
        self.number = number
        self.gasLimit = gasLimit
        self.gasUsed = gasUsed
        self.timestamp = timestamp
        self.extraData = extraData
        self.mixHash = mixHash
        self.baseFeePerGas = baseFeePerGas
    }

    /// rlp(header), with the optional fork fields appended in order while present.
    public var encoding: [UInt8] {
        var e = RLPEncoder(capacity: 620)
        e.appendList { h in
            h.appendBytes(parentHash)
            h.appendBytes(ommersHash)
            h.appendBytes(coinbase.bytes)
            h.appendBytes(stateRoot)
            h.appendBytes(transactionsRoot)
            h.appendBytes(receiptsRoot)
            h.appendBytes(logsBloom)
            h.appendBytes(difficulty.minimalBigEndianBytes)
            h.appendUInt64(number)
            h.appendUInt64(gasLimit)
            h.appendUInt64(gasUsed)
            h.appendUInt64(timestamp)
            h.appendBytes(extraData)
            h.appendBytes(mixHash)
            h.appendBytes(nonce)
            h.appendBytes(baseFeePerGas.minimalBigEndianBytes)
            if let withdrawalsRoot {
                h.appendBytes(withdrawalsRoot)
                if let blobGasUsed, let excessBlobGas {
                    h.appendUInt64(blobGasUsed)
                    h.appendUInt64(excessBlobGas)
                    if let parentBeaconBlockRoot {
                        h.appendBytes(parentBeaconBlockRoot)
                        if let requestsHash { h.appendBytes(requestsHash) }
                    }
                }
            }
        }
        return e.bytes
    }

    /// keccak256(rlp(header)).
    public var hash: [UInt8] { Keccak256.hash(encoding) }
}
