import EthereumLedger
import EthereumTypes

/// Everything `sandnet node` can be told (flag names follow Anvil's where they exist).
public struct NodeConfiguration: Sendable {
    public var chain = ChainConfig()
    /// Dev accounts come from this mnemonic at m/44'/60'/0'/0/i (Anvil's and Hardhat's default mnemonic).
    public var mnemonic = "test test test test test test test test test test test junk"
    public var accountCount = 10
    /// Balance of each dev account, in wei (10,000 ETH).
    public var accountBalance = UInt256(10_000 as UInt64) * UInt256(1_000_000_000_000_000_000 as UInt64)
    public var miningMode: MiningMode = .automatic
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
    /// Serve anvil_/evm_/hardhat_ methods (always on for loopback; the CLI asks for a flag otherwise).
    public var devMethodsEnabled = true
    /// Client version string for web3_clientVersion.
    public var clientVersion = "Sandnet/v0.1.0/swift"

    public init() {}
}
