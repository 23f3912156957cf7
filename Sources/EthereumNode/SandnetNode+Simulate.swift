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

extension SandnetNode {
    /// geth's limits: 256 blocks past the base, 5,000 calls in one block, 10,000 in all.
    public static let maxSimulatedBlocks: UInt64 = 256
    public static let maxSimulatedCallsPerBlock = 5_000
    public static let maxSimulatedCalls = 10_000
    /// geth's default `--rpc.gascap`: the gas all calls of one request may use together.
    public static let simulationGasBudget: UInt64 = 50_000_000
    /// geth's `timestampIncrement`: a simulated block without a time comes 12 s after its parent.
    public static let simulatedBlockInterval: UInt64 = 12

    /// eth_simulateV1: runs the blocks of `request` on a copy of the state at `block` (default latest) and seals
    /// them; the chain does not change. Gaps in block numbers are filled with empty blocks, as geth fills them.
    ///
    /// - Throws: ``SimulationInputError`` for the request's shape (geth's -32602, -38020, -38021, -38026),
    ///   ``SimulationError`` for a call no block could include (-380xx), ``NodeError/headerNotFound`` and
    ///   ``NodeError/historicalStateUnavailable(root:)`` for the base block.
    public func simulate(_ request: SimulationRequest, at block: BlockSelector? = nil) throws -> [SimulatedBlock] {
        guard !request.blocks.isEmpty else { throw SimulationInputError.emptyInput }
        guard request.blocks.count <= Self.maxSimulatedBlocks else { throw SimulationInputError.tooManyBlocks }
        var total = 0
        for b in request.blocks {
            guard b.calls.count <= Self.maxSimulatedCallsPerBlock else {
                throw SimulationInputError.tooManyCallsInBlock(b.calls.count, limit: Self.maxSimulatedCallsPerBlock)
            }
            total += b.calls.count
            guard total <= Self.maxSimulatedCalls else {
                throw SimulationInputError.tooManyCalls(total, limit: Self.maxSimulatedCalls)
            }
        }
        var chain = try withLedger { (ledger) throws -> Ledger in
            if case .pending? = block { return ledger.pendingState(now: clock()).ledger.simulationBase(atBlock: nil)! }
            let number = try Self.stateBlock(block, ledger)
            guard let base = ledger.simulationBase(atBlock: number) else {
                throw NodeError.historicalStateUnavailable(
                    root: number.flatMap { ledger.block(number: $0)?.header.stateRoot } ?? [])
            }
            return base
        }
        let chainID = chain.config.chainID
        var results: [SimulatedBlock] = []
        var budget = Self.simulationGasBudget
        for (spec, input) in try Self.sanitize(request.blocks, parent: chain.head.header) {
            for (address, change) in input?.stateOverrides ?? [] { try chain.applyOverride(address, change) }
            let calls = (input?.calls ?? []).map { request in
                SimulatedCall(
                    from: request.from ?? .zero, to: request.to, value: request.value, data: request.data,
                    gas: request.gas, nonce: request.nonce, gasPrice: request.gasPrice,
                    maxFeePerGas: request.maxFeePerGas, maxPriorityFeePerGas: request.maxPriorityFeePerGas,
                    accessList: request.accessList)
            }
            let (sealed, outcomes) = try chain.simulateBlock(
                spec, calls: calls, validation: request.validation, budget: &budget
            ) {
                Self.unsignedTransaction($0, chainID: chainID)
            }
            results.append(SimulatedBlock(block: sealed, calls: outcomes))
        }
        return results
    }

    /// The call as geth's `ToTransaction(DynamicFeeTxType)` makes it: an EIP-1559 transaction with a zero
    /// signature (its hash is geth's), the sender kept beside it.
    static func unsignedTransaction(_ call: SimulatedCall, chainID: UInt64) -> LedgerTransaction {
        let tx = DynamicFeeTransaction(
            chainID: chainID, nonce: call.nonce ?? 0, maxPriorityFeePerGas: call.maxPriorityFeePerGas ?? .zero,
            maxFeePerGas: call.maxFeePerGas ?? .zero, gas: call.gas ?? 0, to: call.to, value: call.value,
            data: call.data, accessList: call.accessList)
        let signed = SignedTransaction(
            transaction: .dynamicFee(tx), signature: EthereumSignature(yParity: 0, r: .zero, s: .zero))
        return ledgerTransaction(signed, sender: call.from)
    }

    /// geth's `sanitizeChain`: numbers strictly increasing (gaps filled with empty blocks 12 s apart), at most
    /// ``maxSimulatedBlocks`` past the base, timestamps strictly increasing (default parent + 12 s).
    static func sanitize(_ blocks: [SimulationRequest.Block], parent: BlockHeader) throws(SimulationInputError)
        -> [(SimulatedBlockSpec, SimulationRequest.Block?)]
    {
        var out: [(SimulatedBlockSpec, SimulationRequest.Block?)] = []
        var previousNumber = parent.number
        var previousTime = parent.timestamp
        for block in blocks {
            let o = block.overrides
            let number = o.number ?? previousNumber + 1
            guard number > previousNumber else { throw .blockNumberNotInOrder(number, previous: previousNumber) }
            guard number - parent.number <= maxSimulatedBlocks else { throw .tooManyBlocks }
            while previousNumber + 1 < number {
                previousNumber += 1
                previousTime = try nextTime(after: previousTime)
                out.append((SimulatedBlockSpec(number: previousNumber, timestamp: previousTime), nil))
            }
            previousNumber = number
            let time: UInt64
            if let given = o.time { time = given } else { time = try nextTime(after: previousTime) }
            guard time > previousTime else { throw .timestampNotInOrder(time, previous: previousTime) }
            previousTime = time
            out.append(
                (
                    SimulatedBlockSpec(
                        number: number, timestamp: time, gasLimit: o.gasLimit, feeRecipient: o.feeRecipient,
                        prevRandao: o.prevRandao, baseFee: o.baseFeePerGas, beaconRoot: o.beaconRoot), block
                ))
        }
        return out
    }

    /// The default time of a simulated block: its parent's + 12 s, refused past 2^64−1 (a block at 2^64−5 followed
    /// by one without a time trapped the node).
    private static func nextTime(after previous: UInt64) throws(SimulationInputError) -> UInt64 {
        let (time, overflow) = previous.addingReportingOverflow(simulatedBlockInterval)
        guard !overflow else { throw .timestampOverflow(previous: previous) }
        return time
    }
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
            "block timestamp overflow: \(previous) + \(SandnetNode.simulatedBlockInterval) exceeds 2^64-1"
        }
    }
}
