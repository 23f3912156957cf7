import EthereumTypes
import MerkleTrie
import NativeContracts

/// What executing transactions as one block did, as values: the ledger applies them through its journal.
struct ExecutedTransactions: Sendable {
    var included: [LedgerTransaction] = []
    var receipts: [Receipt] = []
    var gasUsed: UInt64 = 0
    /// Each written address's account afterwards (nil inside: removed, EIP-161).
    var accounts: [Address: Account?] = [:]
    /// Wei burned by these transactions (base fee × gas).
    var burned = UInt256.zero
    /// Pool transactions found unpayable (funds spent since admission): geth drops them from the pending set.
    var dropped: [[UInt8]] = []

    /// The block these transactions make after `parent`, with its transaction and receipt tries and logs bloom.
    func sealed(
        parent: Block, coinbase: Address, stateRoot: [UInt8], number: UInt64, gasLimit: UInt64, timestamp: UInt64,
        extraData: [UInt8], mixHash: [UInt8], baseFee: UInt256, beaconRoot: [UInt8]
    ) -> Block {
        var bloom = LogsBloom.empty
        // A receipt without logs has an empty bloom: 256 byte ORs per transfer were a tenth of sealing a block.
        for r in receipts where !r.logs.isEmpty { for i in 0..<256 { bloom[i] |= r.logsBloom[i] } }
        var header = BlockHeader(
            parentHash: parent.hash, coinbase: coinbase, stateRoot: stateRoot,
            transactionsRoot: PatriciaTrie.orderedRoot(included.map(\.encoding)),
            receiptsRoot: PatriciaTrie.orderedRoot(receipts.map(\.encoding)),
            number: number, gasLimit: gasLimit, gasUsed: gasUsed, timestamp: timestamp, extraData: extraData,
            mixHash: mixHash, baseFeePerGas: baseFee)
        header.logsBloom = bloom
        header.parentBeaconBlockRoot = beaconRoot
        // The receipts carry `number` already (the execution's environment).
        return Block(header: header, hash: header.hash, transactions: included, receipts: receipts)
    }
}

/// Executes transactions over a state without changing it: the accounts it writes are kept beside the state it
/// reads (`base`, which it never mutates), so the result is a set of values the ledger then applies as one change.
/// Value transfers are charged exactly as the execution specs charge them; native contracts (tokens, Multicall3)
/// run in ``NativeContractRegistry``.
struct BlockExecution {
    let base: WorldState
    let chain: ChainHistory
    let contracts: NativeContractRegistry
    private(set) var written: [Address: Account?] = [:]
    private(set) var burned = UInt256.zero

    init(base: WorldState, chain: ChainHistory, contracts: NativeContractRegistry) {
        self.base = base
        self.chain = chain
        self.contracts = contracts
    }

    /// Runs the pool's executable `candidates` (in block order) as the block `environment` describes: each sender's
    /// transactions while they fit the gas limit and are still payable. The state it read is released on return, so
    /// the caller can apply the result to it without a copy.
    static func run(
        _ candidates: [LedgerTransaction], over base: WorldState, chain: ChainHistory,
        contracts: NativeContractRegistry, environment: BlockEnvironment
    ) -> ExecutedTransactions {
        var execution = BlockExecution(base: base, chain: chain, contracts: contracts)
        var result = ExecutedTransactions()
        // Reserved: growing these arrays of ~300-byte values by doubling copied them about twice per block.
        result.included.reserveCapacity(candidates.count)
        result.receipts.reserveCapacity(candidates.count)
        var skippedSenders: Set<Address> = []
        for tx in candidates {
            if skippedSenders.contains(tx.sender) { continue }
            guard result.gasUsed + tx.gasLimit <= environment.gasLimit else {
                skippedSenders.insert(tx.sender)
                continue
            }
            let sender = execution.account(tx.sender)
            guard sender.nonce == tx.nonce, let cost = tx.maximumCost, sender.balance >= cost else {
                result.dropped.append(tx.hash)
                skippedSenders.insert(tx.sender)
                continue
            }
            let receipt = execution.apply(
                tx, environment: environment, index: result.included.count, cumulative: result.gasUsed
            ).receipt
            result.gasUsed += receipt.gasUsed
            result.included.append(tx)
            result.receipts.append(receipt)
        }
        result.accounts = execution.written
        result.burned = execution.burned
        return result
    }

