import EthereumTypes
import NativeContracts

/// The parameters of a simulated chain. Defaults follow Sepolia today (go-ethereum `params/config.go`
/// SepoliaChainConfig; 60M gas limit since 2025) with Prague/Osaka rules for value transfers.
public struct ChainConfig: Sendable, Equatable {
    /// EIP-155 chain id (Sepolia: 11155111).
    public var chainID: UInt64 = 11_155_111
    /// Block gas limit.
    public var gasLimit: UInt64 = 60_000_000
    /// Base fee of the genesis block (1 gwei, geth's genesis default).
    public var genesisBaseFee: UInt256 = UInt256(1_000_000_000 as UInt64)
    /// Unix time of the genesis block.
    public var genesisTimestamp: UInt64 = 1_700_000_000
    /// Receives priority fees.
    public var coinbase: Address = .zero
    /// EIP-7825 (Osaka) per-transaction gas cap; nil disables it.
    public var transactionGasCap: UInt64? = 1 << 24
    /// Header extraData (at most 32 bytes).
    public var extraData: [UInt8] = Array("sandnet".utf8)
    /// Pending transactions kept per sender and in all before eviction (geth: 16 queued per account by
    /// default, 4096 + 1024 slots in all).
    public var poolLimitPerSender = 64
    public var poolLimitTotal = 5_120
    /// Largest transaction the pool admits, counting its encoded size (geth's `txMaxSize`, 4 × 32 KiB).
    public var maxTransactionSize = 131_072
    /// Σ encoded sizes the pool keeps before evicting the cheapest transaction (16 MiB), so that the pool, and
    /// `txpool_content` with it, stays bounded even when every slot holds a maximum-size transaction.
    public var poolByteLimit = 16 << 20
    /// Longest init code a creation may carry (EIP-3860, Shanghai: 2 × 24,576 bytes).
    public var maxInitCodeSize = 49_152
    /// Minimum percentage bump of both fee fields for a replacement (geth: 10).
    public var replacementBumpPercent: UInt64 = 10
    /// Pool minimum priority fee (geth `--txpool.pricelimit`, 1 wei by default).
    public var minimumTip: UInt256 = UInt256(1)
    /// When true the base fee never changes (Anvil's `--base-fee 0` behaviour generalised).
    public var fixedBaseFee = false
    /// Native contracts (ERC-20 tokens, Multicall3) placed at genesis and executed without an EVM. None by
    /// default; the node's configuration adds ``NativeContractRegistry/sepoliaDefaults``.
    public var nativeContracts = NativeContractRegistry()

    public init() {}
}

/// An explicit genesis allocation.
public struct GenesisAccount: Sendable, Equatable {
    public var address: Address
    public var balance: UInt256
    public var nonce: UInt64
    public var code: [UInt8]

    public init(address: Address, balance: UInt256, nonce: UInt64 = 0, code: [UInt8] = []) {
        self.address = address
        self.balance = balance
        self.nonce = nonce
        self.code = code
    }
}
