import EthereumLedger
import EthereumTypes
import NativeContracts

/// The developer methods of the native NFT collections (`anvil_mintERC721`, `anvil_burnERC721`, `anvil_mintERC1155`,
/// `anvil_burnERC1155`): each is a real transaction, so indexers, explorers and receipts see the `Transfer` /
/// `TransferSingle` log. A mint is sent by the collection's owner (the node's faucet, whose key it holds); a burn by
/// the holder: signed with its dev key, or sent unsigned as an impersonated account's is.
public struct NFTDesk: Sendable {
    let node: SandnetNode

    /// The collection at `address`, or ``NodeError/unknownToken(_:)``.
    public func collection(_ address: Address) throws -> NFTCollection {
        guard let collection = node.parameters.nativeContracts.collection(at: address) else {
            throw NodeError.unknownToken(address.checksummed)
        }
        return collection
    }

    /// Mints `amount` of `id` (ERC-721: the token, amount ignored) to `to`; returns the transaction hash. A token that
    /// exists, a zero receiver or a receiver with code fails as the contract's `safeMint`/`mint` does.
    @discardableResult
    public func mint(_ address: Address, to: Address, id: UInt256, amount: UInt256 = UInt256(1)) throws -> [UInt8] {
        let collection = try collection(address)
        let request = TransactionRequest(
            from: collection.owner, to: address, data: collection.mintCalldata(to: to, id: id, amount: amount))
        return try send(request, from: collection.owner)
    }

    /// Burns `id` (ERC-721: whoever holds it) or `amount` of `id` held by `holder` (ERC-1155); returns the
    /// transaction hash.
    @discardableResult
    public func burn(_ address: Address, id: UInt256, holder: Address? = nil, amount: UInt256 = UInt256(1)) throws
        -> [UInt8]
    {
        let collection = try collection(address)
        let from: Address
        if collection.standard == .erc721 {
            let owner = try node.chain.call(
                TransactionRequest(to: address, data: NFTCollection.ownerOfCalldata(id)))
            from = Address(Array(owner.suffix(20))) ?? .zero
        } else {
            guard let holder else { throw NodeError.executionFailed("an ERC-1155 burn needs the holder") }
            from = holder
        }
        let request = TransactionRequest(
            from: from, to: address, data: collection.burnCalldata(holder: from, id: id, amount: amount))
        return try send(request, from: from)
    }

    func send(_ request: TransactionRequest, from: Address) throws -> [UInt8] {
        if node.accounts.holds(from) {
            return try node.submitter.sendFromKey(try node.accounts.key(for: from), from: from, request: request)
        }
        return try node.submitter.sendUnsigned(request, from: from)
    }
}

extension SandnetNode {
    /// The NFT collections' developer methods.
    public var nfts: NFTDesk { NFTDesk(node: self) }
}
