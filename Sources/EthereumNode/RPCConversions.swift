import ByteCoding
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC

/// Block selectors accepted by the `…ByNumber` and state methods (execution-apis `BlockNumberOrTagOrHash`).
public enum BlockSelector: Sendable, Equatable {
    case latest, pending, earliest, safe, finalized
    case number(UInt64)
    case hash([UInt8])
}

/// Converters from JSON arguments, failing with geth's texts.
enum Arg {
    static func string(_ v: JSON) throws -> String {
        guard let s = v.stringValue else { throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type string") }
        return s
    }

    /// A storage slot key as geth's `decodeHash` reads it: 32 bytes of data, not a quantity, so leading zero digits
    /// (`0x00…00`, `0x01`) are fine; `0x` optional, an odd digit count gets a leading zero, at most 32 bytes, and
    /// the key is left-padded. Errors are geth's, answered with -32000.
    static func storageKey(_ text: String) throws(RPCError) -> [UInt8] {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        let even = digits.utf8.count % 2 == 1 ? "0" + digits : String(digits)
        guard even.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
            let bytes = try? Hex.decode(even)
        else {
            throw RPCError.server("unable to decode storage key: hex string invalid")
        }
        guard bytes.count <= 32 else {
            throw RPCError.server("unable to decode storage key: hex string too long, want at most 32 bytes")
        }
        return [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
    }

    static func quantity(_ v: JSON) throws -> UInt64 {
        guard let s = v.stringValue else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type hexutil.Uint64")
        }
        do { return try Quantity.parseUInt64(s) } catch { throw ArgumentError("\(error)") }
    }

    static func uint256(_ v: JSON) throws -> UInt256 {
        guard let s = v.stringValue else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type *hexutil.Big")
        }
        do { return try Quantity.parseUInt256(s) } catch { throw ArgumentError("\(error)") }
    }

    static func data(_ v: JSON) throws -> [UInt8] {
        let s = try string(v)
        do { return try Quantity.parseData(s) } catch { throw ArgumentError("\(error)") }
    }

    static func address(_ v: JSON) throws -> Address {
        let s = try string(v)
        guard s.hasPrefix("0x") || s.hasPrefix("0X") else { throw ArgumentError("hex string without 0x prefix") }
        guard s.utf8.count == 42, let bytes = try? Hex.decode(s) else {
            throw ArgumentError("hex string has length \(max(0, s.utf8.count - 2)), want 40 for common.Address")
        }
        return Address(bytes)!
    }

    static func hash(_ v: JSON) throws -> [UInt8] {
        let s = try string(v)
        guard s.hasPrefix("0x") || s.hasPrefix("0X") else { throw ArgumentError("hex string without 0x prefix") }
        guard s.utf8.count == 66, let bytes = try? Hex.decode(s) else {
            throw ArgumentError("hex string has length \(max(0, s.utf8.count - 2)), want 64 for common.Hash")
        }
        return bytes
    }

    static func block(_ v: JSON) throws -> BlockSelector {
        if case .object = v {
            if let h = v["blockHash"] { return .hash(try hash(h)) }
            if let n = v["blockNumber"] { return try block(n) }
            throw ArgumentError("invalid block number or hash")
        }
        let s = try string(v)
        switch s {
        case "latest": return .latest
        case "pending": return .pending
        case "earliest": return .earliest
        case "safe": return .safe
        case "finalized": return .finalized
        default:
            if s.utf8.count == 66 { return .hash(try hash(v)) }
            return .number(try quantity(v))
        }
    }

    static func bool(_ v: JSON) throws -> Bool {
        guard let b = v.boolValue else { throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type bool") }
        return b
    }

    static func number(_ v: JSON) throws -> UInt64 {
        switch v {
        case .number(let n):
            guard let value = UInt64(n) else { throw ArgumentError("invalid number \(n)") }
            return value
        case .string: return try quantity(v)
        default: throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type uint64")
        }
    }
}

/// A transaction object as eth_call / eth_estimateGas / eth_sendTransaction receive it. Unknown keys
/// (web3swift's `chainID`) are ignored; `input` and `data` are both accepted; a zero `gas` means unset.
struct CallRequest {
    var from: Address?
    var to: Address?
    var gas: UInt64?
    var gasPrice: UInt256?
    var maxFeePerGas: UInt256?
    var maxPriorityFeePerGas: UInt256?
    var value: UInt256 = .zero
    var data: [UInt8] = []
    var nonce: UInt64?
    var type: UInt64?
    var accessList: [AccessListEntry] = []

