import EthereumTransactions
import EthereumTypes
import NativeContracts

/// Why `eth_simulateV1` refused a whole request, with geth's texts and the execution-apis codes (-38xxx).
public enum SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    case nonceTooLow(sender: Address, nonce: UInt64, state: UInt64)
    case nonceTooHigh(sender: Address, nonce: UInt64, state: UInt64)
    /// The sender's nonce is 2^64−1: one more transaction would overflow it (EIP-2681; geth's `ErrNonceMax`).
    case nonceMax(sender: Address, nonce: UInt64)
    case feeCapTooLow(sender: Address, maxFee: UInt256, baseFee: UInt256)
    case tipAboveFeeCap(sender: Address, tip: UInt256, maxFee: UInt256)
    case intrinsicGas(have: UInt64, want: UInt64)
    case floorDataGas(have: UInt64, want: UInt64)
    case insufficientFunds(sender: Address, have: UInt256, want: WideAmount)
    case blockGasLimitReached(remaining: UInt64, required: UInt64)
    case maxInitCodeSizeExceeded(size: Int, limit: Int)
    /// The request's calls used more gas than the RPC gas budget left (geth's `gasBudget`).
    case gasCapExhausted(need: UInt64, remaining: UInt64)
    /// A state override the ledger cannot apply (the text names it).
    case invalidOverride(String)

    /// The JSON-RPC code geth answers (`internal/ethapi/errors.go` `txValidationError`).
    public var code: Int {
        switch self {
        case .nonceTooLow: -38010
        case .nonceTooHigh: -38011
        case .feeCapTooLow: -38012
        case .intrinsicGas: -38013
        case .insufficientFunds: -38014
        case .blockGasLimitReached: -38015
        case .maxInitCodeSizeExceeded: -38025
        case .tipAboveFeeCap, .invalidOverride: -32602
        case .floorDataGas, .nonceMax: -32603
        case .gasCapExhausted: -32000
        }
    }

    public var description: String {
        switch self {
        case .nonceTooLow(let sender, let nonce, let state):
            "nonce too low: address \(sender.checksummed), tx: \(nonce) state: \(state)"
        case .nonceTooHigh(let sender, let nonce, let state):
            "nonce too high: address \(sender.checksummed), tx: \(nonce) state: \(state)"
        case .nonceMax(let sender, let nonce): "nonce has max value: address \(sender.checksummed), nonce: \(nonce)"
        case .feeCapTooLow(let sender, let maxFee, let baseFee):
            "max fee per gas less than block base fee: address \(sender.checksummed), maxFeePerGas: \(maxFee), "
                + "baseFee: \(baseFee)"
        case .tipAboveFeeCap(let sender, let tip, let maxFee):
            "max priority fee per gas higher than max fee per gas: address \(sender.checksummed), "
                + "maxPriorityFeePerGas: \(tip), maxFeePerGas: \(maxFee)"
        case .intrinsicGas(let have, let want): "intrinsic gas too low: have \(have), want \(want)"
        case .floorDataGas(let have, let want): "insufficient gas for floor data gas cost: have \(have), want \(want)"
        case .insufficientFunds(let sender, let have, let want):
            "insufficient funds for gas * price + value: address \(sender.checksummed) have \(have) want \(want)"
        case .blockGasLimitReached(let remaining, let required):
            "block gas limit reached: remaining: \(remaining), required: \(required)"
        case .maxInitCodeSizeExceeded(let size, let limit):
            "max initcode size exceeded: code size \(size) limit \(limit)"
        case .invalidOverride(let text): text
        case .gasCapExhausted(let need, let remaining): "RPC gas cap exhausted: need \(need), remaining \(remaining)"
        }
    }
}

/// One simulated block's header fields (eth_simulateV1's `blockOverrides`, defaults filled by the caller).
public struct SimulatedBlockSpec: Sendable, Equatable {
    public var number: UInt64
    public var timestamp: UInt64
    public var gasLimit: UInt64?
    public var feeRecipient: Address?
    public var prevRandao: [UInt8]?
    public var baseFee: UInt256?
    public var beaconRoot: [UInt8]?

