import ABICoding
import EthereumTypes
import NativeContracts

/// A call that is not a transaction (`eth_call`, `eth_estimateGas`): who calls, what, with how much gas.
public struct CallRequest: Sendable, Equatable {
    public var from: Address
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]
    /// Gas the call may use; nil: the block gas limit (capped by the per-transaction cap).
    public var gas: UInt64?

    public init(from: Address = .zero, to: Address?, value: UInt256 = .zero, data: [UInt8] = [], gas: UInt64? = nil) {
        self.from = from
        self.to = to
        self.value = value
        self.data = data
        self.gas = gas
    }

    /// 21,000 + 4 per zero and 16 per non-zero calldata byte (EIP-2028), and the EIP-7623 floor:
    /// 21,000 + 10 per token (a zero byte one token, a non-zero byte four).
    var intrinsicGas: (intrinsic: UInt64, floor: UInt64) {
        let zeros = UInt64(data.count { $0 == 0 })
        let nonZeros = UInt64(data.count) - zeros
        return (21_000 + 4 * zeros + 16 * nonZeros, 21_000 + 10 * (zeros + 4 * nonZeros))
    }
}

/// How a call ended, with geth's texts for the failures.
public struct CallOutcome: Sendable, Equatable {
    public enum Failure: Sendable, Equatable {
        /// REVERT with data: geth answers code 3, "execution reverted" (+ ": reason" for `Error(string)` and
        /// `Panic(uint256)`), and the data.
        case reverted(data: [UInt8])
        /// INVALID: geth answers -32000 "invalid opcode: INVALID".
        case invalidOpcode
        /// More gas than the call was given: geth answers -32000 "out of gas".
        case outOfGas
    }

    /// Return data (success) or revert data.
    public var output: [UInt8]
    public var failure: Failure?
    /// Gas the call uses as a transaction: intrinsic + execution − refund (at least the EIP-7623 floor).
    public var gasUsed: UInt64
    /// The smallest gas limit with which the call as a transaction succeeds (gas used before the refund):
    /// what `eth_estimateGas` answers.
    public var gasRequired: UInt64
    public var logs: [Log]

    public var succeeded: Bool { failure == nil }

    /// geth's message for the failure (`core/vm/errors.go`, `accounts/abi` `UnpackRevert`).
    public var failureMessage: String? {
        switch failure {
        case nil: return nil
        case .invalidOpcode: return "invalid opcode: INVALID"
        case .outOfGas: return "out of gas"
        case .reverted(let data):
            guard let reason = RevertReason.decode(data) else { return "execution reverted" }
            return "execution reverted: \(reason)"
        }
    }
}

/// geth's reading of revert data (`accounts/abi.UnpackRevert`): `Error(string)` gives its text, `Panic(uint256)`
/// the reason Solidity documents for the code.
public enum RevertReason {
    static let panicReasons: [UInt64: String] = [
        0x00: "generic panic", 0x01: "assert(false)", 0x11: "arithmetic underflow or overflow",
        0x12: "division or modulo by zero", 0x21: "enum overflow", 0x22: "invalid encoded storage byte array accessed",
        0x31: "out-of-bounds array access; popping on an empty array",
        0x32: "out-of-bounds access of an array or bytesN", 0x41: "out of memory", 0x51: "uninitialized function",
    ]

    public static func decode(_ data: [UInt8]) -> String? {
        guard data.count >= 36 else { return nil }
        let body = data[4...]
        if data[0..<4].elementsEqual(ABI.errorSelector) {
            return (try? ABIDecoder.decode(.string, from: body, options: .solidity))?.stringValue
        }
        if data[0..<4].elementsEqual(ABI.panicSelector) {
            guard let code = (try? ABIDecoder.decode(.uint256, from: body, options: .solidity))?.uintValue else {
                return nil
            }
            if let small = code.uint64Value, let reason = panicReasons[small] { return reason }
            return "unknown panic code: 0x" + code.hexDigits
        }
        return nil
    }
}

/// The ledger's state seen by the native contracts: now, or at the end of a past block.
struct LedgerContractState: ContractStateReading {
    let ledger: Ledger
    let block: UInt64?

