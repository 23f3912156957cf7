import ABICoding
import EthereumTypes
import KeccakHashing

/// A native ERC-1155 collection (EIP-1155 with the MetadataURI extension) as OpenZeppelin 5's `ERC1155` behaves: its
/// checks in their order, its custom errors, `TransferSingle`/`TransferBatch`/`ApprovalForAll` events, its storage
/// words (``NFTStorage``). As in OpenZeppelin 5, `balanceOf(0x0, id)` answers (0) rather than reverting.
///
/// Receivers: a transfer to an account without code succeeds; to an account with code it reverts with
/// `ERC1155InvalidReceiver(to)` (no EVM runs `onERC1155Received`), as ``ERC721Contract`` does.
struct ERC1155Contract {
    let collection: NFTCollection
    var address: Address { collection.address }

    static let balanceOf = ABISignature(literal: "balanceOf(address,uint256)")
    static let balanceOfBatch = ABISignature(literal: "balanceOfBatch(address[],uint256[])")
    static let setApprovalForAll = ABISignature(literal: "setApprovalForAll(address,bool)")
    static let isApprovedForAll = ABISignature(literal: "isApprovedForAll(address,address)")
    static let safeTransferFrom = ABISignature(literal: "safeTransferFrom(address,address,uint256,uint256,bytes)")
    static let safeBatchTransferFrom = ABISignature(
        literal: "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)")
    static let uri = ABISignature(literal: "uri(uint256)")
    static let name = ABISignature(literal: "name()")
    static let symbol = ABISignature(literal: "symbol()")
    static let supportsInterface = ABISignature(literal: "supportsInterface(bytes4)")
    /// `Ownable` + `ERC1155Burnable` + an owner-only `mint`, as OpenZeppelin's wizard writes a mintable collection.
    static let owner = ABISignature(literal: "owner()")
    static let mint = ABISignature(literal: "mint(address,uint256,uint256,bytes)")
    static let burn = ABISignature(literal: "burn(address,uint256,uint256)")

    static let transferSingleTopic = Keccak256.hash(utf8: "TransferSingle(address,address,address,uint256,uint256)")
    static let transferBatchTopic = Keccak256.hash(utf8: "TransferBatch(address,address,address,uint256[],uint256[])")
    static let uriTopic = Keccak256.hash(utf8: "URI(string,uint256)")

    /// ERC-165, ERC-1155, ERC-1155 MetadataURI.
    static let interfaces: Set<UInt32> = [0x01ff_c9a7, 0xd9b6_7a26, 0x0e89_341c]

    typealias Gas = NFTGas

    func execute(_ call: NativeCall, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        let data = call.data
        guard data.count >= 4, call.value.isZero else {
            m.charge(Gas.unknown)
            throw .revert([])
        }
        do {
            switch ABI.selectorValue(data[0..<4]) {
            case Self.balanceOf.selectorValue:
                m.charge(Gas.read)
                let a = try Self.arguments(Self.balanceOf, data)
                return ABI.word(m.load(address, NFTStorage.balance1155Slot(a[0].addressValue, id: a[1].uintValue)))
            case Self.balanceOfBatch.selectorValue:
                m.charge(Gas.read)
                let a = try Self.arguments(Self.balanceOfBatch, data)
                guard case .array(let accounts) = a[0], case .array(let ids) = a[1] else { throw Halt.revert([]) }
                if accounts.count != ids.count {
                    throw NFTFailure.invalidArrayLength(
                        ids: UInt256(UInt64(ids.count)), values: UInt256(UInt64(accounts.count))
                    ).halt
                }
                let balances = zip(accounts, ids).map { account, id in
                    ABIValue.uint(m.load(address, NFTStorage.balance1155Slot(account.addressValue, id: id.uintValue)))
                }
                return (try? ABI.encode([.array(balances)], as: [.array(.uint(bits: 256))])) ?? []
            case Self.isApprovedForAll.selectorValue:
                m.charge(Gas.read)
                let a = try Self.arguments(Self.isApprovedForAll, data)
                return ABI.word(isApprovedForAll(owner: a[0].addressValue, operator: a[1].addressValue, in: &m))
            case Self.setApprovalForAll.selectorValue:
                m.charge(Gas.setApprovalForAll)
                let a = try Self.arguments(Self.setApprovalForAll, data)
                let (op, approved) = (a[0].addressValue, a[1].boolValue)
                if op == .zero { throw NFTFailure.invalidOperator1155(.zero).halt }
                m.store(
                    address, NFTStorage.operatorSlot(.erc1155, owner: call.caller, operator: op),
                    UInt256(approved ? 1 : 0))
                m.emit(
                    address, [ERC721Contract.approvalForAllTopic, ABI.word(call.caller), ABI.word(op)],
                    ABI.word(approved))
                return []
            case Self.safeTransferFrom.selectorValue:
                m.charge(Gas.transfer + Gas.arrays + Gas.safeCheck)
                let a = try Self.arguments(Self.safeTransferFrom, data)
                try transfer(
                    operator: call.caller, from: a[0].addressValue, to: a[1].addressValue, ids: [a[2].uintValue],
                    values: [a[3].uintValue], in: &m)
                return []
            case Self.safeBatchTransferFrom.selectorValue:
                let a = try Self.arguments(Self.safeBatchTransferFrom, data)
                guard case .array(let ids) = a[2], case .array(let values) = a[3] else { throw Halt.revert([]) }
                m.charge(Gas.transfer + Gas.arrays + Gas.safeCheck + Gas.perBatchItem * UInt64(ids.count))
                try transfer(
                    operator: call.caller, from: a[0].addressValue, to: a[1].addressValue, ids: ids.map(\.uintValue),
                    values: values.map(\.uintValue), in: &m)
                return []
            case Self.uri.selectorValue:
                m.charge(Gas.metadata)
                let id = try Self.arguments(Self.uri, data)[0].uintValue
                return ABI.string(NFTMetadata.uri(collection, id))
            case Self.name.selectorValue:
                m.charge(Gas.metadata)
                return ABI.string(collection.name)
            case Self.symbol.selectorValue:
                m.charge(Gas.metadata)
                return ABI.string(collection.symbol)
            case Self.supportsInterface.selectorValue:
                m.charge(Gas.supportsInterface)
                let id = try Self.arguments(Self.supportsInterface, data)[0].bytesValue
                return ABI.word(Self.interfaces.contains(ABI.selectorValue(id[0..<4])))
            case Self.owner.selectorValue:
                m.charge(Gas.read)
                return ABI.word(collection.owner)
            case Self.mint.selectorValue:
                m.charge(Gas.transfer + Gas.arrays + Gas.safeCheck)
                let a = try Self.arguments(Self.mint, data)
                if call.caller != collection.owner { throw NFTFailure.unauthorizedAccount(call.caller).halt }
                let to = a[0].addressValue
                if to == .zero { throw NFTFailure.invalidReceiver1155(.zero).halt }
                try update(
                    operator: call.caller, from: .zero, to: to, ids: [a[1].uintValue], values: [a[2].uintValue], in: &m)
                try checkReceiver(to, in: &m)
                return []
            case Self.burn.selectorValue:
                m.charge(Gas.transfer + Gas.arrays)
                let a = try Self.arguments(Self.burn, data)
                let account = a[0].addressValue
                if account != call.caller && !isApprovedForAll(owner: account, operator: call.caller, in: &m) {
                    throw NFTFailure.missingApprovalForAll(operator: call.caller, owner: account).halt
                }
                if account == .zero { throw NFTFailure.invalidSender1155(.zero).halt }
                try update(
                    operator: call.caller, from: account, to: .zero, ids: [a[1].uintValue], values: [a[2].uintValue],
                    in: &m)
                return []
            default:
                m.charge(Gas.unknown)
                throw Halt.revert([])
            }
        } catch let halt as Halt {
            throw halt
        } catch {
            throw .revert([])
        }
    }

