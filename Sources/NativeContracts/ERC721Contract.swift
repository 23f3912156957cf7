import ABICoding
import EthereumTypes
import KeccakHashing

/// A native ERC-721 collection (EIP-721 with Metadata and Enumerable, ERC-2981 royalties, ERC-4906's interface) as
/// OpenZeppelin 5's `ERC721Enumerable` + `ERC2981` behaves: its checks in their order, its custom errors, its events
/// (`Transfer` and `Approval` with the token id as `topics[3]`), its storage words (``NFTStorage``).
///
/// Receivers: `safeTransferFrom` to an account without code succeeds; to an account with code (a native contract, a
/// contract from genesis or `anvil_setCode`, an EIP-7702-delegated account) it reverts with
/// `ERC721InvalidReceiver(to)`: Sandnet runs no EVM code, so no `onERC721Received` can answer.
struct ERC721Contract {
    let collection: NFTCollection
    var address: Address { collection.address }

    static let balanceOf = ABISignature(literal: "balanceOf(address)")
    static let ownerOf = ABISignature(literal: "ownerOf(uint256)")
    static let safeTransferFromData = ABISignature(literal: "safeTransferFrom(address,address,uint256,bytes)")
    static let safeTransferFrom = ABISignature(literal: "safeTransferFrom(address,address,uint256)")
    static let transferFrom = ABISignature(literal: "transferFrom(address,address,uint256)")
    static let approve = ABISignature(literal: "approve(address,uint256)")
    static let getApproved = ABISignature(literal: "getApproved(uint256)")
    static let setApprovalForAll = ABISignature(literal: "setApprovalForAll(address,bool)")
    static let isApprovedForAll = ABISignature(literal: "isApprovedForAll(address,address)")
    static let name = ABISignature(literal: "name()")
    static let symbol = ABISignature(literal: "symbol()")
    static let tokenURI = ABISignature(literal: "tokenURI(uint256)")
    static let totalSupply = ABISignature(literal: "totalSupply()")
    static let tokenByIndex = ABISignature(literal: "tokenByIndex(uint256)")
    static let tokenOfOwnerByIndex = ABISignature(literal: "tokenOfOwnerByIndex(address,uint256)")
    static let supportsInterface = ABISignature(literal: "supportsInterface(bytes4)")
    static let royaltyInfo = ABISignature(literal: "royaltyInfo(uint256,uint256)")
    /// `Ownable` + `ERC721Burnable` + an owner-only `safeMint`, as OpenZeppelin's wizard writes a mintable collection.
    static let owner = ABISignature(literal: "owner()")
    static let safeMint = ABISignature(literal: "safeMint(address,uint256)")
    static let burn = ABISignature(literal: "burn(uint256)")

    static let transferTopic = Keccak256.hash(utf8: "Transfer(address,address,uint256)")
    static let approvalTopic = Keccak256.hash(utf8: "Approval(address,address,uint256)")
    static let approvalForAllTopic = Keccak256.hash(utf8: "ApprovalForAll(address,address,bool)")
    static let metadataUpdateTopic = Keccak256.hash(utf8: "MetadataUpdate(uint256)")

    /// ERC-165, ERC-721, Metadata, Enumerable, ERC-2981, ERC-4906.
    static let interfaces: Set<UInt32> = [0x01ff_c9a7, 0x80ac_58cd, 0x5b5e_139f, 0x780e_9d63, 0x2a55_205a, 0x4906_4906]

    /// Gas beyond the storage words and logs the machine charges (see `NFTGas`).
    typealias Gas = NFTGas

    // MARK: Dispatch

