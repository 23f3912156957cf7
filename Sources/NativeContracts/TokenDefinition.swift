import EthereumTypes

/// A native ERC-20 token in the chain configuration: where it lives, what it says it is, how it behaves and who
/// holds it at genesis.
public struct TokenDefinition: Sendable, Equatable {
    /// A genesis balance.
    public struct Holding: Sendable, Equatable {
        public var holder: Address
        public var amount: UInt256

        public init(holder: Address, amount: UInt256) {
            self.holder = holder
            self.amount = amount
        }
    }

    public var address: Address
    public var name: String
    public var symbol: String
    public var decimals: UInt8
    public var profile: TokenProfile
    public var holders: [Holding]

    public init(
        address: Address, name: String, symbol: String, decimals: UInt8, profile: TokenProfile,
        holders: [Holding] = []
    ) {
        self.address = address
        self.name = name
        self.symbol = symbol
        self.decimals = decimals
        self.profile = profile
        self.holders = holders
    }

    /// The genesis storage: every holder's balance and the total supply (WETH9 keeps none: its supply is its
    /// ETH balance, which genesis must give it).
    public var genesisStorage: [UInt256: UInt256] {
        var storage: [UInt256: UInt256] = [:]
        var supply = UInt256.zero
        let layout = profile.layout
        for holding in holders where !holding.amount.isZero {
            let slot = layout.balanceSlot(holding.holder)
            storage[slot] = (storage[slot] ?? .zero) + holding.amount
            supply = supply + holding.amount
        }
        if let slot = layout.totalSupply, !supply.isZero { storage[slot] = supply }
        return storage
    }

    /// Σ genesis holdings.
    public var genesisSupply: UInt256 { holders.reduce(UInt256.zero) { $0 + $1.amount } }

    // MARK: - The defaults, at the addresses wallets already know on Sepolia

    /// Circle's USDC on Sepolia (faucet.circle.com): FiatToken v2.2, 6 decimals, EIP-2612 permit.
    public static let usdc = TokenDefinition(
        address: address("1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"), name: "USDC", symbol: "USDC", decimals: 6,
        profile: .fiatToken)
    /// WETH9 on Sepolia (the address Uniswap's and Across's configurations use).
    public static let weth = TokenDefinition(
        address: address("fFf9976782d46CC05630D1f6eBAb18b2324d6B14"), name: "Wrapped Ether", symbol: "WETH",
        decimals: 18, profile: .weth9)
    /// Chainlink's LINK on Sepolia (docs.chain.link, CCIP directory, Ethereum Sepolia fee tokens).
    public static let link = TokenDefinition(
        address: address("779877A7B0D9E8603169DdbD7836e478b4624789"), name: "ChainLink Token", symbol: "LINK",
        decimals: 18, profile: .openZeppelin4)
    /// A token with USDT's quirks at an address of Sandnet's own (Tether has no Sepolia deployment).
    public static let usdt = TokenDefinition(
        address: address("7e57000000000000000000000000000000005d70"), name: "Tether USD", symbol: "USDT", decimals: 6,
        profile: .tether)

    /// USDC, WETH, LINK and USDT, without holders.
    public static let sepoliaDefaults: [TokenDefinition] = [usdc, weth, link, usdt]

    private static func address(_ hex: String) -> Address {
        guard let address = try? Address(parsing: "0x" + hex) else { preconditionFailure("bad constant \(hex)") }
        return address
    }
}