    /// The account now: as written by the transactions so far, or as the base state holds it.
    func account(_ address: Address) -> Account {
        if let written = written[address] { return written ?? Account() }
        return base.account(address)
    }

    private mutating func set(_ address: Address, _ account: Account) { written.updateValue(account, forKey: address) }

    /// EIP-161: an account touched and left empty is removed.
    private mutating func removeIfEmpty(_ address: Address) {
        guard account(address).isEmpty else { return }
        written.updateValue(nil, forKey: address)
    }

    /// Executes `tx` and returns its receipt (and, for a native contract, what it did and its charge).
    mutating func apply(_ tx: LedgerTransaction, environment: BlockEnvironment, index: Int, cumulative: UInt64)
        -> (receipt: Receipt, native: (result: ExecutionResult, charge: Charge)?)
    {
        if let to = tx.to, contracts.contract(at: to) != nil {
            return applyNative(tx, to: to, environment: environment, index: index, cumulative: cumulative)
        }
        return (applyTransfer(tx, environment: environment, index: index, cumulative: cumulative), nil)
    }

    /// A value transfer (or a creation without code run), charged exactly as the execution specs charge it.
    private mutating func applyTransfer(
        _ tx: LedgerTransaction, environment: BlockEnvironment, index: Int, cumulative: UInt64
    ) -> Receipt {
        let baseFee = environment.baseFee
        let coinbaseAddress = environment.coinbase
        let tip = tx.effectiveTip(baseFee: baseFee) ?? .zero
        let price = tx.effectiveGasPrice(baseFee: baseFee)
        let coinbaseTip = tx.usesGasPrice ? tx.maxFeePerGas - baseFee : tip
        let gasUsed = tx.gasUsed
        var sender = account(tx.sender)
        sender.balance = sender.balance - (UInt256(gasUsed) * price + tx.value)
        sender.nonce += 1
        set(tx.sender, sender)
        var contractAddress: Address?
        if let to = tx.to {
            var recipient = account(to)
            recipient.balance = recipient.balance + tx.value
            set(to, recipient)
        } else {
            let created = Ledger.contractAddress(sender: tx.sender, nonce: tx.nonce)
            var account = account(created)
            account.balance = account.balance + tx.value
            account.nonce = max(account.nonce, 1)
            set(created, account)
            contractAddress = created
        }
        var coinbase = account(coinbaseAddress)
        coinbase.balance = coinbase.balance + UInt256(gasUsed) * coinbaseTip
        set(coinbaseAddress, coinbase)
        burned = burned + UInt256(gasUsed) * baseFee
        if let to = tx.to { removeIfEmpty(to) }
        removeIfEmpty(coinbaseAddress)
        return Receipt(
            type: tx.type, status: true, cumulativeGasUsed: cumulative + gasUsed, gasUsed: gasUsed,
            effectiveGasPrice: price, logs: [], logsBloom: LogsBloom.empty, transactionHash: tx.hash,
            transactionIndex: index, blockNumber: environment.number, from: tx.sender, to: tx.to,
            contractAddress: contractAddress)
    }