    static func arguments(_ function: ABISignature, _ data: [UInt8]) throws(ABIDecodingError) -> [ABIValue] {
        try function.decodeArguments(data, options: .solidity)
    }

    func isApprovedForAll(owner: Address, operator: Address, in m: inout NativeMachine) -> Bool {
        !m.load(address, NFTStorage.operatorSlot(.erc1155, owner: owner, operator: `operator`)).isZero
    }

    /// `safeTransferFrom`/`safeBatchTransferFrom`: the approval check, `_safeBatchTransferFrom`'s address checks,
    /// `_update` and the acceptance check.
    func transfer(
        operator: Address, from: Address, to: Address, ids: [UInt256], values: [UInt256],
        in m: inout NativeMachine
    ) throws(Halt) {
        if from != `operator` && !isApprovedForAll(owner: from, operator: `operator`, in: &m) {
            throw NFTFailure.missingApprovalForAll(operator: `operator`, owner: from).halt
        }
        if to == .zero { throw NFTFailure.invalidReceiver1155(.zero).halt }
        if from == .zero { throw NFTFailure.invalidSender1155(.zero).halt }
        try update(operator: `operator`, from: from, to: to, ids: ids, values: values, in: &m)
        try checkReceiver(to, in: &m)
    }

    /// The acceptance check: an account without code accepts; one with code cannot answer (no EVM).
    func checkReceiver(_ to: Address, in m: inout NativeMachine) throws(Halt) {
        m.access(to)  // EXTCODESIZE
        if m.state.hasCode(to) || m.registry.contract(at: to) != nil {
            throw NFTFailure.invalidReceiver1155(to).halt
        }
    }

    /// `_update`: moves (mints from 0x0, burns to 0x0) `values` of `ids`, then emits `TransferSingle` for one id (even
    /// from `safeBatchTransferFrom`, as OpenZeppelin 5 does) or `TransferBatch`.
    func update(
        operator: Address, from: Address, to: Address, ids: [UInt256], values: [UInt256],
        in m: inout NativeMachine
    ) throws(Halt) {
        if ids.count != values.count {
            throw NFTFailure.invalidArrayLength(ids: UInt256(UInt64(ids.count)), values: UInt256(UInt64(values.count)))
                .halt
        }
        for (id, value) in zip(ids, values) {
            if from != .zero {
                let slot = NFTStorage.balance1155Slot(from, id: id)
                let balance = m.load(address, slot)
                if balance < value {
                    throw NFTFailure.insufficientBalance(sender: from, balance: balance, needed: value, id: id).halt
                }
                m.store(address, slot, balance - value)
            }
            if to != .zero {
                let slot = NFTStorage.balance1155Slot(to, id: id)
                let (sum, overflow) = m.load(address, slot).addingReportingOverflow(value)
                if overflow { throw NFTFailure.overflow.halt }
                m.store(address, slot, sum)
            }
        }
        let topics = [
            ids.count != 1 ? Self.transferBatchTopic : Self.transferSingleTopic, ABI.word(`operator`),
            ABI.word(from), ABI.word(to),
        ]
        if ids.count != 1 {
            let data =
                (try? ABI.encode(
                    [.array(ids.map(ABIValue.uint)), .array(values.map(ABIValue.uint))],
                    as: [.array(.uint(bits: 256)), .array(.uint(bits: 256))])) ?? []
            m.emit(address, topics, data)
        } else {
            m.emit(address, topics, ABI.word(ids[0]) + ABI.word(values[0]))
        }
    }
}
