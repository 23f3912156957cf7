import ByteCoding
import EthereumTypes

/// Why the node refused a request, beyond the ledger's own ``LedgerError``s and the transaction codec's errors.
/// Each case carries what its message needs; the JSON-RPC layer (`EthereumRPC`) maps every case to geth's code and
/// text in one place.
public enum NodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A state read or fee history at a block the chain does not have (geth: `header not found`).
    case headerNotFound
    /// A log query by a block hash the chain does not have (geth: `unknown block`).
    case unknownBlock
    /// Signing for an address whose key the node does not hold (geth: `unknown account`).
    case unknownAccount
    /// A filter id that was never installed, was uninstalled or expired (geth: `filter not found`).
    case filterNotFound
    /// A legacy transaction without a chain id while `allowUnprotectedTransactions` is off.
    case unprotectedTransaction
    /// 2 × base fee + tip is above 2^256 − 1 (geth computes it in big integers and its pool refuses the result).
    case feeCapOverflow
    /// eth_call/eth_estimateGas with a `value` above the sender's balance.
    case insufficientFundsForTransfer
    /// eth_estimateGas with a `gas` cap below what the transaction needs.
    case gasRequiredExceedsAllowance(cap: UInt64)
    /// A log query whose `fromBlock` is after its `toBlock`.
    case invalidBlockRange
    /// A log query whose range ends after the head (geth: -32602).
    case blockRangeBeyondHead
    /// A log query over more than `limit` blocks.
    case blockRangeTooLarge(limit: UInt64)
    /// A log query or filter with more than `limit` addresses or topics in one position.
    case tooManyFilterCriteriaPerPosition
    /// An eth_feeHistory percentile outside 0…100 or not increasing; the text is geth's.
    case invalidRewardPercentile(String)
    /// More polling filters than allowed at once.
    case tooManyFilters(limit: Int)
    /// More addresses and topics over all installed log filters than allowed.
    case tooManyFilterCriteria(limit: Int)
    /// More `evm_snapshot`s than allowed at once.
    case tooManySnapshots(limit: Int)
    /// `anvil_mine`/`evm_mine` asked for more blocks than one request may mine.
    case tooManyBlocks(limit: UInt64)
    /// `anvil_reorg` deeper than one request may go.
    case reorgTooDeep(limit: UInt64)
    /// Typed data (EIP-712) that cannot be encoded or signed.
    case invalidTypedData(String)
    /// A state dump (`anvil_loadState`, `--load-state`) that cannot be read.
    case invalidStateDump(String)
    /// eth_call/eth_estimateGas of a call that reverts: geth answers code 3 with its text ("execution reverted",
    /// plus ": reason" for `Error(string)` and `Panic(uint256)`) and the revert data.
    case executionReverted(message: String, data: [UInt8])
    /// A call that fails in the VM another way (`invalid opcode: INVALID`, `out of gas`): -32000 with that text.
    case executionFailed(String)
    /// A token (symbol or address) the chain does not have.
    case unknownToken(String)
    /// anvil_impersonateAccount beyond the number of addresses impersonated at once.
    case tooManyImpersonatedAccounts(limit: Int)
    /// eth_getProof with more storage keys than `limit` (geth's `maxGetProofKeys`, -32602).
    case tooManyStorageKeys(limit: Int, got: Int)
    /// A state proof at a block whose state the node no longer keeps (geth's `HistoricDB` text, -32000).
    case historicalStateUnavailable(root: [UInt8])
    /// eth_call/eth_estimateGas whose sender cannot pay gas × fee cap + value (geth's `buyGas`); `want` nil: the sum
    /// exceeds 256 bits.
    case insufficientFunds(sender: Address, have: UInt256, want: UInt256?)
    /// eth_call/eth_estimateGas with a tip above its fee cap (geth's state transition text, with the address).
    case callTipAboveFeeCap(sender: Address, tip: UInt256, maxFee: UInt256)
    /// eth_call/eth_estimateGas with a fee cap below the block's base fee.
    case callFeeCapTooLow(sender: Address, maxFee: UInt256, baseFee: UInt256)
    /// eth_estimateGas whose run at its highest gas limit failed before executing (geth's estimator wraps the
    /// state transition's error: `failed with N gas: …`).
    indirect case estimationFailed(gas: UInt64, NodeError)
    /// eth_sendTransaction's fee arguments as geth's `setFeeDefaults` refuses them (`maxFeePerGas (0x…) <
    /// maxPriorityFeePerGas (0x…)`, `maxFeePerGas must be non-zero`, `gasPrice must be non-zero after london fork`).
    case invalidFeeArguments(String)

    public var description: String {
        switch self {
        case .headerNotFound: "header not found"
        case .unknownBlock: "unknown block"
        case .unknownAccount: "unknown account"
        case .filterNotFound: "filter not found"
        case .unprotectedTransaction: "only replay-protected (EIP-155) transactions allowed over RPC"
        case .feeCapOverflow: "max fee per gas higher than 2^256-1"
        case .insufficientFundsForTransfer: "insufficient funds for transfer"
        case .gasRequiredExceedsAllowance(let cap): "gas required exceeds allowance (\(cap))"
        case .invalidBlockRange: "invalid block range params"
        case .blockRangeBeyondHead: "block range extends beyond current head block"
        case .blockRangeTooLarge(let limit): "query exceeds max block range \(limit)"
        case .tooManyFilterCriteriaPerPosition: "exceed max addresses or topics per search position"
        case .invalidRewardPercentile(let text): "invalid reward percentile: \(text)"
        case .tooManyFilters(let limit):
            "too many filters: limit is \(limit) (a filter expires 5 minutes after its last poll; "
                + "eth_uninstallFilter removes one)"
        case .tooManyFilterCriteria(let limit):
            "too many filter criteria: installed log filters may hold \(limit) addresses and topics in all"
        case .tooManySnapshots(let limit): "too many snapshots: limit is \(limit) (evm_revert consumes a snapshot)"
        case .tooManyBlocks(let limit): "cannot mine more than \(limit) blocks at once"
        case .reorgTooDeep(let limit): "cannot reorg more than \(limit) blocks at once"
        case .invalidTypedData(let text): text
        case .invalidStateDump(let text): text
        case .executionReverted(let message, _): message
        case .executionFailed(let text): text
        case .unknownToken(let text): "unknown token \(text): not a native token of this chain"
        case .tooManyImpersonatedAccounts(let limit):
            "too many impersonated accounts: limit is \(limit) (anvil_stopImpersonatingAccount removes one; "
                + "anvil_autoImpersonateAccount covers every address)"
        case .tooManyStorageKeys(let limit, let got): "too many storage keys requested (max \(limit), got \(got))"
        case .historicalStateUnavailable(let root):
            "historical state \(Hex.encode(root)) is not available"
        case .insufficientFunds(let sender, let have, let want?):
            "insufficient funds for gas * price + value: address \(sender.checksummed) have \(have) want \(want)"
        case .insufficientFunds(let sender, _, nil):
            "insufficient funds for gas * price + value: address \(sender.checksummed) required balance exceeds 256 bits"
        case .callTipAboveFeeCap(let sender, let tip, let maxFee):
            "max priority fee per gas higher than max fee per gas: address \(sender.checksummed), "
                + "maxPriorityFeePerGas: \(tip), maxFeePerGas: \(maxFee)"
        case .callFeeCapTooLow(let sender, let maxFee, let baseFee):
            "max fee per gas less than block base fee: address \(sender.checksummed), maxFeePerGas: \(maxFee), "
                + "baseFee: \(baseFee)"
        case .estimationFailed(let gas, let error): "failed with \(gas) gas: \(error.description)"
        case .invalidFeeArguments(let text): text
        }
    }
}
