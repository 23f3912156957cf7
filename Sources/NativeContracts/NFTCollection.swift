import ABICoding
import EthereumTypes
import KeccakHashing

/// A native NFT collection in the chain configuration: where it lives, its standard (ERC-721 with Metadata,
/// Enumerable, ERC-2981 and ERC-4906, or ERC-1155 with MetadataURI), how its metadata is served and who holds what at
/// genesis. Its state is kept at the storage words OpenZeppelin 5 uses (``NFTStorage``), so `eth_getStorageAt`,
/// proofs and state roots show it as they would a deployed contract.
public struct NFTCollection: Sendable, Equatable {
    public enum Standard: String, Sendable, Equatable, CaseIterable {
        case erc721
        case erc1155
    }

    /// How `tokenURI`/`uri` point at the metadata, and the broken cases a wallet must survive.
    public enum MetadataStyle: String, Sendable, Equatable, CaseIterable {
        /// `http://127.0.0.1:PORT/nft/<collection>/<id>.json`, served by the node (ERC-1155: the `{id}` template).
        case http
        /// On-chain style: `data:application/json;base64,…` with the image as a `data:image/svg+xml;base64,…` URI.
        case data
        /// The URI is `http` style but the node answers 404 for it (an indexer with no metadata).
        case missing
        /// The metadata is served at once; its image only after ``NFTMetadata/slowImageDelay`` seconds.
        case slowImage = "slow-image"
        /// `ipfs://<cid>/<id>.json` (image `ipfs://<cid>/<id>.svg`); the node serves the same files under its local
        /// gateway path `/ipfs/<cid>/…`, which a wallet may be configured to use.
        case ipfs
    }

    /// A genesis holding: an ERC-721 token (amount 1) or an ERC-1155 balance.
    public struct Holding: Sendable, Equatable {
        public var holder: Address
        public var id: UInt256
        public var amount: UInt256

        public init(holder: Address, id: UInt256, amount: UInt256 = UInt256(1)) {
            self.holder = holder
            self.id = id
            self.amount = amount
        }
    }

    public var address: Address
    public var name: String
    public var symbol: String
    public var standard: Standard
    public var style: MetadataStyle
    /// Where the node serves metadata and images, without a trailing slash (`http://127.0.0.1:8545`); the node sets
    /// it from its address, so it is part of the chain configuration.
    public var metadataBase: String
    /// ERC-2981 default royalty (ERC-721 only): receiver and fee in basis points (OpenZeppelin's denominator 10,000).
    public var royaltyReceiver: Address
    public var royaltyBasisPoints: UInt16
    public var holdings: [Holding]
    /// `owner()` (OpenZeppelin's `Ownable`): the only caller of `safeMint`/`mint`; the node makes it its faucet.
    public var owner: Address

    public init(
        address: Address, name: String, symbol: String, standard: Standard, style: MetadataStyle = .http,
        metadataBase: String = "http://127.0.0.1:8545", royaltyReceiver: Address = .zero,
        royaltyBasisPoints: UInt16 = 0, holdings: [Holding] = [], owner: Address = .zero
    ) {
        self.owner = owner
        self.address = address
        self.name = name
        self.symbol = symbol
        self.standard = standard
        self.style = style
        self.metadataBase = metadataBase
        self.royaltyReceiver = royaltyReceiver
        self.royaltyBasisPoints = royaltyBasisPoints
        self.holdings = holdings
    }

    /// The owner's mint call: `safeMint(to, id)` (ERC-721) or `mint(to, id, amount, "")` (ERC-1155).
    public func mintCalldata(to: Address, id: UInt256, amount: UInt256) -> [UInt8] {
        switch standard {
        case .erc721: return ERC721Contract.safeMint.selector + ABI.word(to) + ABI.word(id)
        case .erc1155:
            return ERC1155Contract.mint.selector + ABI.word(to) + ABI.word(id) + ABI.word(amount)
                + ABI.word(UInt64(128))
                + ABI.word(UInt64(0))
        }
    }

    /// The holder's burn call: `burn(id)` (ERC-721 `ERC721Burnable`) or `burn(holder, id, amount)` (ERC-1155).
    public func burnCalldata(holder: Address, id: UInt256, amount: UInt256) -> [UInt8] {
        switch standard {
        case .erc721: return ERC721Contract.burn.selector + ABI.word(id)
        case .erc1155: return ERC1155Contract.burn.selector + ABI.word(holder) + ABI.word(id) + ABI.word(amount)
        }
    }

