import EthereumTypes

/// The per-block parameters developer methods change at run time (`anvil_setChainId`, `anvil_setBlockGasLimit`,
/// `anvil_setCoinbase`). They start as the ``ChainConfig``'s and are the ledger's state from then on: blocks sealed
/// after a change carry it, a snapshot captures them (`evm_revert` restores them), and a data directory keeps them.
public struct ChainParameters: Sendable, Equatable {
    /// The smallest block gas limit: one plain transfer (21,000 gas) must fit.
    public static let minimumGasLimit: UInt64 = 21_000
    /// The largest block gas limit: geth's `params.MaxGasLimit`, 2^63 − 1.
    public static let maximumGasLimit: UInt64 = 0x7fff_ffff_ffff_ffff
    /// The largest chain id: 4,503,599,627,370,476, MetaMask's `MAX_SAFE_CHAIN_ID` (a legacy transaction's
    /// v = 2 × id + 36 stays below 2^53, so JavaScript clients hold it exactly).
    public static let maximumChainID: UInt64 = 4_503_599_627_370_476

    /// EIP-155 chain id: `eth_chainId`, `net_version`, and what signed transactions must carry.
    public var chainID: UInt64
    /// Block gas limit of the blocks sealed from now on.
    public var gasLimit: UInt64
    /// Receives the priority fees of the blocks sealed from now on.
    public var coinbase: Address

    public init(chainID: UInt64, gasLimit: UInt64, coinbase: Address) {
        self.chainID = chainID
        self.gasLimit = gasLimit
        self.coinbase = coinbase
    }

    /// A block gas limit `anvil_setBlockGasLimit` may set.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` outside ``minimumGasLimit``…``maximumGasLimit``.
    static func checkGasLimit(_ gasLimit: UInt64) throws(LedgerError) {
        guard gasLimit >= minimumGasLimit, gasLimit <= maximumGasLimit else {
            throw .valueOutOfRange(
                "block gas limit \(gasLimit) is out of range: at least \(minimumGasLimit) (one transfer) and at "
                    + "most \(maximumGasLimit) (2^63-1)")
        }
    }

    /// A chain id `anvil_setChainId` may set.
    ///
    /// - Throws: ``LedgerError/valueOutOfRange(_:)`` for 0 or above ``maximumChainID``.
    static func checkChainID(_ chainID: UInt64) throws(LedgerError) {
        guard chainID >= 1, chainID <= maximumChainID else {
            throw .valueOutOfRange(
                "chain id \(chainID) is out of range: at least 1 and at most \(maximumChainID) "
                    + "(MetaMask's largest safe chain id)")
        }
    }
}

extension ChainConfig {
    /// The parameters a ledger may change at run time.
    public var parameters: ChainParameters {
        get { ChainParameters(chainID: chainID, gasLimit: gasLimit, coinbase: coinbase) }
        set {
            chainID = newValue.chainID
            gasLimit = newValue.gasLimit
            coinbase = newValue.coinbase
        }
    }
}
