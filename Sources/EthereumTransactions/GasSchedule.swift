/// Transaction gas constants from execution-specs (`prague/transactions.py`, `osaka/transactions.py`) and
/// go-ethereum `params/protocol_params.go`.
public enum GasSchedule {
    /// Every transaction (`TX_BASE_COST`).
    public static let transactionBase: UInt64 = 21_000
    /// Contract creation (`TX_CREATE_COST`).
    public static let contractCreation: UInt64 = 32_000
    /// Per calldata token (EIP-2028: 4 per zero byte, 16 per non-zero byte = 4 tokens).
    public static let calldataTokenCost: UInt64 = 4
    /// Per calldata token for the EIP-7623 floor (`TOTAL_COST_FLOOR_PER_TOKEN`).
    public static let floorTokenCost: UInt64 = 10
    /// Per access-list address (EIP-2930 `TX_ACCESS_LIST_ADDRESS_COST`).
    public static let accessListAddress: UInt64 = 2_400
    /// Per access-list storage key (EIP-2930 `TX_ACCESS_LIST_STORAGE_KEY_COST`).
    public static let accessListStorageKey: UInt64 = 1_900
    /// Per 32-byte word of init code (EIP-3860 `INITCODE_WORD_COST`).
    public static let initCodeWord: UInt64 = 2
    /// Longest init code a creation may carry (EIP-3860: 2 × 24,576).
    public static let maxInitCodeSize = 49_152
    /// Largest gas limit a transaction may carry from Osaka on (EIP-7825: 2^24).
    public static let maxTransactionGas: UInt64 = 1 << 24
}