    /// `ownerOf(id)` calldata (ERC-721).
    public static func ownerOfCalldata(_ id: UInt256) -> [UInt8] { ERC721Contract.ownerOf.selector + ABI.word(id) }

    /// The code `eth_getCode` answers (``NativeCode``): `sandnet:native:ERC721` or `sandnet:native:ERC1155`.
    public var codeMarker: [UInt8] { NativeCode.marker(standard == .erc721 ? "ERC721" : "ERC1155") }

    /// Why the collection cannot be part of a chain (a name, symbol or holding it cannot hold), or nil.
    public var problem: String? {
        if address == .zero { return "collection \(symbol) may not use the zero address" }
        if symbol.isEmpty || symbol.utf8.count > 31 { return "collection symbol \"\(symbol)\" must have 1 to 31 bytes" }
        if name.isEmpty || name.utf8.count > 31 { return "collection name \"\(name)\" must have 1 to 31 bytes" }
        if royaltyBasisPoints > 10_000 { return "collection \(symbol): royalty above 10000 basis points" }
        if standard == .erc721 {
            var ids = Set<UInt256>()
            for holding in holdings {
                if holding.holder == .zero {
                    return "collection \(symbol): token \(holding.id) held by the zero address"
                }
                if holding.amount != UInt256(1) { return "collection \(symbol): an ERC-721 holding has amount 1" }
                if !ids.insert(holding.id).inserted { return "collection \(symbol): token \(holding.id) held twice" }
            }
        } else {
            var totals: [NFTStorage.Key: UInt256] = [:]
            for holding in holdings {
                if holding.holder == .zero { return "collection \(symbol): a balance of the zero address" }
                let key = NFTStorage.Key(holder: holding.holder, id: holding.id)
                let (sum, overflow) = (totals[key] ?? .zero).addingReportingOverflow(holding.amount)
                if overflow { return "collection \(symbol): holdings of token \(holding.id) exceed 2^256-1" }
                totals[key] = sum
            }
        }
        return nil
    }

    /// The genesis storage at OpenZeppelin 5's words (see ``NFTStorage``).
    public var genesisStorage: [UInt256: UInt256] {
        var storage: [UInt256: UInt256] = [:]
        storage[NFTStorage.nameSlot(standard)] = NFTStorage.shortString(name)
        if standard == .erc721 {
            storage[NFTStorage.symbolSlot] = NFTStorage.shortString(symbol)
            var counts: [Address: UInt64] = [:]
            for (index, holding) in holdings.enumerated() {
                let owned = counts[holding.holder] ?? 0
                counts[holding.holder] = owned + 1
                storage[NFTStorage.ownerSlot(holding.id)] = UInt256(word: holding.holder)
                storage[NFTStorage.ownedTokenSlot(holding.holder, index: UInt256(owned))] = holding.id
                storage[NFTStorage.ownedTokenIndexSlot(holding.id)] = UInt256(owned)
                storage[NFTStorage.allTokenSlot(index: UInt256(UInt64(index)))] = holding.id
                storage[NFTStorage.allTokenIndexSlot(holding.id)] = UInt256(UInt64(index))
            }
            for (holder, count) in counts { storage[NFTStorage.balance721Slot(holder)] = UInt256(count) }
            if !holdings.isEmpty { storage[NFTStorage.allTokensLengthSlot] = UInt256(UInt64(holdings.count)) }
            if royaltyReceiver != .zero || royaltyBasisPoints != 0 {
                storage[NFTStorage.defaultRoyaltySlot] =
                    UInt256(word: royaltyReceiver) + (UInt256(UInt64(royaltyBasisPoints)) << 160)
            }
        } else {
            for holding in holdings {
                let slot = NFTStorage.balance1155Slot(holding.holder, id: holding.id)
                storage[slot] = (storage[slot] ?? .zero) + holding.amount
            }
        }
        return storage.filter { !$0.value.isZero }
    }

    // MARK: - The defaults

    /// "Sandnet Shapes" (SHAPE): an ERC-721 collection at an address of Sandnet's own, 5 % royalty to the first
    /// dev account (the node fills holders and receiver).
    public static let shapes = NFTCollection(
        address: address("5a4d000000000000000000000000000000000721"), name: "Sandnet Shapes", symbol: "SHAPE",
        standard: .erc721, royaltyBasisPoints: 500)
    /// "Sandnet Items" (ITEM): an ERC-1155 collection of game-style items.
    public static let items = NFTCollection(
        address: address("5a4d000000000000000000000000000000001155"), name: "Sandnet Items", symbol: "ITEM",
        standard: .erc1155)