    func execute(_ call: NativeCall, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        let data = call.data
        guard data.count >= 4 else {
            m.charge(Gas.unknown)
            throw .revert([])
        }
        if !call.value.isZero {
            m.charge(Gas.unknown)
            throw .revert([])  // every function is non-payable
        }
        do {
            switch ABI.selectorValue(data[0..<4]) {
            case Self.balanceOf.selectorValue:
                m.charge(Gas.read)
                let owner = try Self.arguments(Self.balanceOf, data)[0].addressValue
                if owner == .zero { throw NFTFailure.invalidOwner(.zero).halt }
                return ABI.word(m.load(address, NFTStorage.balance721Slot(owner)))
            case Self.ownerOf.selectorValue:
                m.charge(Gas.read)
                let id = try Self.arguments(Self.ownerOf, data)[0].uintValue
                return ABI.word(try requireOwned(id, in: &m))
            case Self.name.selectorValue:
                m.charge(Gas.metadata)
                return ABI.string(collection.name)
            case Self.symbol.selectorValue:
                m.charge(Gas.metadata)
                return ABI.string(collection.symbol)
            case Self.tokenURI.selectorValue:
                m.charge(Gas.metadata)
                let id = try Self.arguments(Self.tokenURI, data)[0].uintValue
                _ = try requireOwned(id, in: &m)
                return ABI.string(NFTMetadata.tokenURI(collection, id))
            case Self.getApproved.selectorValue:
                m.charge(Gas.read)
                let id = try Self.arguments(Self.getApproved, data)[0].uintValue
                _ = try requireOwned(id, in: &m)
                return ABI.word(m.load(address, NFTStorage.approvalSlot(id)))
            case Self.isApprovedForAll.selectorValue:
                m.charge(Gas.read)
                let a = try Self.arguments(Self.isApprovedForAll, data)
                return ABI.word(isApprovedForAll(owner: a[0].addressValue, operator: a[1].addressValue, in: &m))
            case Self.totalSupply.selectorValue:
                m.charge(Gas.read)
                return ABI.word(m.load(address, NFTStorage.allTokensLengthSlot))
            case Self.tokenByIndex.selectorValue:
                m.charge(Gas.read)
                let index = try Self.arguments(Self.tokenByIndex, data)[0].uintValue
                if index >= m.load(address, NFTStorage.allTokensLengthSlot) {
                    throw NFTFailure.outOfBoundsIndex(owner: .zero, index: index).halt
                }
                return ABI.word(m.load(address, NFTStorage.allTokenSlot(index: index)))
            case Self.tokenOfOwnerByIndex.selectorValue:
                m.charge(Gas.read)
                let a = try Self.arguments(Self.tokenOfOwnerByIndex, data)
                let (owner, index) = (a[0].addressValue, a[1].uintValue)
                if owner == .zero { throw NFTFailure.invalidOwner(.zero).halt }
                if index >= m.load(address, NFTStorage.balance721Slot(owner)) {
                    throw NFTFailure.outOfBoundsIndex(owner: owner, index: index).halt
                }
                return ABI.word(m.load(address, NFTStorage.ownedTokenSlot(owner, index: index)))
            case Self.supportsInterface.selectorValue:
                m.charge(Gas.supportsInterface)
                let id = try Self.arguments(Self.supportsInterface, data)[0].bytesValue
                return ABI.word(Self.interfaces.contains(ABI.selectorValue(id[0..<4])))
            case Self.royaltyInfo.selectorValue:
                m.charge(Gas.read)
                let a = try Self.arguments(Self.royaltyInfo, data)
                return try royaltyInfo(salePrice: a[1].uintValue, in: &m)
            case Self.approve.selectorValue:
                m.charge(Gas.approve)
                let a = try Self.arguments(Self.approve, data)
                try approve(to: a[0].addressValue, id: a[1].uintValue, auth: call.caller, in: &m)
                return []
            case Self.setApprovalForAll.selectorValue:
                m.charge(Gas.setApprovalForAll)
                let a = try Self.arguments(Self.setApprovalForAll, data)
                try setApprovalForAll(
                    owner: call.caller, operator: a[0].addressValue, approved: a[1].boolValue, in: &m)
                return []
            case Self.transferFrom.selectorValue:
                m.charge(Gas.transfer)
                let a = try Self.arguments(Self.transferFrom, data)
                try transferFrom(
                    from: a[0].addressValue, to: a[1].addressValue, id: a[2].uintValue, spender: call.caller, in: &m)
                return []
            case Self.safeTransferFrom.selectorValue, Self.safeTransferFromData.selectorValue:
                m.charge(Gas.transfer + Gas.safeCheck)
                let withData = ABI.selectorValue(data[0..<4]) == Self.safeTransferFromData.selectorValue
                let a = try Self.arguments(withData ? Self.safeTransferFromData : Self.safeTransferFrom, data)
                let to = a[1].addressValue
                try transferFrom(from: a[0].addressValue, to: to, id: a[2].uintValue, spender: call.caller, in: &m)
                try checkReceiver(to, in: &m)
                return []
            case Self.owner.selectorValue:
                m.charge(Gas.read)
                return ABI.word(collection.owner)
            case Self.safeMint.selectorValue:
                m.charge(Gas.transfer + Gas.safeCheck)
                let a = try Self.arguments(Self.safeMint, data)
                if call.caller != collection.owner { throw NFTFailure.unauthorizedAccount(call.caller).halt }
                let (to, id) = (a[0].addressValue, a[1].uintValue)
                if to == .zero { throw NFTFailure.invalidReceiver721(.zero).halt }
                let previous = try update(to: to, id: id, auth: .zero, in: &m)
                if previous != .zero { throw NFTFailure.invalidSender721(.zero).halt }
                try checkReceiver(to, in: &m)
                return []
            case Self.burn.selectorValue:
                m.charge(Gas.transfer)
                let id = try Self.arguments(Self.burn, data)[0].uintValue
                try update(to: .zero, id: id, auth: call.caller, in: &m)
                return []
            default:
                m.charge(Gas.unknown)
                throw Halt.revert([])  // no such function and no fallback
            }
        } catch let halt as Halt {
            throw halt
        } catch {
            throw .revert([])  // calldata the ABI decoder refuses
        }
    }

