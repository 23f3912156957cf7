import EthereumTypes

/// Why the ledger refused a transaction or a request. ``message`` is go-ethereum's text, byte for byte
/// (`core/txpool/validation.go`, `core/error.go`, `core/types/transaction_signing.go`), because client
/// libraries (viem, ethers, web3swift) match on it.
public enum LedgerError: Error, Sendable, Equatable, CustomStringConvertible {
    case nonceTooLow(next: UInt64, got: UInt64)
    /// The balance does not cover the transaction's cost (exact: it may pass 2^256).
    case insufficientFunds(balance: UInt256, cost: WideAmount)
    /// The balance covers the transaction but not with the sender's pending transactions' costs (`queued`).
    case insufficientFundsQueued(balance: UInt256, queued: WideAmount, cost: WideAmount)
    /// A replacement: the pending costs plus the difference to the replaced transaction's cost (`bump`, negative
    /// when the replacement costs less) exceed the balance.
    case insufficientFundsBumped(balance: UInt256, queued: WideAmount, bump: WideAmount, bumpIsNegative: Bool)
    case intrinsicGasTooLow(gas: UInt64, needed: UInt64)
    case floorDataGasTooLow(gas: UInt64, needed: UInt64)
    case feeCapBelowBaseFee(sender: Address, maxFee: UInt256, baseFee: UInt256)
    case tipAboveFeeCap
    case alreadyKnown
    case replacementUnderpriced
    case exceedsBlockGasLimit
    case gasLimitTooHigh(cap: UInt64, gas: UInt64)
    case wrongChainID(have: UInt64, want: UInt64)
    case invalidSender(String)
    /// A tip below the pool's minimum (geth's `ErrTxGasPriceTooLow`).
    case underpriced(tip: UInt256, minimum: UInt256)
    case poolFull
    case nonceMax
    case unknownTransaction
    case unknownSnapshot(UInt64)
    /// More pool transactions from one sender than ``ChainConfig/poolLimitPerSender`` (geth's
    /// `ErrAccountLimitExceeded`, answered with -32000).
    case accountLimitExceeded
    /// `anvil_reorg` deeper than the chain or not positive.
    case invalidReorgDepth(height: UInt64)
    /// `evm_setNextBlockTimestamp` at or before the head's timestamp.
    case timestampNotAfterHead(timestamp: UInt64, head: UInt64)
    /// The data directory could not be read or written (the backend's message); memory is left as it was.
    case storageFailure(String)
    /// The data directory holds records that do not decode or do not fit together.
    case corruptDataDirectory(String)
    /// The data directory holds another chain.
    case dataDirectoryChainMismatch(stored: UInt64, configured: UInt64)
    /// The data directory was written by another format version.
    case unsupportedDataVersion(found: UInt64, expected: UInt64)
    /// A developer method's argument passes a documented limit (the message names it); answered with -32602.
    case valueOutOfRange(String)
    /// The encoded transaction is larger than the pool admits (geth's `txMaxSize`).
    case oversizedData(size: Int, limit: Int)
    /// Contract-creation init code longer than EIP-3860 allows.
    case maxInitCodeSizeExceeded(size: Int, limit: Int)

    public var message: String {
        switch self {
        case .nonceTooLow(let next, let got): return "nonce too low: next nonce \(next), tx nonce \(got)"
        case .insufficientFunds(let balance, let cost):
            return "insufficient funds for gas * price + value: balance \(balance), tx cost \(cost), overshot "
                + "\(cost - WideAmount(balance))"
        case .insufficientFundsQueued(let balance, let queued, let cost):
            return
                "insufficient funds for gas * price + value: balance \(balance), queued cost \(queued), tx cost \(cost), "
                + "overshot \(queued + cost - WideAmount(balance))"
        case .insufficientFundsBumped(let balance, let queued, let bump, let negative):
            let need = negative ? queued - bump : queued + bump
            return "insufficient funds for gas * price + value: balance \(balance), queued cost \(queued), tx bumped "
                + "\(negative ? "-" : "")\(bump), overshot \(need - WideAmount(balance))"
        case .intrinsicGasTooLow(let gas, let needed):
            return "intrinsic gas too low: gas \(gas), minimum needed \(needed)"
        case .floorDataGasTooLow(let gas, let needed):
            return "insufficient gas for floor data gas cost: gas \(gas), minimum needed \(needed)"
        case .feeCapBelowBaseFee(let sender, let maxFee, let baseFee):
            return
                "max fee per gas less than block base fee: address \(sender.checksummed), maxFeePerGas: \(maxFee), baseFee: \(baseFee)"
        case .tipAboveFeeCap: return "max priority fee per gas higher than max fee per gas"
        case .alreadyKnown: return "already known"
        case .replacementUnderpriced: return "replacement transaction underpriced"
        case .exceedsBlockGasLimit: return "exceeds block gas limit"
        case .gasLimitTooHigh(let cap, let gas): return "transaction gas limit too high (cap: \(cap), tx: \(gas))"
        case .wrongChainID(let have, let want):
            return "invalid sender: invalid chain id for signer: have \(have) want \(want)"
        case .invalidSender(let why): return why.isEmpty ? "invalid sender" : "invalid sender: \(why)"
        case .underpriced(let tip, let minimum):
            return "transaction gas price below minimum: gas tip cap \(tip), minimum needed \(minimum)"
        case .poolFull: return "txpool is full"
        case .nonceMax: return "nonce has max value"
        case .unknownTransaction: return "transaction not found"
        case .unknownSnapshot(let id): return "snapshot \(id) not found"
        case .accountLimitExceeded: return "account limit exceeded"
        case .invalidReorgDepth(let height): return "reorg depth must be between 1 and the chain height (\(height))"
        case .timestampNotAfterHead(let timestamp, let head):
            return "timestamp \(timestamp) must be greater than the latest block's timestamp \(head)"
        case .storageFailure(let why): return "data directory: \(why)"
        case .corruptDataDirectory(let why): return why
        case .dataDirectoryChainMismatch(let stored, let configured):
            return "data directory holds chain id \(stored), not \(configured); use another --data-dir"
        case .unsupportedDataVersion(let found, let expected):
            let writer = found < expected ? "an older" : "a newer"
            return "data directory has format version \(found), expected \(expected): it was written by \(writer) "
                + "Sandnet; move it away or pass another --data-dir to start a new chain"
        case .valueOutOfRange(let why): return why
        case .oversizedData(let size, let limit): return "oversized data: transaction size \(size), limit \(limit)"
        case .maxInitCodeSizeExceeded(let size, let limit):
            return "max initcode size exceeded: code size \(size) limit \(limit)"
        }
    }

    public var description: String { message }
}