    public init(
        number: UInt64, timestamp: UInt64, gasLimit: UInt64? = nil, feeRecipient: Address? = nil,
        prevRandao: [UInt8]? = nil, baseFee: UInt256? = nil, beaconRoot: [UInt8]? = nil
    ) {
        self.number = number
        self.timestamp = timestamp
        self.gasLimit = gasLimit
        self.feeRecipient = feeRecipient
        self.prevRandao = prevRandao
        self.baseFee = baseFee
        self.beaconRoot = beaconRoot
    }
}

/// One call of a simulated block, its unset fields filled as geth's `sanitizeCall` fills them.
public struct SimulatedCall: Sendable, Equatable {
    public var from: Address
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]
    public var gas: UInt64?
    public var nonce: UInt64?
    public var gasPrice: UInt256?
    public var maxFeePerGas: UInt256?
    public var maxPriorityFeePerGas: UInt256?
    public var accessList: [AccessListEntry]

    public init(
        from: Address, to: Address?, value: UInt256 = .zero, data: [UInt8] = [], gas: UInt64? = nil,
        nonce: UInt64? = nil, gasPrice: UInt256? = nil, maxFeePerGas: UInt256? = nil,
        maxPriorityFeePerGas: UInt256? = nil, accessList: [AccessListEntry] = []
    ) {
        self.from = from
        self.to = to
        self.value = value
        self.data = data
        self.gas = gas
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.accessList = accessList
    }
}

/// What one simulated call did.
public struct SimulatedCallResult: Sendable, Equatable {
    public var returnData: [UInt8]
    public var failure: CallOutcome.Failure?
    public var gasUsed: UInt64
    /// The gas the call needed before the refund (geth's `maxUsedGas`).
    public var maxUsedGas: UInt64
    /// ETH moved (the call's value and value moved inside native contracts), for `traceTransfers`; empty when
    /// the call failed.
    public var transfers: [ExecutionResult.ValueTransfer]
    /// The call's gas was cut to what the RPC gas budget had left (geth then adds a note to VM errors).
    public var gasCapped = false
}

/// A state override (`stateOverrides` of eth_simulateV1): each field replaces what the account holds.
public struct AccountStateOverride: Sendable, Equatable {
    public var balance: UInt256?
    public var nonce: UInt64?
    public var code: [UInt8]?
    /// Replaces the whole storage.
    public var state: [UInt256: UInt256]?
    /// Sets these words, keeping the others.
    public var stateDiff: [UInt256: UInt256]?

    public init(
        balance: UInt256? = nil, nonce: UInt64? = nil, code: [UInt8]? = nil, state: [UInt256: UInt256]? = nil,
        stateDiff: [UInt256: UInt256]? = nil
    ) {
        self.balance = balance
        self.nonce = nonce
        self.code = code
        self.state = state
        self.stateDiff = stateDiff
    }
}

/// A copy of a ledger to simulate blocks on (eth_simulateV1): it shares nothing with the ledger's future, keeps no
/// snapshots or journal, and is let go when the request is answered.
public struct SimulatedChain: Sendable {
    /// The simulated chain: the base block, then the blocks simulated so far.
    public private(set) var ledger: Ledger

    /// A copy of `ledger` at the end of block `number` (nil: the head, with its unsealed developer changes sealed
    /// into the base state, as eth_call sees them); nil when the block is more than
    /// ``StateProof/provableStateDepth`` below the head or its state cannot be read back.
    public init?(_ ledger: Ledger, atBlock number: UInt64?) {
        guard let base = ledger.simulationBase(atBlock: number) else { return nil }
        self.ledger = base
    }

    /// Applies a state override now: balance, nonce, code, whole storage or words.
    public mutating func applyOverride(_ address: Address, _ change: AccountStateOverride) throws(SimulationError) {
        if change.state != nil && change.stateDiff != nil {
            throw .invalidOverride("account \(address.checksummed) has both 'state' and 'stateDiff'")
        }
        var account = ledger.account(address)
        if let balance = change.balance {
            let others = ledger.world.supply - account.balance
            let (supply, overflow) = others.addingReportingOverflow(balance)
            guard !overflow else {
                throw .invalidOverride(
                    "balance of \(address.checksummed) is too large: the total supply would exceed 2^256-1")
            }
            ledger.world.supply = supply
            account.balance = balance
        }
        if let nonce = change.nonce { account.nonce = nonce }
        if let code = change.code { account.code = code }
        if let words = change.state { account.storage = AccountStorage(words) }
        for (slot, value) in change.stateDiff ?? [:] { account.storage[slot] = value }
        ledger.setAccount(address, account)
    }

