import EthereumLedger
import EthereumTransactions
import EthereumTypes

/// eth_simulateV1's input (execution-apis `eth_simulateV1`, geth `internal/ethapi/simulate.go`).
public struct SimulationRequest: Sendable, Equatable {
    /// `blockOverrides` of one simulated block; nil fields take geth's defaults.
    public struct BlockOverrides: Sendable, Equatable {
        public var number: UInt64?
        public var time: UInt64?
        public var gasLimit: UInt64?
        public var feeRecipient: Address?
        public var prevRandao: [UInt8]?
        public var baseFeePerGas: UInt256?
        public var beaconRoot: [UInt8]?

        public init() {}
    }

    public struct Block: Sendable, Equatable {
        public var overrides: BlockOverrides
        /// In the order given (applied before the block's calls).
        public var stateOverrides: [(address: Address, change: AccountStateOverride)]
        public var calls: [TransactionRequest]

        public init(
            overrides: BlockOverrides = BlockOverrides(),
            stateOverrides: [(address: Address, change: AccountStateOverride)] = [], calls: [TransactionRequest] = []
        ) {
            self.overrides = overrides
            self.stateOverrides = stateOverrides
            self.calls = calls
        }

        public static func == (a: Block, b: Block) -> Bool {
            a.overrides == b.overrides && a.calls == b.calls
                && a.stateOverrides.elementsEqual(b.stateOverrides) {
                    $0.address == $1.address && $0.change == $1.change
                }
        }
    }

    public var blocks: [Block]
    public var validation = false
    public var traceTransfers = false
    public var returnFullTransactions = false

    public init(blocks: [Block], validation: Bool = false, traceTransfers: Bool = false) {
        self.blocks = blocks
        self.validation = validation
        self.traceTransfers = traceTransfers
    }
}

/// One simulated block with its calls' results.
public struct SimulatedBlock: Sendable, Equatable {
    public var block: Block
    public var calls: [SimulatedCallResult]
}

/// Why eth_simulateV1 refused a request's shape, with geth's texts.
public enum SimulationInputError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyInput
    case tooManyBlocks
    case tooManyCallsInBlock(Int, limit: Int)
    case tooManyCalls(Int, limit: Int)
    case blockNumberNotInOrder(UInt64, previous: UInt64)
    case timestampNotInOrder(UInt64, previous: UInt64)
    /// A block without a time after one at 2^64−1 − 11 or later: its default time (+12 s) does not fit 64 bits.
    case timestampOverflow(previous: UInt64)

    /// geth's codes: -32602 (invalid params), -38026 (client limit), -38020 (block number), -38021 (timestamp).
    public var code: Int {
        switch self {
        case .emptyInput: -32602
        case .tooManyBlocks, .tooManyCallsInBlock, .tooManyCalls: -38026
        case .blockNumberNotInOrder: -38020
        case .timestampNotInOrder, .timestampOverflow: -38021
        }
    }

    public var description: String {
        switch self {
        case .emptyInput: "empty input"
        case .tooManyBlocks: "too many blocks"
        case .tooManyCallsInBlock(let n, let limit): "too many calls in block: \(n) > \(limit)"
        case .tooManyCalls(let n, let limit): "too many calls: \(n) > \(limit)"
        case .blockNumberNotInOrder(let n, let previous): "block numbers must be in order: \(n) <= \(previous)"
        case .timestampNotInOrder(let t, let previous): "block timestamps must be in order: \(t) <= \(previous)"
        case .timestampOverflow(let previous):
            "block timestamp overflow: \(previous) + \(NodeChain.simulatedBlockInterval) exceeds 2^64-1"
        }
    }
}
