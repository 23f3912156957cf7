import ByteCoding
import EthereumLedger
import EthereumTypes
import JSONCoding
import NativeContracts

/// Etherscan's list rows: every value a string, the fields in Etherscan's order (reference explorer-market-nft.md
/// §A4), addresses in lower case as Etherscan writes them.
public enum EtherscanRows {
    static func s(_ value: some CustomStringConvertible) -> JSON { .string(value.description) }
    static func hex(_ bytes: [UInt8]) -> JSON { .string(Hex.encodePrefixed(bytes)) }
    static func address(_ a: Address?) -> JSON { .string(a?.lowercased ?? "") }

    /// `0x` + the first 4 bytes of the input, `0x` for none (Etherscan's `methodId`).
    static func methodID(_ input: [UInt8]) -> JSON { hex(Array(input.prefix(input.count >= 4 ? 4 : 0))) }

    static func functionName(_ tx: LedgerTransaction, _ registry: NativeContractRegistry) -> JSON {
        .string(NativeABI.functionName(tx.to.flatMap { registry.contract(at: $0) }, input: tx.data))
    }

    /// A `txlist` row (20 fields).
    public static func transaction(_ item: AddressHistory.Item, head: UInt64, registry: NativeContractRegistry) -> JSON
    {
        let tx = item.transaction
        let receipt = item.receipt
        let header = item.block.header
        return .object([
            ("blockNumber", s(header.number)), ("timeStamp", s(header.timestamp)), ("hash", hex(tx.hash)),
            ("nonce", s(tx.nonce)), ("blockHash", hex(item.block.hash)), ("transactionIndex", s(item.index)),
            ("from", address(tx.sender)), ("to", address(tx.to)), ("value", s(tx.value)), ("gas", s(tx.gasLimit)),
            ("gasPrice", s(receipt.effectiveGasPrice)), ("isError", .string(receipt.status ? "0" : "1")),
            ("txreceipt_status", .string(receipt.status ? "1" : "0")), ("input", hex(tx.data)),
            ("contractAddress", address(receipt.contractAddress)), ("cumulativeGasUsed", s(receipt.cumulativeGasUsed)),
            ("gasUsed", s(receipt.gasUsed)), ("confirmations", s(head - header.number + 1)),
            ("methodId", methodID(tx.data)), ("functionName", functionName(tx, registry)),
        ])
    }

    /// A `tokentx` row: one per `Transfer` log, so one transaction can give several.
    public static func tokenTransfer(
        _ transfer: AddressHistory.TokenTransfer, head: UInt64, registry: NativeContractRegistry
    ) -> JSON {
        let item = transfer.item
        let tx = item.transaction
        let receipt = item.receipt
        let header = item.block.header
        let token = registry.token(at: transfer.token)
        return .object([
            ("blockNumber", s(header.number)), ("timeStamp", s(header.timestamp)), ("hash", hex(tx.hash)),
            ("nonce", s(tx.nonce)), ("blockHash", hex(item.block.hash)), ("from", address(transfer.from)),
            ("contractAddress", address(transfer.token)), ("to", address(transfer.to)), ("value", s(transfer.amount)),
            ("tokenName", .string(token?.name ?? "")), ("tokenSymbol", .string(token?.symbol ?? "")),
            ("tokenDecimal", .string(token.map { String($0.decimals) } ?? "")), ("transactionIndex", s(item.index)),
            ("gas", s(tx.gasLimit)), ("gasPrice", s(receipt.effectiveGasPrice)), ("gasUsed", s(receipt.gasUsed)),
            ("cumulativeGasUsed", s(receipt.cumulativeGasUsed)), ("input", .string("deprecated")),
            ("methodId", methodID(tx.data)), ("functionName", functionName(tx, registry)),
            ("confirmations", s(head - header.number + 1)),
        ])
    }

    /// A `txlistinternal` row; by transaction hash Etherscan leaves out `hash` and `traceId`.
    public static func internalTransfer(_ transfer: AddressHistory.InternalTransfer, byHash: Bool) -> JSON {
        let item = transfer.item
        let header = item.block.header
        var members: [(String, JSON)] = [("blockNumber", s(header.number)), ("timeStamp", s(header.timestamp))]
        if !byHash { members.append(("hash", hex(item.transaction.hash))) }
        members += [
            ("from", address(transfer.from)), ("to", address(transfer.to)), ("value", s(transfer.amount)),
            ("contractAddress", .string("")), ("input", .string("")), ("type", .string("call")),
            ("gas", .string("0")), ("gasUsed", .string("0")),
        ]
        if !byHash { members.append(("traceId", .string(transfer.traceID))) }
        members += [("isError", .string("0")), ("errCode", .string(""))]
        return .object(members)
    }
}
