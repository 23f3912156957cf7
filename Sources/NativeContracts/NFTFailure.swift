import ABICoding
import EthereumTypes

/// The revert data of an NFT failure: OpenZeppelin 5's custom errors (`draft-IERC6093.sol` `IERC721Errors` and
/// `IERC1155Errors`, `ERC721Enumerable`'s `ERC721OutOfBoundsIndex`); arithmetic overflow is `Panic(0x11)`.
enum NFTFailure: Equatable {
    case invalidOwner(Address)
    case nonexistentToken(UInt256)
    case incorrectOwner(sender: Address, id: UInt256, owner: Address)
    case invalidSender721(Address)
    case invalidReceiver721(Address)
    case insufficientApproval(operator: Address, id: UInt256)
    case invalidApprover721(Address)
    case invalidOperator721(Address)
    case outOfBoundsIndex(owner: Address, index: UInt256)
    case insufficientBalance(sender: Address, balance: UInt256, needed: UInt256, id: UInt256)
    case invalidSender1155(Address)
    case invalidReceiver1155(Address)
    case missingApprovalForAll(operator: Address, owner: Address)
    case invalidOperator1155(Address)
    case invalidArrayLength(ids: UInt256, values: UInt256)
    case overflow
    /// OpenZeppelin's `Ownable`: a caller other than the owner.
    case unauthorizedAccount(Address)

    var revertData: [UInt8] {
        switch self {
        case .invalidOwner(let a): return ABI.selector("ERC721InvalidOwner(address)") + ABI.word(a)
        case .nonexistentToken(let id): return ABI.selector("ERC721NonexistentToken(uint256)") + ABI.word(id)
        case .incorrectOwner(let sender, let id, let owner):
            return ABI.selector("ERC721IncorrectOwner(address,uint256,address)") + ABI.word(sender) + ABI.word(id)
                + ABI.word(owner)
        case .invalidSender721(let a): return ABI.selector("ERC721InvalidSender(address)") + ABI.word(a)
        case .invalidReceiver721(let a): return ABI.selector("ERC721InvalidReceiver(address)") + ABI.word(a)
        case .insufficientApproval(let op, let id):
            return ABI.selector("ERC721InsufficientApproval(address,uint256)") + ABI.word(op) + ABI.word(id)
        case .invalidApprover721(let a): return ABI.selector("ERC721InvalidApprover(address)") + ABI.word(a)
        case .invalidOperator721(let a): return ABI.selector("ERC721InvalidOperator(address)") + ABI.word(a)
        case .outOfBoundsIndex(let owner, let index):
            return ABI.selector("ERC721OutOfBoundsIndex(address,uint256)") + ABI.word(owner) + ABI.word(index)
        case .insufficientBalance(let sender, let balance, let needed, let id):
            return ABI.selector("ERC1155InsufficientBalance(address,uint256,uint256,uint256)") + ABI.word(sender)
                + ABI.word(balance) + ABI.word(needed) + ABI.word(id)
        case .invalidSender1155(let a): return ABI.selector("ERC1155InvalidSender(address)") + ABI.word(a)
        case .invalidReceiver1155(let a): return ABI.selector("ERC1155InvalidReceiver(address)") + ABI.word(a)
        case .missingApprovalForAll(let op, let owner):
            return ABI.selector("ERC1155MissingApprovalForAll(address,address)") + ABI.word(op) + ABI.word(owner)
        case .invalidOperator1155(let a): return ABI.selector("ERC1155InvalidOperator(address)") + ABI.word(a)
        case .invalidArrayLength(let ids, let values):
            return ABI.selector("ERC1155InvalidArrayLength(uint256,uint256)") + ABI.word(ids) + ABI.word(values)
        case .overflow: return ABI.panic(0x11)
        case .unauthorizedAccount(let a): return ABI.selector("OwnableUnauthorizedAccount(address)") + ABI.word(a)
        }
    }

    var halt: Halt { .revert(revertData) }
}