    static func arguments(_ function: ABISignature, _ data: [UInt8]) throws(ABIDecodingError) -> [ABIValue] {
        try function.decodeArguments(data, options: .solidity)
    }

    // MARK: OpenZeppelin 5's internals

    /// `_requireOwned`: the owner, or `ERC721NonexistentToken`.
    func requireOwned(_ id: UInt256, in m: inout NativeMachine) throws(Halt) -> Address {
        let owner = m.load(address, NFTStorage.ownerSlot(id)).lowAddress
        if owner == .zero { throw NFTFailure.nonexistentToken(id).halt }
        return owner
    }

    func isApprovedForAll(owner: Address, operator: Address, in m: inout NativeMachine) -> Bool {
        !m.load(address, NFTStorage.operatorSlot(.erc721, owner: owner, operator: `operator`)).isZero
    }

    /// `_isAuthorized`: the spender is the owner, an operator of the owner, or the token's approved address.
    func isAuthorized(owner: Address, spender: Address, id: UInt256, in m: inout NativeMachine) -> Bool {
        guard spender != .zero else { return false }
        if owner == spender || isApprovedForAll(owner: owner, operator: spender, in: &m) { return true }
        return m.load(address, NFTStorage.approvalSlot(id)).lowAddress == spender
    }

    func approve(to: Address, id: UInt256, auth: Address, in m: inout NativeMachine) throws(Halt) {
        let owner = try requireOwned(id, in: &m)
        if auth != .zero && owner != auth && !isApprovedForAll(owner: owner, operator: auth, in: &m) {
            throw NFTFailure.invalidApprover721(auth).halt
        }
        m.emit(address, [Self.approvalTopic, ABI.word(owner), ABI.word(to), ABI.word(id)], [])
        m.store(address, NFTStorage.approvalSlot(id), UInt256(word: to))
    }

    func setApprovalForAll(owner: Address, operator: Address, approved: Bool, in m: inout NativeMachine) throws(Halt) {
        if `operator` == .zero { throw NFTFailure.invalidOperator721(`operator`).halt }
        m.store(
            address, NFTStorage.operatorSlot(.erc721, owner: owner, operator: `operator`), UInt256(approved ? 1 : 0))
        m.emit(address, [Self.approvalForAllTopic, ABI.word(owner), ABI.word(`operator`)], ABI.word(approved))
    }

    func transferFrom(from: Address, to: Address, id: UInt256, spender: Address, in m: inout NativeMachine)
        throws(Halt)
    {
        if to == .zero { throw NFTFailure.invalidReceiver721(.zero).halt }
        let previous = try update(to: to, id: id, auth: spender, in: &m)
        if previous != from { throw NFTFailure.incorrectOwner(sender: from, id: id, owner: previous).halt }
    }

    /// `_update` with `ERC721Enumerable`'s bookkeeping: moves (mints, burns) `id` to `to`, returns the previous owner.
    @discardableResult
    func update(to: Address, id: UInt256, auth: Address, in m: inout NativeMachine) throws(Halt) -> Address {
        let from = m.load(address, NFTStorage.ownerSlot(id)).lowAddress
        if auth != .zero && !isAuthorized(owner: from, spender: auth, id: id, in: &m) {
            if from == .zero { throw NFTFailure.nonexistentToken(id).halt }
            throw NFTFailure.insufficientApproval(operator: auth, id: id).halt
        }
        if from != .zero {
            m.store(address, NFTStorage.approvalSlot(id), .zero)
            let slot = NFTStorage.balance721Slot(from)
            m.store(address, slot, m.load(address, slot) - UInt256(1))
        }
        if to != .zero {
            let slot = NFTStorage.balance721Slot(to)
            m.store(address, slot, m.load(address, slot) + UInt256(1))
        }
        m.store(address, NFTStorage.ownerSlot(id), UInt256(word: to))
        m.emit(address, [Self.transferTopic, ABI.word(from), ABI.word(to), ABI.word(id)], [])
        // ERC721Enumerable._update
        if from == .zero {
            addToAllTokens(id, in: &m)
        } else if from != to {
            removeFromOwner(from, id, in: &m)
        }
        if to == .zero {
            removeFromAllTokens(id, in: &m)
        } else if from != to {
            let index = m.load(address, NFTStorage.balance721Slot(to)) - UInt256(1)
            m.store(address, NFTStorage.ownedTokenSlot(to, index: index), id)
            m.store(address, NFTStorage.ownedTokenIndexSlot(id), index)
        }
        return from
    }

