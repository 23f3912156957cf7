import ByteCoding
import CandidCoding
import EthereumTransactions
import EthereumTypes
import Foundation
import HDWallet
import ICPIdentity
import JSONCoding
import RLPCoding
import SecretStorage

/// Sandnet's own answers to the adapter operations, computed in-process with the same modules the vector suites
/// check. The differential checks compare an adapter against it, and the tests run every adapter case through it.
public final class NativeAdapter: AdapterEndpoint {
    public let label = "sandnet"

    public init() {}

    public func hello() -> Set<String> { Set(AdapterOperation.all) }

    public func call(_ op: String, _ input: JSON) -> AdapterResponse {
        do {
            return .result(try perform(op, input))
        } catch let error as Unsupported {
            return .unsupported(error.reason)
        } catch {
            return .error("\(error)")
        }
    }

    struct Unsupported: Error { var reason: String }

    struct BadInput: Error, CustomStringConvertible {
        var description: String
    }

    func perform(_ op: String, _ input: JSON) throws -> JSON {
        switch op {
        case "rlp.encode":
            return .object([("encoded", .string(Hex.encodePrefixed(RLP.encode(try Self.rlpItem(input["item"])))))])
        case "rlp.decode":
            return .object([("item", Self.json(try RLP.decode(try bytes(input, "encoded"))))])
        case "eip55.checksum":
            return .object([("checksummed", .string(try Address(parsing: try string(input, "address")).checksummed))])
        case "bip39.from_entropy":
            let language = try string(input, "language")
            guard let known = MnemonicLanguage(rawValue: language) else {
                throw Unsupported(reason: "language \(language)")
            }
            let mnemonic = try Mnemonic(entropy: try bytes(input, "entropy"), wordlist: try Wordlist.official(known))
            return .object([("mnemonic", .string(mnemonic.phrase))])
        case "bip39.seed":
            let seed = Mnemonic.seed(
                phrase: try string(input, "mnemonic"), passphrase: input["passphrase"]?.stringValue ?? "")
            return .object([("seed", .string(Hex.encodePrefixed(seed)))])
        case "bip32.derive":
            let key = try ExtendedKey(seed: try bytes(input, "seed")).derived(
                try DerivationPath(parsing: try string(input, "path")))
            return .object([("xprv", .string(key.serialized)), ("xpub", .string(key.serializedPublic))])
        case "keystore.decrypt":
            guard let keystore = input["keystore"] else { throw BadInput(description: "missing keystore") }
            let key = try Keystore(json: Data(keystore.jsonText.utf8)).decrypt(password: try string(input, "password"))
            return .object([("private_key", .string(Hex.encodePrefixed(key)))])
        case "tx.decode":
            return Self.json(try SignedTransaction(decoding: try bytes(input, "raw")))
        case "tx.recover":
            let tx = try SignedTransaction(decoding: try bytes(input, "raw"))
            return .object([("sender", .string(try tx.recoverSender().lowercased))])
        case "tx.sign":
            let tx = try Self.transaction(input["tx"] ?? .null)
            let signed = try tx.signed(privateKey: try bytes(input, "private_key"))
            return .object([
                ("raw", .string(Hex.encodePrefixed(signed.encoded))),
                ("hash", .string(Hex.encodePrefixed(signed.hash))),
            ])
        case "candid.encode":
            let types = try Self.candidTypes(input["types"])
            guard let values = input["values"]?.arrayValue, values.count == types.count else {
                throw BadInput(description: "values must be an array with one value per type")
            }
            var candid: [CandidValue] = []
            for (value, type) in zip(values, types) { candid.append(try CandidJSON.value(value, type: type)) }
            let encoded = try CandidSerializer.encode(candid, types: types)
            return .object([("encoded", .string(Hex.encodePrefixed(encoded)))])
        case "candid.decode":
            let types = try Self.candidTypes(input["types"])
            let decoded = try CandidDeserializer.decode(
                try bytes(input, "encoded"), as: try CandidArgumentTypes(types))
            var values: [JSON] = []
            for (value, type) in zip(decoded, types) {
                values.append(try CandidJSON.json(value, type: type, environment: CandidTypeEnvironment()))
            }
            return .object([("values", .array(values))])
        case "icp.principal":
            let principal =
                if let text = input["text"]?.stringValue { try Principal(text: text) } else {
                    try Principal(bytes: try bytes(input, "bytes"))
                }
            return .object([("text", .string(principal.text)), ("bytes", .string(Hex.encodePrefixed(principal.bytes)))])
        case "icp.account_id":
            let principal = try Principal(text: try string(input, "principal"))
            let subaccount =
                if let hex = input["subaccount"]?.stringValue { try Subaccount(bytes: try Hex.decode(hex)) } else {
                    Subaccount?.none
                }
            let id = AccountIdentifier(principal: principal, subaccount: subaccount)
            return .object([("account_id", .string(Hex.encodePrefixed(id.bytes)))])
        default:
            throw Unsupported(reason: "unknown operation \(op)")
        }
    }

    func string(_ input: JSON, _ key: String) throws -> String {
        guard let s = input[key]?.stringValue else { throw BadInput(description: "missing string \"\(key)\"") }
        return s
    }

