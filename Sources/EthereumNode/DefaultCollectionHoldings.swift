import EthereumTypes
import NativeContracts

/// The genesis holdings the node gives the dev accounts in a collection configured without any: ERC-721, the first
/// three dev accounts hold 3 tokens each (ids 1–3, 4–6, 7–9); ERC-1155, each of them holds 10 of id 1 and 5 of id 2,
/// and one of id 3 (even accounts) or id 4 (odd ones). An ERC-721 collection's royalty goes to dev account 0 unless
/// it names a receiver; a collection without an owner gets `owner` (the faucet: `safeMint`/`mint` are its).
public enum DefaultCollectionHoldings {
    /// Dev accounts that get items.
    public static let holders = 3

    /// `collections` with the defaults filled in where a collection has no holdings.
    public static func filled(_ collections: [NFTCollection], dev: [Address], owner: Address) -> [NFTCollection] {
        collections.map { collection in
            var collection = collection
            if collection.owner == .zero { collection.owner = owner }
            guard collection.holdings.isEmpty else { return collection }
            for (k, holder) in dev.prefix(holders).enumerated() {
                let k = UInt64(k)
                switch collection.standard {
                case .erc721:
                    for id in (3 * k + 1)...(3 * k + 3) {
                        collection.holdings.append(.init(holder: holder, id: UInt256(id)))
                    }
                case .erc1155:
                    collection.holdings.append(.init(holder: holder, id: UInt256(1), amount: UInt256(10)))
                    collection.holdings.append(.init(holder: holder, id: UInt256(2), amount: UInt256(5)))
                    collection.holdings.append(.init(holder: holder, id: UInt256(3 + k % 2), amount: UInt256(1)))
                }
            }
            if collection.standard == .erc721 && collection.royaltyReceiver == .zero
                && collection.royaltyBasisPoints > 0,
                let first = dev.first
            {
                collection.royaltyReceiver = first
            }
            return collection
        }
    }
}
