import EthereumTransactions
import EthereumTypes
import NativeContracts

/// The ledger's state now, or at the end of a past block: what calls and native contracts read.
struct StateView: ContractStateReading {
    let world: WorldState
    let chain: ChainHistory
    /// nil (or the head or later): now, including changes not yet sealed into a block.
    let block: UInt64?

    func account(_ address: Address) -> Account { Self.account(address, atBlock: block, world: world, chain: chain) }

    /// The account now (`number` nil, the head or later: including unsealed changes), or as block `number` left it.
    static func account(_ address: Address, atBlock number: UInt64?, world: WorldState, chain: ChainHistory) -> Account
    {
        guard let number, number < chain.height else { return world.account(address) }
        return chain.account(address, atBlock: number) ?? Account()
    }

    func storage(_ address: Address, slot: UInt256) -> UInt256 { account(address).storage[slot] }
    func balance(_ address: Address) -> UInt256 { account(address).balance }
    func hasCode(_ address: Address) -> Bool { !account(address).code.isEmpty }
    func blockHash(_ number: UInt64) -> [UInt8]? { chain.block(number: number)?.hash }
}

/// What `eth_createAccessList` answers: the EIP-2930 list the call touches, the gas it uses with that list, and
/// the execution error, if any (geth's `accessListResult`).
public struct AccessListResult: Sendable, Equatable {
    public var accessList: [AccessListEntry]
    /// Intrinsic gas (with the list's 2,400 per address and 1,900 per key) + execution − refund, at least the
    /// EIP-7623 floor.
    public var gasUsed: UInt64
    /// geth's VM error text: `execution reverted` (the reason is not included, as geth's `res.Err`),
    /// `invalid opcode: INVALID`, `out of gas`.
    public var error: String?
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

/// Calls that are not transactions, over the state at a block: `eth_call`, `eth_estimateGas`,
/// `eth_createAccessList`. A read-only value over the ledger's parts; nothing changes.
struct CallExecutor {
    let config: ChainConfig
    let world: WorldState
    let chain: ChainHistory

    /// The precompiled contracts' addresses under Osaka: 0x01–0x11 (through EIP-2537's BLS12-381 operations) and
    /// EIP-7951's P256VERIFY at 0x100. An access list never needs them.
    static let precompileAddresses: [Address] = (Array(1...0x11) + [0x100]).map { (n: Int) in
        Address([UInt8](repeating: 0, count: 18) + [UInt8(n >> 8), UInt8(n & 0xff)])!
    }

    /// The context of block `number` (nil or unknown: the head).
    private func environment(atBlock number: UInt64?) -> BlockEnvironment {
        let header = (number.flatMap { chain.block(number: $0) } ?? chain.head).header
        return BlockEnvironment(
            number: header.number, timestamp: header.timestamp, baseFee: header.baseFeePerGas, chainID: config.chainID,
            coinbase: header.coinbase, gasLimit: header.gasLimit)
    }

    /// The gas a call gets without a `gas` field: the block gas limit, capped per transaction (EIP-7825).
    private var defaultGas: UInt64 { min(config.gasLimit, config.transactionGasCap ?? .max) }

    /// Runs `request` as `eth_call` does (see ``Ledger/call(_:atBlock:)``).
    func call(_ request: CallRequest, atBlock number: UInt64?) -> CallOutcome {
        let environment = environment(atBlock: number)
        let (intrinsic, floor) = request.intrinsicGas
        let limit = request.gas ?? defaultGas
        guard let to = request.to, config.nativeContracts.contract(at: to) != nil else {
            let used = max(intrinsic, floor)
            return CallOutcome(
                output: [], failure: used > limit ? .outOfGas : nil, gasUsed: used, gasRequired: used, logs: [])
        }
        let result = config.nativeContracts.execute(
            NativeCall(caller: request.from, target: to, value: request.value, data: request.data),
            state: StateView(world: world, chain: chain, block: number), environment: environment)
        let charge = Charge(result, intrinsic: intrinsic, floor: floor, gasLimit: limit)
        let failure = charge.failure(result.outcome)
        return CallOutcome(
            output: charge.outOfGas ? [] : result.output, failure: failure, gasUsed: charge.gasUsed,
            gasRequired: charge.gasRequired,
            logs: failure == nil ? result.logs.map { Log(address: $0.address, topics: $0.topics, data: $0.data) } : [])
    }

    /// The least gas limit with which `request` succeeds as a transaction (see ``Ledger/estimateGas(_:atBlock:)``).
    func estimateGas(_ request: CallRequest, atBlock number: UInt64?) throws(EstimateGasError) -> UInt64 {
        let cap = request.gas ?? defaultGas
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

    /// The access list `request` needs (see ``Ledger/createAccessList(_:given:nonce:atBlock:)``).
    func createAccessList(
        _ request: CallRequest, given: [AccessListEntry], nonce: UInt64, atBlock number: UInt64?
    ) -> AccessListResult {
        let to = request.to ?? Ledger.contractAddress(sender: request.from, nonce: nonce)
        let excluded = Set([request.from, to] + Self.precompileAddresses)
        var list: [Address: Set<UInt256>] = [:]
        for entry in given where !excluded.contains(entry.address) {
            list[entry.address, default: []].formUnion(entry.storageKeys)
        }
        let environment = environment(atBlock: number)
        let limit = request.gas ?? defaultGas
        let state = StateView(world: world, chain: chain, block: number)
        // Each round can only add what the previous one touched; native execution is deterministic, so two or
        // three rounds settle (the bound is a guard, never reached).
        for _ in 0..<16 {
            let entries = Self.sorted(list)
            let gas = IntrinsicGas(
                data: request.data, isContractCreation: request.to == nil, accessListAddresses: entries.count,
                accessListStorageKeys: entries.reduce(0) { $0 + $1.storageKeys.count })
            guard let target = request.to, config.nativeContracts.contract(at: target) != nil else {
                let used = max(gas.standard, gas.floor)
                return AccessListResult(
                    accessList: entries, gasUsed: min(used, limit), error: used > limit ? "out of gas" : nil)
            }
            let result = config.nativeContracts.execute(
                NativeCall(caller: request.from, target: target, value: request.value, data: request.data),
                state: state, environment: environment, prewarmed: entries.map { ($0.address, $0.storageKeys) })
            var next = list
            for (address, slots) in result.accessed where !slots.isEmpty || !excluded.contains(address) {
                next[address, default: []].formUnion(slots)
            }
            if next == list {
                let charge = Charge(result, intrinsic: gas.standard, floor: gas.floor, gasLimit: limit)
                let error: String? =
                    switch charge.failure(result.outcome) {
                    case .outOfGas?: "out of gas"
                    case nil: nil
                    case .reverted?: "execution reverted"
                    case .invalidOpcode?: "invalid opcode: INVALID"
                    }
                return AccessListResult(accessList: entries, gasUsed: charge.gasUsed, error: error)
            }
            list = next
        }
        preconditionFailure("a native call's access list settles within a few rounds")
    }

    /// geth's order: accounts by address, each account's keys ascending.
    static func sorted(_ list: [Address: Set<UInt256>]) -> [AccessListEntry] {
        list.keys.sorted().map { AccessListEntry(address: $0, storageKeys: list[$0]!.sorted()) }
    }
}