    init(_ v: JSON) throws {
        guard case .object = v else { throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type ethapi.TransactionArgs") }
        from = try v["from"].flatMap { $0.isNull ? nil : try Arg.address($0) }
        to = try v["to"].flatMap { $0.isNull ? nil : try Arg.address($0) }
        gas = try v["gas"].flatMap { $0.isNull ? nil : try Arg.quantity($0) }
        if gas == 0 { gas = nil }
        gasPrice = try v["gasPrice"].flatMap { $0.isNull ? nil : try Arg.uint256($0) }
        maxFeePerGas = try v["maxFeePerGas"].flatMap { $0.isNull ? nil : try Arg.uint256($0) }
        maxPriorityFeePerGas = try v["maxPriorityFeePerGas"].flatMap { $0.isNull ? nil : try Arg.uint256($0) }
        value = try v["value"].flatMap { $0.isNull ? nil : try Arg.uint256($0) } ?? .zero
        let input = try v["input"].flatMap { $0.isNull ? nil : try Arg.data($0) }
        let data = try v["data"].flatMap { $0.isNull ? nil : try Arg.data($0) }
        if let input, let data, input != data {
            throw ArgumentError("both \"data\" and \"input\" are set and not equal. Please use \"input\" to pass transaction call data")
        }
        self.data = input ?? data ?? []
        nonce = try v["nonce"].flatMap { $0.isNull ? nil : try Arg.quantity($0) }
        type = try v["type"].flatMap { $0.isNull ? nil : try Arg.quantity($0) }
        if let list = v["accessList"]?.arrayValue {
            accessList = try list.map { item in
                AccessListEntry(
                    address: try Arg.address(item["address"] ?? .null),
                    storageKeys: try (item["storageKeys"]?.arrayValue ?? []).map { try UInt256(bigEndian: Arg.hash($0))! })
            }
        }
        if gasPrice != nil && (maxFeePerGas != nil || maxPriorityFeePerGas != nil) {
            throw ArgumentError("both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified")
        }
    }

    /// Gas a value transfer with this data and access list uses: intrinsic, or the EIP-7623 floor.
    var gasNeeded: UInt64 {
        let gas = IntrinsicGas(
            data: data, isContractCreation: to == nil, accessListAddresses: accessList.count,
            accessListStorageKeys: accessList.reduce(0) { $0 + $1.storageKeys.count })
        return max(gas.standard, gas.floor)
    }
}

// MARK: - Output shapes

enum Format {
    static func q(_ n: UInt64) -> JSON { .string(Quantity.encode(n)) }
    static func q(_ n: UInt256) -> JSON { .string(Quantity.encode(n)) }
    static func q(_ n: Int) -> JSON { .string(Quantity.encode(UInt64(n))) }
    static func data(_ bytes: [UInt8]) -> JSON { .string(Hex.encodePrefixed(bytes)) }
    static func address(_ a: Address?) -> JSON { a.map { .string($0.lowercased) } ?? .null }

    /// A transaction as eth_getTransactionByHash returns it (geth's field set, plus `v` beside `yParity`
    /// and both `input` and `data` for web3swift).
    static func transaction(_ tx: LedgerTransaction, block: Block?, index: Int?, baseFee: UInt256?) -> JSON {
        var m: [(String, JSON)] = [
            ("blockHash", block.map { data($0.hash) } ?? .null),
            ("blockNumber", block.map { q($0.number) } ?? .null),
            // execution-apis TransactionInfo (2026) and geth: the including block's timestamp, null while pending.
            ("blockTimestamp", block.map { q($0.header.timestamp) } ?? .null),
            ("from", address(tx.sender)),
            ("gas", q(tx.gasLimit)),
        ]
        if tx.type == 2 {
            let price: UInt256
            if let baseFee, let tip = tx.effectiveTip(baseFee: baseFee) { price = baseFee + tip } else { price = tx.maxFeePerGas }
            m.append(("gasPrice", q(price)))
            m.append(("maxFeePerGas", q(tx.maxFeePerGas)))
            m.append(("maxPriorityFeePerGas", q(tx.maxPriorityFeePerGas)))
        } else {
            m.append(("gasPrice", q(tx.maxFeePerGas)))
        }
        m += [
            ("hash", data(tx.hash)),
            ("input", data(tx.data)),
            ("nonce", q(tx.nonce)),
            ("to", address(tx.to)),
            ("transactionIndex", index.map { q($0) } ?? .null),
            ("value", q(tx.value)),
            ("type", q(UInt64(tx.type))),
        ]
        if tx.type != 0 {
            m.append(("accessList", .array(tx.accessList.map { entry in
                .object([("address", address(entry.address)), ("storageKeys", .array(entry.storageKeys.map { data($0) }))])
            })))
        }
        if let chainID = tx.chainID { m.append(("chainId", q(chainID))) }
        m.append(("v", q(tx.v)))
        if tx.type != 0 { m.append(("yParity", q(tx.v))) }
        m.append(("r", q(tx.r)))
        m.append(("s", q(tx.s)))
        m.append(("data", data(tx.data)))
        return .object(m)
    }

