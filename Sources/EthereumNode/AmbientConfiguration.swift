import AmbientTraffic
import EthereumTypes
import NativeContracts

/// Other users on the chain (README, "A chain that lives"): which fee profile they follow and how blocks keep
/// coming while automine is on.
public struct AmbientConfiguration: Sendable, Equatable {
    /// `dev`: nobody else sends (the library's default, so tests and in-process scenarios stay still).
    public var profile: FeeProfile = .dev
    /// Seed of the traffic (the same seed and profile replay the same transactions block by block).
    public var seed: UInt64 = 0
    /// Simulated users, each with an account of its own (m/44'/60'/0'/0/2000000+i of the mnemonic).
    public var users = 64
    /// A user's balance is topped up to this (1,000 ETH) before it sends, when it runs low.
    public var userBalance = UInt256(1_000 as UInt64) * UInt256(1_000_000_000_000_000_000 as UInt64)

    /// Tokens the users send in their token-like transactions (USDC, LINK and the USDT-quirks token); those the
    /// chain has no native token at are left out, and with none left those transactions stay plain transfers.
    public var tokens: [Address] = [
        TokenDefinition.usdc.address, TokenDefinition.link.address, TokenDefinition.usdt.address,
    ]
    /// A user's balance of each token is topped up to this many whole tokens before it sends, when it runs low.
    public var userTokens: UInt64 = 1_000_000
    /// Gas limit of a token transfer: enough for every default token's transfer to a fresh holder (USDT's, the
    /// dearest, uses 63,209).
    public static let tokenTransferGasLimit: UInt64 = 65_000

    public init() {}
}
