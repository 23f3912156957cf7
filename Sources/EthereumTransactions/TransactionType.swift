/// The EIP-2718 transaction types Sandnet models.
///
/// Blob (EIP-4844, type 3) and set-code (EIP-7702, type 4) transactions are not modelled: decoding them
/// throws ``TransactionDecodingError/Kind/unsupportedType(_:)`` with geth's text "transaction type not supported".
public enum TransactionType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The untyped RLP list of Frontier, with optional EIP-155 replay protection.
    case legacy = 0
    /// EIP-2930: chain id and access list, `0x01 ‖ rlp(…)`.
    case accessList = 1
    /// EIP-1559: priority fee and fee cap, `0x02 ‖ rlp(…)`.
    case dynamicFee = 2

    public var description: String {
        switch self {
        case .legacy: return "legacy"
        case .accessList: return "access-list (EIP-2930)"
        case .dynamicFee: return "dynamic-fee (EIP-1559)"
        }
    }
}
