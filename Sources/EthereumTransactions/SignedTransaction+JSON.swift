import ByteCoding
import EthereumTypes
import JSONCoding

extension SignedTransaction {
    /// The transaction as JSON-RPC clients see it (`eth_getTransactionByHash`, execution-apis `TransactionSigned`):
    /// quantities as minimal `0x` hex, data and hashes as `0x` hex, addresses in lowercase.
    ///
    /// Fields, in order: `type`, `chainId` (absent for pre-EIP-155 legacy), `nonce`, `gas`, then `gasPrice` or
    /// `maxPriorityFeePerGas` and `maxFeePerGas`, `to` (null for creation), `value`, `input`, `accessList`
    /// (typed only), `v`, `yParity` (typed only), `r`, `s`, `hash`, and `from` when `sender` is given.
    /// - Parameter sender: The recovered sender, if known.
    public func json(sender: Address?) -> JSON {
        let tx = transaction
        var members: [(String, JSON)] = [("type", .string(Quantity.encode(UInt64(tx.type.rawValue))))]
        if let chainID = tx.chainID { members.append(("chainId", .string(Quantity.encode(chainID)))) }
        members.append(("nonce", .string(Quantity.encode(tx.nonce))))
        members.append(("gas", .string(Quantity.encode(tx.gas))))
        switch tx {
        case .legacy(let t):
            members.append(("gasPrice", .string(Quantity.encode(t.gasPrice))))
        case .accessList(let t):
            members.append(("gasPrice", .string(Quantity.encode(t.gasPrice))))
        case .dynamicFee(let t):
            members.append(("maxPriorityFeePerGas", .string(Quantity.encode(t.maxPriorityFeePerGas))))
            members.append(("maxFeePerGas", .string(Quantity.encode(t.maxFeePerGas))))
        }
        members.append(("to", tx.to.map { .string($0.lowercased) } ?? .null))
        members.append(("value", .string(Quantity.encode(tx.value))))
        members.append(("input", .string(Hex.encodePrefixed(tx.data))))
        if tx.type != .legacy { members.append(("accessList", Self.json(accessList: tx.accessList))) }
        members.append(("v", .string(Quantity.encode(v))))
        if tx.type != .legacy {
            members.append(("yParity", .string(Quantity.encode(UInt64(signature.yParity)))))
        }
        members.append(("r", .string(Quantity.encode(signature.r))))
        members.append(("s", .string(Quantity.encode(signature.s))))
        members.append(("hash", .string(Hex.encodePrefixed(hash))))
        if let sender { members.append(("from", .string(sender.lowercased))) }
        return .object(members)
    }

    /// `[{"address": "0x…", "storageKeys": ["0x…32 bytes…"]}]`.
    public static func json(accessList: [AccessListEntry]) -> JSON {
        .array(
            accessList.map { entry -> JSON in
                let keys = entry.storageKeys.map { JSON.string(Hex.encodePrefixed($0.bigEndianBytes)) }
                return .object([
                    ("address", .string(entry.address.lowercased)),
                    ("storageKeys", .array(keys)),
                ])
            })
    }
}