    /// Shapes (ERC-721) and Items (ERC-1155).
    public static let defaults = [shapes, items]

    static func address(_ hex: String) -> Address {
        guard let address = try? Address(parsing: "0x" + hex) else { preconditionFailure("bad constant \(hex)") }
        return address
    }
}

/// OpenZeppelin 5's storage words for `contract C is ERC721Enumerable, ERC2981` and `contract C is ERC1155`
/// (Solidity's layout: a mapping entry at keccak256(pad32(key) ‖ pad32(slot)), a dynamic array's element i at
/// keccak256(pad32(slot)) + i, a short string inline with 2 × length in its last byte).
///
/// ERC-721: `_name` 0, `_symbol` 1, `_owners` 2, `_balances` 3, `_tokenApprovals` 4, `_operatorApprovals` 5,
/// `_ownedTokens` 6, `_ownedTokensIndex` 7, `_allTokens` 8, `_allTokensIndex` 9, `_defaultRoyaltyInfo` 10.
/// ERC-1155: `_balances` 0 (id → account → amount), `_operatorApprovals` 1, `_uri` 2 (Sandnet keeps the
/// collection's name there, as the URI is the node's).
public enum NFTStorage {
    struct Key: Hashable {
        var holder: Address
        var id: UInt256
    }

    public static func nameSlot(_ standard: NFTCollection.Standard) -> UInt256 {
        standard == .erc721 ? .zero : UInt256(2)
    }
    public static let symbolSlot = UInt256(1)
    public static func ownerSlot(_ id: UInt256) -> UInt256 { uintMapping(id, UInt256(2)) }
    public static func balance721Slot(_ holder: Address) -> UInt256 {
        SolidityStorage.mappingSlot(holder, UInt256(3))
    }
    public static func approvalSlot(_ id: UInt256) -> UInt256 { uintMapping(id, UInt256(4)) }
    public static func operatorSlot(_ standard: NFTCollection.Standard, owner: Address, operator: Address) -> UInt256 {
        let base = standard == .erc721 ? UInt256(5) : UInt256(1)
        return SolidityStorage.mappingSlot(`operator`, SolidityStorage.mappingSlot(owner, base))
    }
    public static func ownedTokenSlot(_ holder: Address, index: UInt256) -> UInt256 {
        uintMapping(index, SolidityStorage.mappingSlot(holder, UInt256(6)))
    }
    public static func ownedTokenIndexSlot(_ id: UInt256) -> UInt256 { uintMapping(id, UInt256(7)) }
    public static let allTokensLengthSlot = UInt256(8)
    public static func allTokenSlot(index: UInt256) -> UInt256 {
        UInt256(bigEndian: Keccak256.hash(UInt256(8).bigEndianBytes))!.addingReportingOverflow(index).partialValue
    }
    public static func allTokenIndexSlot(_ id: UInt256) -> UInt256 { uintMapping(id, UInt256(9)) }
    public static let defaultRoyaltySlot = UInt256(10)
    public static func balance1155Slot(_ holder: Address, id: UInt256) -> UInt256 {
        SolidityStorage.mappingSlot(holder, uintMapping(id, .zero))
    }

    /// `mapping(uint256 => …)` at `slot`.
    static func uintMapping(_ key: UInt256, _ slot: UInt256) -> UInt256 {
        UInt256(bigEndian: Keccak256.hash(key.bigEndianBytes + slot.bigEndianBytes))!
    }

    /// A string of at most 31 bytes as Solidity stores it in one word: the bytes left-aligned, 2 × length last.
    static func shortString(_ text: String) -> UInt256 {
        var word = [UInt8](repeating: 0, count: 32)
        let bytes = Array(text.utf8.prefix(31))
        word.replaceSubrange(0..<bytes.count, with: bytes)
        word[31] = UInt8(bytes.count * 2)
        return UInt256(bigEndian: word)!
    }
}

extension UInt256 {
    /// An address as a storage word (right-aligned).
    init(word address: Address) { self = UInt256(bigEndian: ABI.word(address))! }

    /// The address in the low 20 bytes of a storage word.
    var lowAddress: Address { Address(Array(bigEndianBytes[12..<32]))! }
}