    func storage(_ address: Address, slot: UInt256) -> UInt256 { ledger.account(address, atBlock: block).storage[slot] }
    func balance(_ address: Address) -> UInt256 { ledger.account(address, atBlock: block).balance }
    func hasCode(_ address: Address) -> Bool { !ledger.account(address, atBlock: block).code.isEmpty }
    func blockHash(_ number: UInt64) -> [UInt8]? { ledger.block(number: number)?.hash }
}

extension Ledger {
    /// The native contracts of this chain (tokens, Multicall3).
    public var nativeContracts: NativeContractRegistry { config.nativeContracts }

    /// Places the native contracts in the genesis state: their code markers, the tokens' storage, and WETH9's
    /// ETH backing its genesis supply. Returns the wei added to the supply.
    static func nativeGenesis(_ registry: NativeContractRegistry, into accounts: inout [Address: Account]) -> UInt256 {
        var added = UInt256.zero
        for token in registry.tokens {
            var account = accounts[token.address] ?? Account()
            account.code = token.profile.codeMarker
            for (slot, value) in token.genesisStorage { account.storage[slot] = account.storage[slot] + value }
            if token.profile == .weth9 {
                account.balance = account.balance + token.genesisSupply
                added = added + token.genesisSupply
            }
            accounts[token.address] = account
        }
        for collection in registry.collections {
            var account = accounts[collection.address] ?? Account()
            account.code = collection.codeMarker
            for (slot, value) in collection.genesisStorage { account.storage[slot] = value }
            accounts[collection.address] = account
        }
        if registry.multicall3, let code = registry.code(at: NativeContractRegistry.multicall3Address) {
            var account = accounts[NativeContractRegistry.multicall3Address] ?? Account()
            account.code = code
            accounts[NativeContractRegistry.multicall3Address] = account
        }
        return added
    }

    /// The storage word at `slot` of `address` now, or at the end of block `number` (`eth_getStorageAt`).
    public func storage(_ address: Address, slot: UInt256, atBlock number: UInt64? = nil) -> UInt256 {
        account(address, atBlock: number).storage[slot]
    }

    /// Executes a native call over the state now (nil) or at the end of block `number`.
    /// `accessList`: the transaction's EIP-2930 entries, warm from the start (EIP-2929).
    func executeNative(
        _ call: NativeCall, environment: BlockEnvironment, atBlock number: UInt64?,
        accessList: [LedgerTransaction.AccessListEntry] = []
    ) -> ExecutionResult {
        config.nativeContracts.execute(
            call, state: LedgerContractState(ledger: self, block: number), environment: environment,
            prewarmed: accessList.map { ($0.address, $0.storageKeys.compactMap { UInt256(bigEndian: $0) }) })
    }

    /// Runs `request` as `eth_call` does, over the state at the end of block `number` (nil: the head, including
    /// unsealed developer changes), in that block's context; nothing changes.
    ///
    /// A call to an address without native code answers success with no data (an account without code, or
    /// genesis code Sandnet does not run), using its intrinsic gas.
    public func call(_ request: CallRequest, atBlock number: UInt64? = nil) -> CallOutcome {
        let header = (number.flatMap { block(number: $0) } ?? head).header
        let environment = BlockEnvironment(
            number: header.number, timestamp: header.timestamp, baseFee: header.baseFeePerGas, chainID: config.chainID,
            coinbase: header.coinbase, gasLimit: header.gasLimit)
        let (intrinsic, floor) = request.intrinsicGas
        let limit = request.gas ?? min(config.gasLimit, config.transactionGasCap ?? .max)
        guard let to = request.to, config.nativeContracts.contract(at: to) != nil else {
            let used = max(intrinsic, floor)
            return CallOutcome(
                output: [], failure: used > limit ? .outOfGas : nil, gasUsed: used, gasRequired: used, logs: [])
        }
        let state = number.map { $0 >= blockNumber ? nil : $0 } ?? nil
        let result = executeNative(
            NativeCall(caller: request.from, target: to, value: request.value, data: request.data),
            environment: environment, atBlock: state)
        let charge = Self.charge(result, intrinsic: intrinsic, floor: floor, gasLimit: limit)
        let failure: CallOutcome.Failure?
        switch (result.outcome, charge.outOfGas) {
        case (_, true): failure = .outOfGas
        case (.success, false): failure = nil
        case (.revert(let data), false): failure = .reverted(data: data)
        case (.invalidOpcode, false): failure = .invalidOpcode
        }
        return CallOutcome(
            output: charge.outOfGas ? [] : result.output, failure: failure, gasUsed: charge.gasUsed,
            gasRequired: charge.gasRequired,
            logs: failure == nil ? result.logs.map { Log(address: $0.address, topics: $0.topics, data: $0.data) } : [])
    }

