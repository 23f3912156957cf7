import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC

/// Converters from JSON arguments, failing with geth's texts.
enum Arg {
    static func string(_ v: JSON) throws -> String {
        guard let s = v.stringValue else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type string")
        }
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

    /// A storage key of eth_getProof as geth's `decodeStorageKey` reads it: `0x` optional, an odd digit count gets a
    /// leading zero, at most 32 bytes (checked before the digits), left-padded. Also returns the length given:
    /// geth echoes a 32-byte key as data and any other as a quantity. Errors are geth's -32602 texts with the key
    /// quoted as Go's `%q` does.
    static func proofStorageKey(_ text: String) throws(RPCError) -> (slot: UInt256, length: Int) {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        let even = digits.utf8.count % 2 == 1 ? "0" + digits : String(digits)
        guard even.utf8.count <= 64 else {
            throw RPCError.invalidParams("storage key too long (want at most 32 bytes): \(goQuoted(text))")
        }
        guard even.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }),
            let bytes = try? Hex.decode(even), let slot = UInt256(bigEndian: bytes)
        else {
            throw RPCError.invalidParams("invalid hex in storage key: \(goQuoted(text))")
        }
        return (slot, bytes.count)
    }

    /// `text` as Go's `%q` prints it: double-quoted, `"` and the backslash escaped, control characters as escapes.
    static func goQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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
        guard let b = v.boolValue else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type bool")
        }
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

extension Arg {
    /// The transaction object at `index` (eth_call, eth_estimateGas, eth_sendTransaction, eth_signTransaction).
    /// Sandnet takes types 0, 1 and 2; another type, an EIP-7702 authorization list or EIP-4844 blobs are refused as
    /// eth_sendRawTransaction refuses those types: geth's -32000 `transaction type not supported`.
    static func request(_ p: RPCParams, _ index: Int = 0) throws -> TransactionRequest {
        let request = try p.required(index, TransactionRequest.init(json:))
        let object = p[index]
        if let type = request.type, type > 2 { throw RPCError.server("transaction type not supported") }
        for field in ["authorizationList", "blobVersionedHashes", "blobs"] where !(object?[field]?.isNull ?? true) {
            throw RPCError.server("transaction type not supported")
        }
        return request
    }
}

extension TransactionRequest {
    /// A transaction object as eth_call / eth_estimateGas / eth_sendTransaction receive it, read as geth reads
    /// `TransactionArgs`. Unknown keys (web3swift's `chainID`) are ignored; `input` and `data` are both accepted; a
    /// zero `gas` means unset.
    init(json v: JSON) throws {
        self.init()
        guard case .object = v else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type ethapi.TransactionArgs")
        }
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
            throw ArgumentError(
                "both \"data\" and \"input\" are set and not equal. Please use \"input\" to pass transaction call data")
        }
        self.data = input ?? data ?? []
        nonce = try v["nonce"].flatMap { $0.isNull ? nil : try Arg.quantity($0) }
        // The type as a number (web3.py's modify_transaction sends `2`) or a quantity (checked in `Arg.request`).
        type = try v["type"].flatMap { $0.isNull ? nil : try Arg.number($0) }
        if let list = v["accessList"]?.arrayValue {
            accessList = try list.map { item in
                AccessListEntry(
                    address: try Arg.address(item["address"] ?? .null),
                    storageKeys: try (item["storageKeys"]?.arrayValue ?? []).map {
                        try UInt256(bigEndian: Arg.hash($0))!
                    })
            }
        }
        if gasPrice != nil && (maxFeePerGas != nil || maxPriorityFeePerGas != nil) {
            throw ArgumentError("both gasPrice and (maxFeePerGas or maxPriorityFeePerGas) specified")
        }
    }
}

extension Arg {
    /// A filter criterion as geth's `FilterCriteria.UnmarshalJSON` reads it, with its texts: `address` is one
    /// address or an array of them, `topics` an array (at most 4) of null, a topic or an array (at most 1,000) of
    /// topics and nulls.
    static func logFilter(_ v: JSON) throws -> LogFilter {
        guard case .object = v else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type filters.FilterCriteria")
        }
        var f = LogFilter(addresses: [], topics: [])
        f.blockHash = try v["blockHash"].flatMap { $0.isNull ? nil : try Arg.hash($0) }
        f.fromBlock = try v["fromBlock"].flatMap { $0.isNull ? nil : try Arg.block($0) }
        f.toBlock = try v["toBlock"].flatMap { $0.isNull ? nil : try Arg.block($0) }
        if f.blockHash != nil && (f.fromBlock != nil || f.toBlock != nil) {
            throw ArgumentError("cannot specify both BlockHash and FromBlock/ToBlock, choose one or the other")
        }
        switch v["address"] {
        case nil, .null?: break
        case .string?:
            do { f.addresses = [try Arg.address(v["address"]!)] } catch {
                throw ArgumentError("invalid address: \(error)")
            }
        case .array(let list)?:
            f.addresses.reserveCapacity(min(list.count, LogFilter.queryLimit + 1))
            for (i, item) in list.enumerated() {
                guard case .string = item else { throw ArgumentError("non-string address at index \(i)") }
                do { f.addresses.append(try Arg.address(item)) } catch {
                    throw ArgumentError("invalid address at index \(i): \(error)")
                }
            }
        default: throw ArgumentError("invalid addresses in query")
        }
        let topics: [JSON]
        switch v["topics"] {
        case nil, .null?: topics = []
        case .array(let list)?: topics = list
        case let other?:
            throw ArgumentError(
                "json: cannot unmarshal \(other.typeName) into Go struct field input.topics of type []interface {}")
        }
        guard topics.count <= LogFilter.maxTopics else { throw ArgumentError("exceed max topics") }
        for topic in topics {
            switch topic {
            case .null: f.topics.append(nil)
            case .string: f.topics.append([try Arg.hash(topic)])
            case .array(let options):
                guard options.count <= LogFilter.queryLimit else { throw ArgumentError("exceed max topics") }
                var position: [[UInt8]]? = []
                for option in options {
                    switch option {
                    // A null among the options matches anything (geth keeps parsing nothing after it).
                    case .null: position = nil
                    case .string: if position != nil { position!.append(try Arg.hash(option)) }
                    default: throw ArgumentError("invalid topic(s)")
                    }
                    if position == nil { break }
                }
                f.topics.append(position)
            default: throw ArgumentError("invalid topic(s)")
            }
        }
        return f
    }
}

