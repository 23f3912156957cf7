/// The gas a transaction costs before execution, and the EIP-7623 calldata floor
/// (execution-specs `prague/transactions.py` `calculate_intrinsic_cost`).
public struct IntrinsicGas: Sendable, Hashable {
    /// 21,000 + 4 per calldata token + 32,000 and 2 per init-code word for creation + 2,400 per access-list
    /// address + 1,900 per storage key.
    public var standard: UInt64
    /// 21,000 + 10 per calldata token (EIP-7623); the gas a transaction is charged at least, from Prague on.
    public var floor: UInt64

    /// Calldata tokens: zero bytes count 1, non-zero bytes 4 (EIP-7623 `tokens_in_calldata`).
    public static func tokens<Bytes: Sequence<UInt8>>(in data: Bytes) -> UInt64 {
        var zeros: UInt64 = 0
        var total: UInt64 = 0
        for byte in data {
            total += 1
            if byte == 0 { zeros += 1 }
        }
        return zeros + 4 * (total - zeros)
    }

    /// Computes both figures.
    /// - Parameters:
    ///   - data: Calldata, or init code when `isContractCreation`.
    ///   - isContractCreation: `to` is empty.
    ///   - accessListAddresses: Number of access-list entries.
    ///   - accessListStorageKeys: Total storage keys over all entries.
    public init(data: [UInt8], isContractCreation: Bool, accessListAddresses: Int, accessListStorageKeys: Int) {
        let tokens = Self.tokens(in: data)
        var gas = GasSchedule.transactionBase + tokens * GasSchedule.calldataTokenCost
        if isContractCreation {
            let words = (UInt64(data.count) + 31) / 32
            gas += GasSchedule.contractCreation + words * GasSchedule.initCodeWord
        }
        gas += UInt64(accessListAddresses) * GasSchedule.accessListAddress
        gas += UInt64(accessListStorageKeys) * GasSchedule.accessListStorageKey
        standard = gas
        floor = GasSchedule.transactionBase + tokens * GasSchedule.floorTokenCost
    }

    /// The intrinsic gas of `transaction`.
    public init(_ transaction: Transaction) {
        let list = transaction.accessList
        self.init(
            data: transaction.data, isContractCreation: transaction.isContractCreation,
            accessListAddresses: list.count, accessListStorageKeys: list.reduce(0) { $0 + $1.storageKeys.count })
    }

    /// The least gas limit valid under `fork`: `max(standard, floor)` from Prague on, `standard` before.
    public func minimumGasLimit(for fork: Fork) -> UInt64 {
        fork >= .prague ? max(standard, floor) : standard
    }
}