    /// What a transaction pays for a native result: gas used (after the EIP-3529 refund, capped at used / 5, and
    /// at least the EIP-7623 floor), the gas it needs, and whether `gasLimit` falls short (all gas consumed, as INVALID
    /// consumes it too).
    static func charge(_ result: ExecutionResult, intrinsic: UInt64, floor: UInt64, gasLimit: UInt64)
        -> (gasUsed: UInt64, gasRequired: UInt64, outOfGas: Bool)
    {
        let (gross, overflow) = intrinsic.addingReportingOverflow(result.gasUsed)
        let required = max(overflow ? .max : gross, floor)
        if overflow || gross > gasLimit { return (gasLimit, required, true) }
        switch result.outcome {
        case .invalidOpcode: return (gasLimit, required, false)
        case .revert: return (max(gross, floor), required, false)
        case .success:
            let refund = min(result.refund, gross / 5)
            return (max(gross - refund, floor), required, false)
        }
    }

    /// Executes a transaction to a native contract: the sender pays for the gas used whatever the outcome; on
    /// success the value moves, storage changes and the logs go into the receipt; on failure (status 0) nothing
    /// but the gas payment and the nonce changes.
    mutating func applyNative(
        _ tx: LedgerTransaction, to: Address, environment: BlockEnvironment, index: Int, cumulative: UInt64
    ) -> Receipt {
        let baseFee = environment.baseFee
        let tip = tx.effectiveTip(baseFee: baseFee) ?? .zero
        let price = tx.effectiveGasPrice(baseFee: baseFee)
        let coinbaseTip = tx.usesGasPrice ? tx.maxFeePerGas - baseFee : tip
        let result = executeNative(
            NativeCall(caller: tx.sender, target: to, value: tx.value, data: tx.data), environment: environment,
            atBlock: nil, accessList: tx.accessList)
        let charge = Self.charge(result, intrinsic: tx.intrinsicGas, floor: tx.floorGas, gasLimit: tx.gasLimit)
        let status = result.succeeded && !charge.outOfGas
        let gasUsed = charge.gasUsed
        var sender = account(tx.sender)
        sender.balance = sender.balance - UInt256(gasUsed) * price
        sender.nonce += 1
        setAccount(tx.sender, sender)
        var logs: [Log] = []
        if status {
            for transfer in result.valueTransfers {
                var from = account(transfer.from)
                from.balance = from.balance - transfer.amount
                setAccount(transfer.from, from)
                var to = account(transfer.to)
                to.balance = to.balance + transfer.amount
                setAccount(transfer.to, to)
            }
            for write in result.storageWrites {
                var account = account(write.address)
                account.storage[write.slot] = write.value
                setAccount(write.address, account)
            }
            logs = result.logs.map { Log(address: $0.address, topics: $0.topics, data: $0.data) }
        }
        var coinbase = account(config.coinbase)
        coinbase.balance = coinbase.balance + UInt256(gasUsed) * coinbaseTip
        setAccount(config.coinbase, coinbase)
        state.burned = state.burned + UInt256(gasUsed) * baseFee
        if account(config.coinbase).isEmpty, state.accounts[config.coinbase] != nil {
            writeAccount(config.coinbase, nil)
            state.dirty.insert(config.coinbase)
        }
        return Receipt(
            type: tx.type, status: status, cumulativeGasUsed: cumulative + gasUsed, gasUsed: gasUsed,
            effectiveGasPrice: price, logs: logs, logsBloom: LogsBloom.of(logs), transactionHash: tx.hash,
            transactionIndex: index, blockNumber: environment.number, from: tx.sender, to: to, contractAddress: nil)
    }

    /// Sets a storage word now (`anvil_setStorageAt`, `hardhat_setStorageAt`); sealed into the next block.
    public mutating func setStorage(_ address: Address, slot: UInt256, value: UInt256) {
        var account = account(address)
        account.storage[slot] = value
        setAccount(address, account)
    }
}