    func bytes(_ input: JSON, _ key: String) throws -> [UInt8] { try Hex.decode(try string(input, key)) }

    // MARK: RLP

    /// `"0x…"` is a byte string, an array is a list.
    static func rlpItem(_ json: JSON?) throws -> RLPItem {
        switch json {
        case .string(let s)?: return .bytes(try Hex.decode(s))
        case .array(let items)?: return .list(try items.map { try rlpItem($0) })
        default: throw BadInput(description: "an RLP item is a \"0x…\" string or an array")
        }
    }

    static func json(_ item: RLPItem) -> JSON {
        switch item {
        case .bytes(let b): return .string(Hex.encodePrefixed(b))
        case .list(let items): return .array(items.map(json))
        }
    }

    // MARK: Transactions

    /// The decoded fields of a signed transaction: quantities as decimal strings, bytes as `0x…`.
    static func json(_ tx: SignedTransaction) -> JSON {
        var fields: [String: JSON] = [
            "type": .integer(tx.type.rawValue),
            "chain_id": tx.transaction.chainID.map { .string(String($0)) } ?? .null,
            "nonce": .string(String(tx.transaction.nonce)),
            "gas": .string(String(tx.transaction.gas)),
            "to": tx.transaction.to.map { .string($0.lowercased) } ?? .null,
            "value": .string(tx.transaction.value.description),
            "data": .string(Hex.encodePrefixed(tx.transaction.data)),
            "hash": .string(Hex.encodePrefixed(tx.hash)),
            "v": .string(tx.v.description),
            "r": .string(tx.signature.r.description),
            "s": .string(tx.signature.s.description),
        ]
        switch tx.transaction {
        case .legacy(let t):
            fields["gas_price"] = .string(t.gasPrice.description)
        case .accessList(let t):
            fields["gas_price"] = .string(t.gasPrice.description)
            fields["access_list"] = json(t.accessList)
        case .dynamicFee(let t):
            fields["max_fee_per_gas"] = .string(t.maxFeePerGas.description)
            fields["max_priority_fee_per_gas"] = .string(t.maxPriorityFeePerGas.description)
            fields["access_list"] = json(t.accessList)
        }
        return .sortedObject(fields)
    }

    static func json(_ accessList: [AccessListEntry]) -> JSON {
        .array(
            accessList.map { entry in
                .object([
                    ("address", .string(entry.address.lowercased)),
                    ("storage_keys", .array(entry.storageKeys.map { .string(Hex.encodePrefixed($0.bigEndianBytes)) })),
                ])
            })
    }

    static func transaction(_ json: JSON) throws -> Transaction {
        func quantity(_ key: String) throws -> UInt256 {
            guard
                let text = json[key]?.stringValue
                    ?? json[key].flatMap({ if case .number(let n) = $0 { n } else { nil } }),
                let value = UInt256(decimal: text)
            else { throw BadInput(description: "tx.\(key) must be a decimal string") }
            return value
        }
        func small(_ key: String) throws -> UInt64 {
            guard let value = try quantity(key).uint64Value else { throw BadInput(description: "tx.\(key) too large") }
            return value
        }
        let to = try json["to"]?.stringValue.map { try Address(parsing: $0) }
        let data = try Hex.decode(json["data"]?.stringValue ?? "0x")
        var accessList: [AccessListEntry] = []
        for entry in json["access_list"]?.arrayValue ?? [] {
            let keys = try (entry["storage_keys"]?.arrayValue ?? []).map { key -> UInt256 in
                guard let hex = key.stringValue, let value = UInt256(bigEndian: try Hex.decode(hex)) else {
                    throw BadInput(description: "storage key")
                }
                return value
            }
            accessList.append(
                AccessListEntry(address: try Address(parsing: entry["address"]?.stringValue ?? ""), storageKeys: keys))
        }
        let chainID = json["chain_id"].flatMap { $0 == .null ? nil : $0.uint64 }
        switch json["type"]?.uint64 ?? 0 {
        case 0:
            return .legacy(
                LegacyTransaction(
                    chainID: chainID, nonce: try small("nonce"), gasPrice: try quantity("gas_price"),
                    gas: try small("gas"),
                    to: to, value: try quantity("value"), data: data))
        case 1:
            guard let chainID else { throw BadInput(description: "type 1 needs chain_id") }
            return .accessList(
                AccessListTransaction(
                    chainID: chainID, nonce: try small("nonce"), gasPrice: try quantity("gas_price"),
                    gas: try small("gas"),
                    to: to, value: try quantity("value"), data: data, accessList: accessList))
        case 2:
            guard let chainID else { throw BadInput(description: "type 2 needs chain_id") }
            return .dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: try small("nonce"),
                    maxPriorityFeePerGas: try quantity("max_priority_fee_per_gas"),
                    maxFeePerGas: try quantity("max_fee_per_gas"), gas: try small("gas"), to: to,
                    value: try quantity("value"), data: data, accessList: accessList))
        default:
            throw Unsupported(reason: "transaction type \(json["type"]?.jsonText ?? "?")")
        }
    }

    // MARK: Candid

    static func candidTypes(_ json: JSON?) throws -> [CandidType] {
        guard let list = json?.arrayValue else { throw BadInput(description: "types must be an array") }
        return try list.map { try CandidJSON.type($0) }
    }
}