extension Arg {
    /// eth_simulateV1's payload (execution-apis `SimulatePayload`): `blockStateCalls` of `{blockOverrides,
    /// stateOverrides, calls}`, `validation`, `traceTransfers`, `returnFullTransactions`. Unknown fields are
    /// ignored, as Go's decoder ignores them. Sandnet has no withdrawals and runs no precompiles, so non-empty
    /// `withdrawals` and `movePrecompileToAddress` are refused.
    static func simulation(_ v: JSON) throws -> SimulationRequest {
        guard case .object = v else {
            throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type ethapi.simOpts")
        }
        var blocks: [SimulationRequest.Block] = []
        if let list = v["blockStateCalls"], !list.isNull {
            guard let items = list.arrayValue else {
                throw ArgumentError(
                    "json: cannot unmarshal \(list.typeName) into Go struct field simOpts.blockStateCalls of type "
                        + "[]ethapi.simBlock")
            }
            blocks = try items.map(simulatedBlock)
        }
        var request = SimulationRequest(blocks: blocks)
        request.validation = try v["validation"].flatMap { $0.isNull ? nil : try Arg.bool($0) } ?? false
        request.traceTransfers = try v["traceTransfers"].flatMap { $0.isNull ? nil : try Arg.bool($0) } ?? false
        request.returnFullTransactions =
            try v["returnFullTransactions"].flatMap { $0.isNull ? nil : try Arg.bool($0) } ?? false
        return request
    }

    static func simulatedBlock(_ v: JSON) throws -> SimulationRequest.Block {
        var block = SimulationRequest.Block()
        func field(_ object: JSON?, _ name: String) -> JSON? { object?[name].flatMap { $0.isNull ? nil : $0 } }
        if let o = field(v, "blockOverrides") {
            block.overrides.number = try field(o, "number").map { try Arg.uint256($0).uint64Value ?? .max }
            block.overrides.time = try field(o, "time").map(Arg.quantity)
            block.overrides.gasLimit = try field(o, "gasLimit").map(Arg.quantity)
            block.overrides.feeRecipient = try field(o, "feeRecipient").map(Arg.address)
            block.overrides.prevRandao = try field(o, "prevRandao").map(Arg.hash)
            block.overrides.baseFeePerGas = try field(o, "baseFeePerGas").map(Arg.uint256)
            block.overrides.beaconRoot = try field(o, "beaconRoot").map(Arg.hash)
            if let withdrawals = field(o, "withdrawals"), !(withdrawals.arrayValue?.isEmpty ?? false) {
                throw ArgumentError("withdrawals are not supported: Sandnet's chain has no beacon withdrawals")
            }
        }
        if let overrides = field(v, "stateOverrides") {
            guard case .object(let accounts) = overrides else {
                throw ArgumentError(
                    "json: cannot unmarshal \(overrides.typeName) into Go value of type override.StateOverride")
            }
            for (key, o) in accounts {
                let address = try Arg.address(.string(key))
                if field(o, "movePrecompileToAddress") != nil {
                    throw ArgumentError("movePrecompileToAddress is not supported: Sandnet runs no precompiles")
                }
                func words(_ name: String) throws -> [UInt256: UInt256]? {
                    guard let value = field(o, name) else { return nil }
                    guard case .object(let pairs) = value else {
                        throw ArgumentError(
                            "json: cannot unmarshal \(value.typeName) into Go value of type "
                                + "map[common.Hash]common.Hash")
                    }
                    var out: [UInt256: UInt256] = [:]
                    for (slot, word) in pairs {
                        out[UInt256(bigEndian: try Arg.hash(.string(slot)))!] = UInt256(bigEndian: try Arg.hash(word))!
                    }
                    return out
                }
                block.stateOverrides.append(
                    (
                        address,
                        AccountStateOverride(
                            balance: try field(o, "balance").map(Arg.uint256),
                            nonce: try field(o, "nonce").map(Arg.quantity), code: try field(o, "code").map(Arg.data),
                            state: try words("state"), stateDiff: try words("stateDiff"))
                    ))
            }
        }
        if let calls = field(v, "calls") {
            guard let items = calls.arrayValue else {
                throw ArgumentError(
                    "json: cannot unmarshal \(calls.typeName) into Go struct field simBlock.calls of type "
                        + "[]ethapi.TransactionArgs")
            }
            block.calls = try items.map { item in
                let request = try TransactionRequest(json: item)
                if let type = request.type, type > 2 { throw ArgumentError("transaction type not supported") }
                for name in ["authorizationList", "blobVersionedHashes", "blobs"] where field(item, name) != nil {
                    throw ArgumentError("transaction type not supported")
                }
                return request
            }
        }
        return block
    }
}