    /// Executes `calls` as the next block and seals it, as geth's `processBlock` does: calls run in order on the state
    /// the previous ones left; without `validation` nonces are not checked and the base fee is zero unless
    /// overridden.
    ///
    /// - Parameters:
    ///   - budget: gas the request's calls may still use in all (geth's RPC gas cap); each call's gas is cut to it.
    ///   - transaction: builds the transaction object of a call once its nonce, gas and fees are filled (the node
    ///     encodes it unsigned, as geth's `ToTransaction`).
    /// - Throws: a ``SimulationError`` for a call a block could not include (the whole request fails, as in geth).
    public mutating func simulateBlock(
        _ spec: SimulatedBlockSpec, calls: [SimulatedCall], validation: Bool, budget: inout UInt64,
        transaction: (SimulatedCall) -> LedgerTransaction
    ) throws(SimulationError) -> (block: Block, results: [SimulatedCallResult]) {
        precondition(spec.number == ledger.blockNumber + 1, "simulated blocks follow the head one by one")
        let parent = ledger.head
        let baseFee = spec.baseFee ?? (validation ? ledger.nextBaseFee : .zero)
        let gasLimit = spec.gasLimit ?? parent.header.gasLimit
        // The block's fee recipient receives its calls' tips.
        let coinbase = spec.feeRecipient ?? ledger.config.coinbase
        let environment = BlockEnvironment(
            number: spec.number, timestamp: spec.timestamp, baseFee: baseFee, chainID: ledger.config.chainID,
            coinbase: coinbase, gasLimit: gasLimit)
        let (executed, results) = try Self.execute(
            calls, over: ledger, environment: environment, validation: validation, budget: &budget,
            transaction: transaction)
        ledger.apply(executed.accounts, burned: executed.burned)
        let stateRoot = ledger.commitDirtyAccounts(block: spec.number)
        let block = executed.sealed(
            parent: parent, coinbase: coinbase, stateRoot: stateRoot, number: spec.number, gasLimit: gasLimit,
            timestamp: spec.timestamp, extraData: [], mixHash: spec.prevRandao ?? [UInt8](repeating: 0, count: 32),
            baseFee: baseFee, beaconRoot: spec.beaconRoot ?? [UInt8](repeating: 0, count: 32))
        ledger.appendBlock(block)
        return (block, results)
    }