/// Why `eth_estimateGas` has no answer, with geth's texts (`eth/gasestimator`, `internal/ethapi`).
public enum EstimateGasError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call reverts whatever the gas: geth answers code 3 with the revert data.
    case reverted(data: [UInt8], message: String)
    /// It fails another way at the cap (INVALID): -32000 with the VM's text.
    case failed(message: String)
    /// It runs out of gas even at the cap: -32000 "gas required exceeds allowance (cap)".
    case gasRequiredExceedsAllowance(cap: UInt64)

    public var message: String {
        switch self {
        case .reverted(_, let message), .failed(let message): return message
        case .gasRequiredExceedsAllowance(let cap): return "gas required exceeds allowance (\(cap))"
        }
    }

    public var description: String { message }
}

extension Ledger {
    /// The least gas limit with which `request` succeeds as a transaction (`eth_estimateGas`): gas used before
    /// the refund, at least the EIP-7623 floor. `request.gas` (or the block gas limit, capped per transaction)
    /// bounds it.
    public func estimateGas(_ request: CallRequest, atBlock number: UInt64? = nil) throws(EstimateGasError) -> UInt64 {
        let cap = request.gas ?? min(config.gasLimit, config.transactionGasCap ?? .max)
        var unbounded = request
        unbounded.gas = .max
        let outcome = call(unbounded, atBlock: number)
        switch outcome.failure {
        case .reverted(let data)?: throw .reverted(data: data, message: outcome.failureMessage ?? "execution reverted")
        case .invalidOpcode?: throw .failed(message: outcome.failureMessage ?? "invalid opcode: INVALID")
        case .outOfGas?, nil: break
        }
        guard outcome.gasRequired <= cap else { throw .gasRequiredExceedsAllowance(cap: cap) }
        return outcome.gasRequired
    }

    /// Sets `holder`'s balance of `token` now (`anvil_dealERC20`, `anvil_setERC20Balance`), keeping the total
    /// supply consistent: the total-supply word moves by the difference, and for WETH9 (whose supply is its ETH)
    /// the contract's ETH balance and the chain's supply move with it. Sealed into the next block; no log.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for an address that is no token, or when the total supply
    ///   would pass 2^256 − 1 (or, for WETH9, the chain's ETH supply would).
    public mutating func setTokenBalance(token address: Address, holder: Address, amount: UInt256) throws(LedgerError) {
        guard let token = config.nativeContracts.token(at: address) else {
            throw .valueOutOfRange("\(address.checksummed) is not a native token")
        }
        let layout = token.profile.layout
        let slot = layout.balanceSlot(holder)
        let old = storage(address, slot: slot)
        if let supplySlot = layout.totalSupply {
            let others = storage(address, slot: supplySlot).subtractingReportingOverflow(old)
            let (supply, overflow) = others.partialValue.addingReportingOverflow(amount)
            guard !others.overflow, !overflow else {
                throw .valueOutOfRange(
                    "balance \(amount) is too large: \(token.symbol)'s total supply would exceed 2^256-1")
            }
            setStorage(address, slot: supplySlot, value: supply)
        } else {
            let contract = account(address)
            let backing = contract.balance.subtractingReportingOverflow(old)
            let (ether, overflow) = backing.partialValue.addingReportingOverflow(amount)
            guard !backing.overflow, !overflow else {
                throw .valueOutOfRange("balance \(amount) is too large for \(token.symbol)'s ETH backing")
            }
            try setBalance(address, ether)
        }
        setStorage(address, slot: slot, value: amount)
    }

    /// Sets `owner`'s allowance to `spender` on `token` now (`anvil_setERC20Allowance`); no log.
    public mutating func setTokenAllowance(
        token address: Address, owner: Address, spender: Address, amount: UInt256
    ) throws(LedgerError) {
        guard let token = config.nativeContracts.token(at: address) else {
            throw .valueOutOfRange("\(address.checksummed) is not a native token")
        }
        setStorage(address, slot: token.profile.layout.allowanceSlot(owner: owner, spender: spender), value: amount)
    }

    /// `holder`'s balance of `token` now or at the end of block `number` (zero for an address that is no token).
    public func tokenBalance(token address: Address, holder: Address, atBlock number: UInt64? = nil) -> UInt256 {
        guard let token = config.nativeContracts.token(at: address) else { return .zero }
        return storage(address, slot: token.profile.layout.balanceSlot(holder), atBlock: number)
    }
}
