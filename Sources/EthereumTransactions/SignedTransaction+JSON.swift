import ByteCoding
import EthereumTypes

extension SignedTransaction {
    /// The transaction as JSON-RPC clients see it (`eth_getTransactionByHash`, execution-apis `TransactionSigned`):
    /// quantities as minimal `0x` hex, data and hashes as `0x` hex, addresses in lowercase.
    ///
    /// Fields, in order: `type`, `chainId` (absent for pre-EIP-155 legacy), `nonce`, `gas`, then `gasPrice` or
    /// `maxPriorityFeePerGas` and `maxFeePerGas`, `to` (null for creation), `value`, `input`, `accessList`
    /// (typed only), `v`, `yParity` (typed only), `r`, `s`, `hash`, and `from` when `sender` is given.
    /// - Parameter sender: The recovered sender, if known.
    public func json(sender: Address?) -> OrderedJSON {
        let tx = transaction
        var members: [OrderedJSON.Member] = [.init("type", .string(Quantity.encode(UInt64(tx.type.rawValue))))]
        if let chainID = tx.chainID { members.append(.init("chainId", .string(Quantity.encode(chainID)))) }
        members.append(.init("nonce", .string(Quantity.encode(tx.nonce))))
        members.append(.init("gas", .string(Quantity.encode(tx.gas))))
        switch tx {
        case .legacy(let t):
            members.append(.init("gasPrice", .string(Quantity.encode(t.gasPrice))))
        case .accessList(let t):
            members.append(.init("gasPrice", .string(Quantity.encode(t.gasPrice))))
        case .dynamicFee(let t):
            members.append(.init("maxPriorityFeePerGas", .string(Quantity.encode(t.maxPriorityFeePerGas))))
            members.append(.init("maxFeePerGas", .string(Quantity.encode(t.maxFeePerGas))))
        }
        members.append(.init("to", tx.to.map { .string($0.lowercased) } ?? .null))
        members.append(.init("value", .string(Quantity.encode(tx.value))))
        members.append(.init("input", .string(Hex.encodePrefixed(tx.data))))
        if tx.type != .legacy { members.append(.init("accessList", Self.json(accessList: tx.accessList))) }
        members.append(.init("v", .string(Quantity.encode(v))))
        if tx.type != .legacy {
            members.append(.init("yParity", .string(Quantity.encode(UInt64(signature.yParity)))))
        }
        members.append(.init("r", .string(Quantity.encode(signature.r))))
        members.append(.init("s", .string(Quantity.encode(signature.s))))
        members.append(.init("hash", .string(Hex.encodePrefixed(hash))))
        if let sender { members.append(.init("from", .string(sender.lowercased))) }
        return .object(members)
    }

    /// `[{"address": "0x…", "storageKeys": ["0x…32 bytes…"]}]`.
    public static func json(accessList: [AccessListEntry]) -> OrderedJSON {
        .array(
            accessList.map { entry -> OrderedJSON in
                let keys = entry.storageKeys.map { OrderedJSON.string(Hex.encodePrefixed($0.bigEndianBytes)) }
                return .object([
                    .init("address", .string(entry.address.lowercased)),
                    .init("storageKeys", .array(keys)),
                ])
            })
    }
}
