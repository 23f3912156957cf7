import EthereumTypes

/// Why a well-formed signed transaction is invalid before any state is consulted.
///
/// ``message`` is go-ethereum's exact text (`core/error.go`, `core/txpool/validation.go`,
/// `core/types/transaction_signing.go`, and `cmd/evm` t8n for the fee-product overflow), detail included after
/// the colon, because wallets and libraries such as viem classify node errors by matching these strings.
public enum TransactionValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The gas limit is below the intrinsic gas (base, calldata, creation, access list).
    case intrinsicGasTooLow(gas: UInt64, minimum: UInt64)
    /// The gas limit is below the EIP-7623 calldata floor (Prague and later).
    case floorDataGasTooLow(gas: UInt64, minimum: UInt64)
    /// The nonce is 2^64 − 1 (EIP-2681).
    case nonceMax
    /// Contract-creation init code longer than 49,152 bytes (EIP-3860).
    case maxInitCodeSizeExceeded(size: Int, limit: Int)
    /// A gas limit above 2^24 (EIP-7825, Osaka).
    case gasLimitTooHigh(gas: UInt64, cap: UInt64)
    /// The signature's chain id is not the chain's (EIP-155, EIP-2930, EIP-1559).
    case invalidChainID(have: UInt64, want: UInt64)
    /// r or s out of range, s above n/2 (EIP-2), or no public key recovers.
    case invalidSignature
    /// `maxPriorityFeePerGas > maxFeePerGas` (EIP-1559).
    case tipAboveFeeCap
    /// `gas × gasPrice` (or `gas × maxFeePerGas`) does not fit in 256 bits.
    case gasFeeProductOverflow(feeField: TransactionField)

    /// geth's text for this error.
    public var message: String {
        switch self {
        case .intrinsicGasTooLow(let gas, let minimum):
            return "intrinsic gas too low: gas \(gas), minimum needed \(minimum)"
        case .floorDataGasTooLow(let gas, let minimum):
            return "insufficient gas for floor data gas cost: gas \(gas), minimum needed \(minimum)"
        case .nonceMax:
            return "nonce has max value"
        case .maxInitCodeSizeExceeded(let size, let limit):
            return "max initcode size exceeded: code size \(size) limit \(limit)"
        case .gasLimitTooHigh(let gas, let cap):
            return "transaction gas limit too high (cap: \(cap), tx: \(gas))"
        case .invalidChainID(let have, let want):
            return "invalid sender: invalid chain id for signer: have \(have) want \(want)"
        case .invalidSignature:
            return "invalid sender: invalid transaction v, r, s values"
        case .tipAboveFeeCap:
            return "max priority fee per gas higher than max fee per gas"
        case .gasFeeProductOverflow(let feeField):
            return "gas * \(feeField.rawValue) exceeds 256 bits"
        }
    }

    public var description: String { message }
}
