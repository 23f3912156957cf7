import EthereumLedger
import EthereumNode
import EthereumTransactions
import JSONRPC

// Every domain error the Ethereum node throws, mapped to geth's JSON-RPC code and text in this one file. Anything
// else a method throws becomes -32603 and is logged by the dispatcher.

extension LedgerError: RPCErrorConvertible {
    /// geth answers every transaction and pool error with -32000 and its message; a failing data directory is
    /// the node's own fault (-32603).
    public var rpcError: RPCError {
        switch self {
        case .unknownSnapshot, .invalidReorgDepth, .timestampNotAfterHead, .valueOutOfRange:
            return .invalidParams(message)
        case .storageFailure, .corruptDataDirectory, .dataDirectoryChainMismatch, .unsupportedDataVersion:
            return .internalError(message)
        default: return .server(message)
        }
    }
}

extension NodeError: RPCErrorConvertible {
    public var rpcError: RPCError {
        switch self {
        // geth's server errors (-32000).
        case .headerNotFound, .unknownBlock, .unknownAccount, .filterNotFound, .unprotectedTransaction, .feeCapOverflow,
            .insufficientFundsForTransfer, .gasRequiredExceedsAllowance, .tooManyFilterCriteriaPerPosition,
            .historicalStateUnavailable, .insufficientFunds, .callTipAboveFeeCap, .callFeeCapTooLow, .estimationFailed,
            .invalidFeeArguments:
            return .server(description)
        // Bad arguments (-32602).
        case .invalidBlockRange, .blockRangeBeyondHead, .invalidRewardPercentile, .tooManyBlocks, .reorgTooDeep,
            .tooManyStorageKeys:
            return .invalidParams(description)
        case .invalidTypedData(let text): return .invalidParams("invalid argument 1: \(text)")
        case .invalidStateDump(let text): return .invalidParams("invalid argument 0: \(text)")
        // geth's revertError (`internal/ethapi`): code 3, the text, the revert data as hex.
        case .executionReverted(let message, let data):
            return RPCError(code: 3, message: message, data: Format.data(data))
        case .executionFailed(let text): return .server(text)
        case .unknownToken: return .invalidParams(description)
        // Limits, as providers answer them (-32005, "limit exceeded").
        case .blockRangeTooLarge, .tooManyFilters, .tooManyFilterCriteria, .tooManySnapshots,
            .tooManyImpersonatedAccounts:
            return RPCError(code: -32005, message: description)
        }
    }
}

extension SimulationError: RPCErrorConvertible {
    /// eth_simulateV1's transaction errors: geth's texts with the execution-apis codes (-38010 … -38025).
    public var rpcError: RPCError { RPCError(code: code, message: description) }
}

extension SimulationInputError: RPCErrorConvertible {
    /// eth_simulateV1's request errors: -32602, -38020/-38021 (order), -38026 (client limits).
    public var rpcError: RPCError { RPCError(code: code, message: description) }
}

extension FaucetError: RPCErrorConvertible {
    /// A cooldown is a rate limit (-32005); a dry faucet or failed transfer a server error.
    public var rpcError: RPCError {
        if case .cooldown = self { return RPCError(code: -32005, message: message) }
        return .server(message)
    }
}

extension TransactionDecodingError: RPCErrorConvertible {
    public var rpcError: RPCError { .server(message) }
}

extension TransactionValidationError: RPCErrorConvertible {
    public var rpcError: RPCError { .server(message) }
}