    /// A transaction to a native contract: the sender pays for the gas used whatever the outcome; on success the value
    /// moves, storage changes and the logs go into the receipt; on failure (status 0) nothing but the gas payment and
    /// the nonce changes.
    private mutating func applyNative(
        _ tx: LedgerTransaction, to: Address, environment: BlockEnvironment, index: Int, cumulative: UInt64
    ) -> (receipt: Receipt, native: (result: ExecutionResult, charge: Charge)?) {
        let baseFee = environment.baseFee
        let coinbaseAddress = environment.coinbase
        let tip = tx.effectiveTip(baseFee: baseFee) ?? .zero
        let price = tx.effectiveGasPrice(baseFee: baseFee)
        let coinbaseTip = tx.usesGasPrice ? tx.maxFeePerGas - baseFee : tip
        let result = contracts.execute(
            NativeCall(caller: tx.sender, target: to, value: tx.value, data: tx.data), state: ExecutionView(self),
            environment: environment,
            prewarmed: tx.accessList.map { ($0.address, $0.storageKeys.compactMap { UInt256(bigEndian: $0) }) })
        let charge = Charge(result, intrinsic: tx.intrinsicGas, floor: tx.floorGas, gasLimit: tx.gasLimit)
        let status = result.succeeded && !charge.outOfGas
        let gasUsed = charge.gasUsed
        var sender = account(tx.sender)
        sender.balance = sender.balance - UInt256(gasUsed) * price
        sender.nonce += 1
        set(tx.sender, sender)
        var logs: [Log] = []
        if status {
            for transfer in result.valueTransfers {
                var from = account(transfer.from)
                from.balance = from.balance - transfer.amount
                set(transfer.from, from)
                var to = account(transfer.to)
                to.balance = to.balance + transfer.amount
                set(transfer.to, to)
            }
            for write in result.storageWrites {
                var account = account(write.address)
                account.storage[write.slot] = write.value
                set(write.address, account)
            }
            logs = result.logs.map { Log(address: $0.address, topics: $0.topics, data: $0.data) }
        }
        var coinbase = account(coinbaseAddress)
        coinbase.balance = coinbase.balance + UInt256(gasUsed) * coinbaseTip
        set(coinbaseAddress, coinbase)
        burned = burned + UInt256(gasUsed) * baseFee
        removeIfEmpty(coinbaseAddress)
        let receipt = Receipt(
            type: tx.type, status: status, cumulativeGasUsed: cumulative + gasUsed, gasUsed: gasUsed,
            effectiveGasPrice: price, logs: logs, logsBloom: LogsBloom.of(logs), transactionHash: tx.hash,
            transactionIndex: index, blockNumber: environment.number, from: tx.sender, to: to, contractAddress: nil)
        return (receipt, (result, charge))
    }
}

/// What a transaction pays for a native result: gas used (after the EIP-3529 refund, capped at used / 5, and at least
/// the EIP-7623 floor), the gas it needs, and whether `gasLimit` falls short (all gas consumed, as INVALID consumes it
/// too).
struct Charge: Sendable, Equatable {
    var gasUsed: UInt64
    var gasRequired: UInt64
    var outOfGas: Bool

    init(_ result: ExecutionResult, intrinsic: UInt64, floor: UInt64, gasLimit: UInt64) {
        let (gross, overflow) = intrinsic.addingReportingOverflow(result.gasUsed)
        gasRequired = max(overflow ? .max : gross, floor)
        outOfGas = false
        if overflow || gross > gasLimit {
            gasUsed = gasLimit
            outOfGas = true
            return
        }
        switch result.outcome {
        case .invalidOpcode: gasUsed = gasLimit
        case .revert: gasUsed = max(gross, floor)
        case .success:
            let refund = min(result.refund, gross / 5)
            gasUsed = max(gross - refund, floor)
        }
    }

    /// How the call ended, as a failure (nil: success).
    func failure(_ outcome: ExecutionResult.Outcome) -> CallOutcome.Failure? {
        switch (outcome, outOfGas) {
        case (_, true): .outOfGas
        case (.success, false): nil
        case (.revert(let data), false): .reverted(data: data)
        case (.invalidOpcode, false): .invalidOpcode
        }
    }
}

/// The state an executing block shows the native contracts: its writes over the base state.
private struct ExecutionView: ContractStateReading {
    let execution: BlockExecution

    init(_ execution: BlockExecution) { self.execution = execution }

    func storage(_ address: Address, slot: UInt256) -> UInt256 { execution.account(address).storage[slot] }
    func balance(_ address: Address) -> UInt256 { execution.account(address).balance }
    func hasCode(_ address: Address) -> Bool { !execution.account(address).code.isEmpty }
    func blockHash(_ number: UInt64) -> [UInt8]? { execution.chain.block(number: number)?.hash }
}