    /// Runs the calls of one simulated block over `ledger`'s state (left as it is: the writes are returned).
    private static func execute(
        _ calls: [SimulatedCall], over ledger: Ledger, environment: BlockEnvironment, validation: Bool,
        budget: inout UInt64, transaction: (SimulatedCall) -> LedgerTransaction
    ) throws(SimulationError) -> (ExecutedTransactions, [SimulatedCallResult]) {
        var execution = BlockExecution(
            base: ledger.world, chain: ledger.chain, contracts: ledger.config.nativeContracts)
        var executed = ExecutedTransactions()
        var results: [SimulatedCallResult] = []
        let gasLimit = environment.gasLimit
        for var call in calls {
            let sender = execution.account(call.from)
            let remaining = gasLimit - executed.gasUsed
            let gas = call.gas ?? remaining
            guard gas <= remaining else { throw .blockGasLimitReached(remaining: remaining, required: gas) }
            let gasCapped = gas > budget
            call.gas = min(gas, budget)
            call.nonce = call.nonce ?? sender.nonce
            if let price = call.gasPrice {
                call.maxFeePerGas = price
                call.maxPriorityFeePerGas = price
            } else {
                call.maxFeePerGas = call.maxFeePerGas ?? .zero
                call.maxPriorityFeePerGas = call.maxPriorityFeePerGas ?? .zero
            }
            let tx = transaction(call)
            try check(
                tx, sender: sender, baseFee: environment.baseFee, validation: validation,
                maxInitCodeSize: ledger.config.maxInitCodeSize)
            // geth's NoBaseFee: a call without fees outside validation pays nothing, whatever the base fee.
            var callEnvironment = environment
            if !validation && tx.maxFeePerGas.isZero && tx.maxPriorityFeePerGas.isZero {
                callEnvironment.baseFee = .zero
            }
            let (receipt, native) = execution.apply(
                tx, environment: callEnvironment, index: executed.included.count, cumulative: executed.gasUsed)
            var result: SimulatedCallResult
            if let (execution, charge) = native {
                let failure = charge.failure(execution.outcome)
                result = SimulatedCallResult(
                    returnData: charge.outOfGas ? [] : execution.output, failure: failure, gasUsed: receipt.gasUsed,
                    maxUsedGas: min(charge.gasRequired, tx.gasLimit),
                    transfers: failure == nil ? execution.valueTransfers : [])
            } else {
                let moved =
                    tx.value.isZero
                    ? []
                    : [
                        ExecutionResult.ValueTransfer(
                            from: tx.sender, to: tx.to ?? receipt.contractAddress ?? .zero, amount: tx.value)
                    ]
                result = SimulatedCallResult(
                    returnData: [], failure: nil, gasUsed: receipt.gasUsed, maxUsedGas: receipt.gasUsed,
                    transfers: moved)
            }
            guard receipt.gasUsed <= budget else { throw .gasCapExhausted(need: receipt.gasUsed, remaining: budget) }
            budget -= receipt.gasUsed
            result.gasCapped = gasCapped
            executed.gasUsed += receipt.gasUsed
            executed.included.append(tx)
            executed.receipts.append(receipt)
            results.append(result)
        }
        executed.accounts = execution.written
        executed.burned = execution.burned
        return (executed, results)
    }

    /// geth's `preCheck` and `buyGas` for a simulated call (the EOA and EIP-7825 checks are skipped, as for every
    /// RPC message).
    private static func check(
        _ tx: LedgerTransaction, sender: Account, baseFee: UInt256, validation: Bool, maxInitCodeSize: Int
    ) throws(SimulationError) {
        if validation {
            if tx.nonce > sender.nonce { throw .nonceTooHigh(sender: tx.sender, nonce: tx.nonce, state: sender.nonce) }
            if tx.nonce < sender.nonce { throw .nonceTooLow(sender: tx.sender, nonce: tx.nonce, state: sender.nonce) }
        }
        // geth checks this with validation only and lets the nonce wrap to 0 without; a ledger whose nonces are
        // UInt64 refuses both ways (EIP-2681: a nonce never passes 2^64−1).
        if sender.nonce == .max { throw .nonceMax(sender: tx.sender, nonce: sender.nonce) }
        let skipFees = !validation && tx.maxFeePerGas.isZero && tx.maxPriorityFeePerGas.isZero
        if !skipFees {
            if tx.maxFeePerGas < tx.maxPriorityFeePerGas {
                throw .tipAboveFeeCap(sender: tx.sender, tip: tx.maxPriorityFeePerGas, maxFee: tx.maxFeePerGas)
            }
            if tx.maxFeePerGas < baseFee {
                throw .feeCapTooLow(sender: tx.sender, maxFee: tx.maxFeePerGas, baseFee: baseFee)
            }
        }
        if tx.to == nil && tx.data.count > maxInitCodeSize {
            throw .maxInitCodeSizeExceeded(size: tx.data.count, limit: maxInitCodeSize)
        }
        let cost = tx.exactCost
        if WideAmount(sender.balance) < cost {
            throw .insufficientFunds(sender: tx.sender, have: sender.balance, want: cost)
        }
        if tx.gasLimit < tx.intrinsicGas { throw .intrinsicGas(have: tx.gasLimit, want: tx.intrinsicGas) }
        if tx.gasLimit < tx.floorGas { throw .floorDataGas(have: tx.gasLimit, want: tx.floorGas) }
    }
}