    func removeFromOwner(_ from: Address, _ id: UInt256, in m: inout NativeMachine) {
        let last = m.load(address, NFTStorage.balance721Slot(from))
        let index = m.load(address, NFTStorage.ownedTokenIndexSlot(id))
        if index != last {
            let lastID = m.load(address, NFTStorage.ownedTokenSlot(from, index: last))
            m.store(address, NFTStorage.ownedTokenSlot(from, index: index), lastID)
            m.store(address, NFTStorage.ownedTokenIndexSlot(lastID), index)
        }
        m.store(address, NFTStorage.ownedTokenIndexSlot(id), .zero)
        m.store(address, NFTStorage.ownedTokenSlot(from, index: last), .zero)
    }

    func addToAllTokens(_ id: UInt256, in m: inout NativeMachine) {
        let length = m.load(address, NFTStorage.allTokensLengthSlot)
        m.store(address, NFTStorage.allTokenIndexSlot(id), length)
        m.store(address, NFTStorage.allTokenSlot(index: length), id)
        m.store(address, NFTStorage.allTokensLengthSlot, length + UInt256(1))
    }

    func removeFromAllTokens(_ id: UInt256, in m: inout NativeMachine) {
        let length = m.load(address, NFTStorage.allTokensLengthSlot)
        let last = length - UInt256(1)
        let index = m.load(address, NFTStorage.allTokenIndexSlot(id))
        let lastID = m.load(address, NFTStorage.allTokenSlot(index: last))
        m.store(address, NFTStorage.allTokenSlot(index: index), lastID)
        m.store(address, NFTStorage.allTokenIndexSlot(lastID), index)
        m.store(address, NFTStorage.allTokenIndexSlot(id), .zero)
        m.store(address, NFTStorage.allTokenSlot(index: last), .zero)
        m.store(address, NFTStorage.allTokensLengthSlot, last)
    }

    /// `_checkOnERC721Received`: an account without code accepts; one with code cannot answer (no EVM).
    func checkReceiver(_ to: Address, in m: inout NativeMachine) throws(Halt) {
        m.access(to)  // EXTCODESIZE
        if m.state.hasCode(to) || m.registry.contract(at: to) != nil {
            throw NFTFailure.invalidReceiver721(to).halt
        }
    }

    /// ERC-2981 `royaltyInfo`: the default royalty (receiver, salePrice × fraction / 10,000).
    func royaltyInfo(salePrice: UInt256, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        let word = m.load(address, NFTStorage.defaultRoyaltySlot)
        let receiver = word.lowAddress
        let fraction = word >> 160
        let (product, overflow) = salePrice.multipliedReportingOverflow(by: fraction)
        if overflow { throw NFTFailure.overflow.halt }
        return ABI.word(receiver) + ABI.word(product / UInt256(10_000))
    }
}

/// The NFT contracts' gas beyond the storage words, logs and account accesses the machine charges (see
/// ``GasModel``), derived from OpenZeppelin's Foundry figures (alephao/solidity-benchmarks: `transferFrom` to a
/// holder 31,458, `approve` 35,194, `setApprovalForAll` 32,651, `safeMint` − `mint` 2,864): each figure less the
/// benchmark's cold call into the contract (2,600, which a transaction's target does not pay) and less the storage
/// and log gas the model charges for OpenZeppelin's non-enumerable code path (transfer 19,075, approve 26,075,
/// setApprovalForAll 23,856). Nothing here is measured against a Sepolia receipt; `ERC721Enumerable`'s extra words
/// are charged as the storage they are, on top.
enum NFTGas {
    static let transfer: UInt64 = 31_458 - 2_600 - 19_075
    static let approve: UInt64 = 35_194 - 2_600 - 26_075
    static let setApprovalForAll: UInt64 = 32_651 - 2_600 - 23_856
    /// `safeTransferFrom`'s receiver check beyond its EXTCODESIZE access.
    static let safeCheck: UInt64 = 2_864 - 2_600
    /// An ERC-1155 transfer's array building (OpenZeppelin's singleton arrays), beyond the ERC-721 shape [derived].
    static let arrays: UInt64 = 1_000
    /// Per id of a batch, beyond the storage words.
    static let perBatchItem: UInt64 = 600
    static let read: UInt64 = 650
    static let metadata: UInt64 = 3_300
    static let supportsInterface: UInt64 = 250
    static let unknown: UInt64 = 150
}
