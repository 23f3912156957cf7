import EthereumTransactions
import EthereumTypes
import NativeContracts

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

extension Ledger {
    /// The precompiled contracts' addresses under Osaka: 0x01–0x11 (through EIP-2537's BLS12-381 operations) and
    /// EIP-7951's P256VERIFY at 0x100. An access list never needs them.
    public static let precompileAddresses: [Address] = (Array(1...0x11) + [0x100]).map { (n: Int) in
        Address([UInt8](repeating: 0, count: 18) + [UInt8(n >> 8), UInt8(n & 0xff)])!
    }

    /// The access list `request` needs over the state at the end of block `number` (nil: the head), as geth's
    /// `AccessList` builds it: run with the list so far until the touched set stops growing. The sender, the
    /// target (or the created address) and the precompiles are left out as accounts; storage words of any account
    /// are listed. A call to an address without native code touches nothing: the list is `given` without those
    /// addresses, and the gas is the intrinsic gas.
    public func createAccessList(
        _ request: CallRequest, given: [AccessListEntry] = [], nonce: UInt64, atBlock number: UInt64? = nil
    ) -> AccessListResult {
        let to = request.to ?? Self.contractAddress(sender: request.from, nonce: nonce)
        let excluded = Set([request.from, to] + Self.precompileAddresses)
        var list: [Address: Set<UInt256>] = [:]
        for entry in given where !excluded.contains(entry.address) {
            list[entry.address, default: []].formUnion(entry.storageKeys)
        }
        let header = (number.flatMap { block(number: $0) } ?? head).header
        let environment = BlockEnvironment(
            number: header.number, timestamp: header.timestamp, baseFee: header.baseFeePerGas, chainID: config.chainID,
            coinbase: header.coinbase, gasLimit: header.gasLimit)
        let limit = request.gas ?? min(config.gasLimit, config.transactionGasCap ?? .max)
        let state = number.flatMap { $0 >= blockNumber ? nil : $0 }
        // Each round can only add what the previous one touched; native execution is deterministic, so two or
        // three rounds settle (the bound is a guard, never reached).
        for _ in 0..<16 {
            let entries = Self.sorted(list)
            let gas = IntrinsicGas(
                data: request.data, isContractCreation: request.to == nil, accessListAddresses: entries.count,
                accessListStorageKeys: entries.reduce(0) { $0 + $1.storageKeys.count })
            guard let target = request.to, nativeContracts.contract(at: target) != nil else {
                let used = max(gas.standard, gas.floor)
                return AccessListResult(
                    accessList: entries, gasUsed: min(used, limit), error: used > limit ? "out of gas" : nil)
            }
            let result = nativeContracts.execute(
                NativeCall(caller: request.from, target: target, value: request.value, data: request.data),
                state: LedgerContractState(ledger: self, block: state), environment: environment,
                prewarmed: entries.map { ($0.address, $0.storageKeys) })
            var next = list
            for (address, slots) in result.accessed where !slots.isEmpty || !excluded.contains(address) {
                next[address, default: []].formUnion(slots)
            }
            if next == list {
                let charge = Self.charge(result, intrinsic: gas.standard, floor: gas.floor, gasLimit: limit)
                let error: String? =
                    switch (result.outcome, charge.outOfGas) {
                    case (_, true): "out of gas"
                    case (.success, false): nil
                    case (.revert, false): "execution reverted"
                    case (.invalidOpcode, false): "invalid opcode: INVALID"
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