    static func receipt(_ r: Receipt, block: Block) -> JSON {
        .object([
            ("blockHash", data(block.hash)),
            ("blockNumber", q(block.number)),
            ("contractAddress", address(r.contractAddress)),
            ("cumulativeGasUsed", q(r.cumulativeGasUsed)),
            ("effectiveGasPrice", q(r.effectiveGasPrice)),
            ("from", address(r.from)),
            ("gasUsed", q(r.gasUsed)),
            ("logs", .array(r.logs.enumerated().map { log($0.element, receipt: r, block: block, index: $0.offset) })),
            ("logsBloom", data(r.logsBloom)),
            ("status", q(UInt64(r.status ? 1 : 0))),
            ("to", address(r.to)),
            ("transactionHash", data(r.transactionHash)),
            ("transactionIndex", q(r.transactionIndex)),
            ("type", q(UInt64(r.type))),
        ])
    }

    static func log(_ l: Log, receipt: Receipt, block: Block, index: Int) -> JSON {
        .object([
            ("address", address(l.address)), ("topics", .array(l.topics.map { data($0) })), ("data", data(l.data)),
            ("blockNumber", q(block.number)), ("blockHash", data(block.hash)),
            ("blockTimestamp", q(block.header.timestamp)), ("transactionHash", data(receipt.transactionHash)),
            ("transactionIndex", q(receipt.transactionIndex)), ("logIndex", q(index)), ("removed", .bool(false)),
        ])
    }

    static func header(_ block: Block) -> [(String, JSON)] {
        let h = block.header
        var m: [(String, JSON)] = [
            ("number", q(h.number)), ("hash", data(block.hash)), ("parentHash", data(h.parentHash)),
            ("sha3Uncles", data(h.ommersHash)), ("miner", address(h.coinbase)), ("stateRoot", data(h.stateRoot)),
            ("transactionsRoot", data(h.transactionsRoot)), ("receiptsRoot", data(h.receiptsRoot)),
            ("logsBloom", data(h.logsBloom)), ("difficulty", q(h.difficulty)), ("totalDifficulty", q(UInt64(0))),
            ("gasLimit", q(h.gasLimit)), ("gasUsed", q(h.gasUsed)), ("timestamp", q(h.timestamp)),
            ("extraData", data(h.extraData)), ("mixHash", data(h.mixHash)), ("nonce", data(h.nonce)),
            ("baseFeePerGas", q(h.baseFeePerGas)),
        ]
        if let w = h.withdrawalsRoot { m.append(("withdrawalsRoot", data(w))) }
        if let b = h.blobGasUsed { m.append(("blobGasUsed", q(b))) }
        if let e = h.excessBlobGas { m.append(("excessBlobGas", q(e))) }
        if let p = h.parentBeaconBlockRoot { m.append(("parentBeaconBlockRoot", data(p))) }
        if let r = h.requestsHash { m.append(("requestsHash", data(r))) }
        return m
    }

    static func block(_ block: Block, full: Bool) -> JSON {
        var m = header(block)
        m.append(("size", q(block.size)))
        let txs: [JSON] = block.transactions.enumerated().map { i, tx in
            full ? transaction(tx, block: block, index: i, baseFee: block.header.baseFeePerGas) : data(tx.hash)
        }
        m.append(("transactions", .array(txs)))
        m.append(("uncles", .array([])))
        m.append(("withdrawals", .array([])))
        return .object(m)
    }
}

extension LedgerError: RPCErrorConvertible {
    /// geth answers every transaction and pool error with -32000 and its message; a failing data directory is
    /// the node's own fault (-32603).
    public var rpcError: RPCError {
        switch self {
        case .unknownSnapshot, .invalidReorgDepth, .timestampNotAfterHead, .valueOutOfRange: return .invalidParams(message)
        case .storageFailure, .corruptDataDirectory, .dataDirectoryChainMismatch, .unsupportedDataVersion:
            return .internalError(message)
        default: return .server(message)
        }
    }
}

extension TransactionDecodingError: RPCErrorConvertible {
    public var rpcError: RPCError { .server(message) }
}

extension TransactionValidationError: RPCErrorConvertible {
    public var rpcError: RPCError { .server(message) }
}

/// Public JSON shapes for transports (WebSocket notifications).
public enum NodeFormat {
    /// A block header as `newHeads` subscribers receive it.
    public static func header(_ block: Block) -> JSON { .object(Format.header(block)) }
}
