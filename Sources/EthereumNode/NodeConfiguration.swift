import EthereumLedger
import EthereumTypes
import NativeContracts

/// Everything `sandnet node` can be told (flag names follow Anvil's where they exist).
public struct NodeConfiguration: Sendable {
    public var chain = ChainConfig()
    /// Dev accounts come from this mnemonic at m/44'/60'/0'/0/i (Anvil's and Hardhat's default mnemonic).
    public var mnemonic = "test test test test test test test test test test test junk"
    public var accountCount = 10
    /// Balance of each dev account, in wei (10,000 ETH).
    public var accountBalance = UInt256(10_000 as UInt64) * UInt256(1_000_000_000_000_000_000 as UInt64)
    public var miningMode: MiningMode = .automatic
    /// With automine: a block every this many seconds when nothing else was mined (Hardhat's automine + interval),
    /// so clients waiting for confirmations see blocks keep coming. nil: none (the library's default).
    public var emptyBlockInterval: UInt64?
    /// Other users' traffic and its fee profile (`dev`, none, by default).
    public var ambient = AmbientConfiguration()
    /// Faucet payout per claim (1 ETH, as chainflag/eth-faucet).
    public var faucetAmount = UInt256(1_000_000_000_000_000_000 as UInt64)
    /// Faucet balance at genesis (1,000,000 ETH).
    public var faucetBalance = UInt256(1_000_000 as UInt64) * UInt256(1_000_000_000_000_000_000 as UInt64)
    /// Seconds between claims per address and per client IP; 0 disables the limit.
    public var faucetCooldown: UInt64 = 0
    /// Extra genesis allocations (from a genesis file).
    public var genesisAccounts: [GenesisAccount] = []
    /// Accept pre-EIP-155 (unprotected) legacy transactions over RPC (geth: --rpc.allow-unprotected-txs).
    public var allowUnprotectedTransactions = false
    /// Every address may send with eth_sendTransaction without its key, as if impersonated (Anvil's
    /// `--auto-impersonate`); changed at run time with anvil_autoImpersonateAccount.
    public var autoImpersonate = false
    /// Serve anvil_/evm_/hardhat_ methods (always on for loopback; the CLI asks for a flag otherwise).
    public var devMethodsEnabled = true
    /// Client version string for web3_clientVersion.
    public var clientVersion = "Sandnet/v0.1.0/swift"
    /// Most blocks one `anvil_mine`, `evm_mine` or `anvil_reorg` call may mine (Anvil and Hardhat: 100,000).
    public var maxBlocksPerRequest: UInt64 = 100_000
    /// Most polling filters installed at once (eth_newFilter, eth_newBlockFilter,
    /// eth_newPendingTransactionFilter); a filter expires 5 minutes after its last poll.
    public var filterLimit = 10_000
    /// Most addresses and topics all installed log filters hold together.
    public var filterCriteriaLimit = 1_000_000
    /// Most `evm_snapshot`s kept at once (each pins the chain state it was taken at).
    public var snapshotLimit = 1_000
    /// Whole tokens (10^decimals units) each dev account holds of every native token at genesis.
    public var devTokenBalance: UInt64 = 1_000_000
    /// Whole tokens the faucet holds of every native token at genesis (its reserve for token claims).
    public var faucetTokenReserve: UInt64 = 1_000_000_000
    /// Whole tokens one faucet claim of a token pays.
    public var faucetTokenAmount: UInt64 = 1_000

    /// The default chain has the native tokens (USDC, WETH, LINK, USDT) and Multicall3 at their Sepolia addresses, and
    /// the two default NFT collections (``NFTCollection/defaults``; the node fills their holdings).
    public init() {
        chain.nativeContracts = NativeContractRegistry.sepoliaDefaults.withDefaultCollections
    }
}
