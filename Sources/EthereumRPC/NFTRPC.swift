import EthereumNode
import JSONCoding
import JSONRPC

/// The native NFT collections' developer methods, Anvil-style names (Anvil and Hardhat have no NFT equivalents):
/// each sends a real transaction (README, "NFTs") and answers its hash.
enum NFTRPC {
    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        // anvil_mintERC721(collection, to, tokenId)
        d.register(["anvil_mintERC721"]) { p in
            try p.atMost(3)
            let collection = try p.required(0, Arg.address)
            let hash = try node.nfts.mint(
                collection, to: try p.required(1, Arg.address), id: try p.required(2, Arg.uint256))
            return Format.data(hash)
        }
        // anvil_burnERC721(collection, tokenId): sent by the token's holder.
        d.register(["anvil_burnERC721"]) { p in
            try p.atMost(2)
            let collection = try p.required(0, Arg.address)
            return Format.data(try node.nfts.burn(collection, id: try p.required(1, Arg.uint256)))
        }
        // anvil_mintERC1155(collection, to, id, amount)
        d.register(["anvil_mintERC1155"]) { p in
            try p.atMost(4)
            let collection = try p.required(0, Arg.address)
            let hash = try node.nfts.mint(
                collection, to: try p.required(1, Arg.address), id: try p.required(2, Arg.uint256),
                amount: try p.required(3, Arg.uint256))
            return Format.data(hash)
        }
        // anvil_burnERC1155(collection, holder, id, amount)
        d.register(["anvil_burnERC1155"]) { p in
            try p.atMost(4)
            let collection = try p.required(0, Arg.address)
            let hash = try node.nfts.burn(
                collection, id: try p.required(2, Arg.uint256), holder: try p.required(1, Arg.address),
                amount: try p.required(3, Arg.uint256))
            return Format.data(hash)
        }
    }
}
