import EthereumTypes

/// The native contracts of a chain: its tokens, its NFT collections and, optionally, Multicall3. Part of the chain configuration, so
/// that genesis, every node of the chain and every replay agree.
public struct NativeContractRegistry: Sendable, Equatable {
    /// What runs at an address.
    public enum Contract: Sendable, Equatable {
        case token(TokenDefinition)
        case multicall3
        case collection(NFTCollection)
    }

    public private(set) var tokens: [TokenDefinition]
    /// The NFT collections (ERC-721, ERC-1155); ``adding(_:)`` checks a new one.
    public private(set) var collections: [NFTCollection] = []
    public var multicall3: Bool
    private var byAddress: [Address: Int]

    /// Multicall3's address on every chain.
    public static let multicall3Address = Multicall3.address

    /// - Precondition: token addresses are distinct and not Multicall3's (the node checks user input first with
    ///   ``validate(_:)``).
    public init(tokens: [TokenDefinition] = [], multicall3: Bool = false) {
        precondition(Self.validate(tokens) == nil, "tokens must be validated first")
        self.tokens = tokens
        self.multicall3 = multicall3
        byAddress = Dictionary(uniqueKeysWithValues: tokens.enumerated().map { ($1.address, $0) })
    }

    /// The default set: USDC, WETH, LINK and USDT at their addresses, and Multicall3.
    public static let sepoliaDefaults = NativeContractRegistry(
        tokens: TokenDefinition.sepoliaDefaults, multicall3: true)

    /// Why `tokens` cannot form a registry (a repeated address or symbol, Multicall3's address, an empty or too
    /// long name or symbol, more than 77 decimals), or nil.
    public static func validate(_ tokens: [TokenDefinition]) -> String? {
        var addresses = Set<Address>()
        var symbols = Set<String>()
        for token in tokens {
            if token.address == Multicall3.address { return "token \(token.symbol) may not use Multicall3's address" }
            if token.address == .zero { return "token \(token.symbol) may not use the zero address" }
            if !addresses.insert(token.address).inserted { return "two tokens at \(token.address.checksummed)" }
            if !symbols.insert(token.symbol.uppercased()).inserted { return "two tokens with symbol \(token.symbol)" }
            if token.symbol.isEmpty || token.symbol.utf8.count > 32 {
                return "token symbol \"\(token.symbol)\" must have 1 to 32 bytes"
            }
            if token.name.isEmpty || token.name.utf8.count > 64 {
                return "token name \"\(token.name)\" must have 1 to 64 bytes"
            }
            if token.decimals > 77 {
                return "token \(token.symbol) has \(token.decimals) decimals; at most 77 fit in uint256"
            }
            var supply = UInt256.zero
            for holding in token.holders {
                let (sum, overflow) = supply.addingReportingOverflow(holding.amount)
                if overflow { return "token \(token.symbol): genesis holdings exceed 2^256-1" }
                supply = sum
            }
        }
        return nil
    }

    /// The registry with `collections` added, or why they cannot join it (an address taken by a token, another
    /// collection or Multicall3, a repeated symbol, a name, symbol or holding the collection cannot hold).
    public func adding(_ collections: [NFTCollection]) -> Result<NativeContractRegistry, RegistryError> {
        var registry = self
        for collection in collections {
            if let problem = collection.problem { return .failure(RegistryError(message: problem)) }
            let taken =
                registry.contract(at: collection.address) != nil
                || (collection.address == Multicall3.address)
            if taken { return .failure(RegistryError(message: "two contracts at \(collection.address.checksummed)")) }
            if registry.collections.contains(where: { $0.symbol.uppercased() == collection.symbol.uppercased() }) {
                return .failure(RegistryError(message: "two collections with symbol \(collection.symbol)"))
            }
            registry.collections.append(collection)
        }
        return .success(registry)
    }

    /// Why a registry cannot be formed.
    public struct RegistryError: Error, Sendable, Equatable {
        public var message: String
    }

    /// The registry with ``NFTCollection/defaults`` added (they cannot clash with the default tokens).
    public var withDefaultCollections: NativeContractRegistry {
        switch adding(NFTCollection.defaults) {
        case .success(let registry): return registry
        case .failure(let error): preconditionFailure("default collections: \(error.message)")
        }
    }

    /// A collection by address.
    public func collection(at address: Address) -> NFTCollection? { collections.first { $0.address == address } }

    /// A collection by symbol (case-insensitive) or by address text.
    public func collection(named text: String) -> NFTCollection? {
        if let address = try? Address(parsing: text) { return collection(at: address) }
        return collections.first { $0.symbol.uppercased() == text.uppercased() }
    }

    /// Removes the collection at `address` (nothing when there is none).
    public mutating func remove(_ address: Address) { collections.removeAll { $0.address == address } }

    /// Replaces the collection at `collection.address` (the dev methods' mint and burn keep holdings in state, not
    /// here; this changes what the collection is: its style, its metadata base).
    public mutating func replace(_ collection: NFTCollection) {
        if let i = collections.firstIndex(where: { $0.address == collection.address }) { collections[i] = collection }
    }

    public func contract(at address: Address) -> Contract? {
        if let index = byAddress[address] { return .token(tokens[index]) }
        if let collection = collection(at: address) { return .collection(collection) }
        if multicall3 && address == Multicall3.address { return .multicall3 }
        return nil
    }

    public func token(at address: Address) -> TokenDefinition? { byAddress[address].map { tokens[$0] } }

    /// A token by symbol (case-insensitive) or by address text.
    public func token(named text: String) -> TokenDefinition? {
        if let address = try? Address(parsing: text) { return token(at: address) }
        return tokens.first { $0.symbol.uppercased() == text.uppercased() }
    }

    /// The code `eth_getCode` answers at `address`, or nil when nothing native lives there.
    public func code(at address: Address) -> [UInt8]? {
        switch contract(at: address) {
        case .token(let token): return token.profile.codeMarker
        case .multicall3: return NativeCode.marker("MULTICALL3")
        case .collection(let collection): return collection.codeMarker
        case nil: return nil
        }
    }

    /// Executes `call` over `state` in `environment`: a pure function of its arguments.
    ///
    /// - Parameter prewarmed: an EIP-2930 access list: these accounts and storage words start warm (EIP-2929).
    public func execute(
        _ call: NativeCall, state: any ContractStateReading, environment: BlockEnvironment,
        prewarmed: [(address: Address, slots: [UInt256])] = []
    ) -> ExecutionResult {
        var machine = NativeMachine(state: state, environment: environment, registry: self, origin: call.caller)
        machine.journal.warmAccounts.insert(call.target)
        for entry in prewarmed {
            machine.journal.warmAccounts.insert(entry.address)
            for slot in entry.slots { machine.journal.warmSlots.insert(SlotKey(address: entry.address, slot: slot)) }
        }
        let frame = machine.run(call)
        return machine.result(frame)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.tokens == b.tokens && a.multicall3 == b.multicall3 && a.collections == b.collections
    }
}
