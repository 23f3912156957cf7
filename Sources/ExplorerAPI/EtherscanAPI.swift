import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTypes
import JSONCoding
import NativeContracts

/// Etherscan's API (`/api` and `/v2/api`) over a node: the module/action table, each parameter checked with
/// Etherscan's error shape, every number a decimal string (README, "Explorer APIs").
///
/// Reads go through the node's owners (``SandnetNode/chain``, a ledger snapshot for history); the `proxy` module
/// goes to the node's own JSON-RPC method table through ``rpc`` (a Swift call, no HTTP).
public struct EtherscanAPI: Sendable {
    public enum Version: Sendable { case v1, v2 }

    public let node: SandnetNode
    /// Runs one JSON-RPC request object in process and returns its response object (the `proxy` module).
    public let rpc: @Sendable (JSON) -> JSON?
    /// ETH's price in USD and BTC at a Unix time (the market simulator's), for `stats&action=ethprice`; nil: none.
    public let ethPrice: (@Sendable (UInt64) -> (usd: Double, btc: Double)?)?

    /// Most addresses in one `balancemulti` (Etherscan's 20).
    public static let maxBalanceAddresses = 20

    public init(
        node: SandnetNode, rpc: @escaping @Sendable (JSON) -> JSON?,
        ethPrice: (@Sendable (UInt64) -> (usd: Double, btc: Double)?)? = nil
    ) {
        self.node = node
        self.rpc = rpc
        self.ethPrice = ethPrice
    }

    /// The answer to one request. v2 requires `chainid` equal to the node's chain id; `apikey` is ignored.
    public func answer(_ query: EtherscanQuery, version: Version) -> EtherscanAnswer {
        do throws(EtherscanAnswer) {
            if version == .v2 {
                guard let text = query["chainid"], let id = UInt64(text), id == node.chainID else {
                    throw .notOK(EtherscanAnswer.unsupportedChain)
                }
            }
            guard query.parameters.count <= EtherscanQuery.maxParameters,
                query.parameters.allSatisfy({ $0.value.utf8.count <= EtherscanQuery.maxValueBytes })
            else {
                throw .notOK(
                    "Error! Too many or too long parameters: at most \(EtherscanQuery.maxParameters) of "
                        + "\(EtherscanQuery.maxValueBytes) bytes each")
            }
            let action = query["action"] ?? ""
            switch query["module"] ?? "" {
            case "account": return try account(action, query)
            case "proxy": return try proxy(action, query)
            case "gastracker":
                guard action == "gasoracle" else { throw .notOK(EtherscanAnswer.invalidAction) }
                return gasOracle()
            case "contract": return try contract(action, query)
            case "block":
                guard action == "getblocknobytime" else { throw .notOK(EtherscanAnswer.invalidAction) }
                return try blockByTime(query)
            case "stats": return try stats(action)
            default: throw .notOK(EtherscanAnswer.invalidModule)
            }
        } catch {
            return error
        }
    }

    // MARK: Parameters

    static func address(_ text: String?) throws(EtherscanAnswer) -> Address {
        guard let text, let address = try? Address(parsing: text.lowercased()) else {
            throw .notOK(EtherscanAnswer.invalidAddress)
        }
        return address
    }

    static func optionalAddress(_ text: String?) throws(EtherscanAnswer) -> Address? {
        guard let text, !text.isEmpty else { return nil }
        return try address(text)
    }

    /// `tag`: latest (default), earliest or pending; Etherscan's free tier answers only the latest.
    static func tag(_ text: String?) throws(EtherscanAnswer) -> BlockSelector {
        switch text?.lowercased() {
        case nil, "", "latest": return .latest
        case "earliest": return .earliest
        case "pending": return .pending
        default: throw .notOK("Error! Invalid tag: latest, earliest or pending")
        }
    }

    static func list(_ rows: [JSON]) -> EtherscanAnswer {
        rows.isEmpty ? .empty(EtherscanAnswer.noTransactions) : .ok(.array(rows))
    }

    // MARK: account

    func account(_ action: String, _ query: EtherscanQuery) throws(EtherscanAnswer) -> EtherscanAnswer {
        switch action {
        case "balance":
            let address = try Self.address(query["address"])
            return .ok(.string(try balance(address, query)))
        case "balancemulti":
            let texts = (query["address"] ?? "").split(separator: ",").map { String($0) }
            guard !texts.isEmpty else { throw .notOK(EtherscanAnswer.invalidAddress) }
            guard texts.count <= Self.maxBalanceAddresses else {
                throw .notOK("Error! Maximum of \(Self.maxBalanceAddresses) addresses per call")
            }
            var rows: [JSON] = []
            for text in texts {
                let address = try Self.address(text)
                rows.append(.object([("account", .string(text)), ("balance", .string(try balance(address, query)))]))
            }
            return .ok(.array(rows))
        case "txlist":
            let address = try Self.address(query["address"])
            let paging = try EtherscanPaging(query)
            let history = AddressHistory(ledger: node.snapshotOfLedger)
            guard let range = try history.blocks(from: paging.startBlock, to: paging.endBlock) else {
                return Self.list([])
            }
            let items = history.transactions(
                of: address, in: range, paging.sort == .ascending ? .ascending : .descending,
                limit: paging.rowsNeeded)
            let head = history.ledger.blockNumber
            let registry = history.ledger.nativeContracts
            return Self.list(
                paging.slice(items).map { EtherscanRows.transaction($0, head: head, registry: registry) })
        case "tokentx":
            let address = try Self.optionalAddress(query["address"])
            let token = try Self.optionalAddress(query["contractaddress"])
            guard address != nil || token != nil else { throw .notOK(EtherscanAnswer.invalidAddress) }
            let paging = try EtherscanPaging(query)
            let history = AddressHistory(ledger: node.snapshotOfLedger)
            guard let range = try history.blocks(from: paging.startBlock, to: paging.endBlock) else {
                return Self.list([])
            }
            let transfers = history.tokenTransfers(
                of: address, token: token, in: range, paging.sort == .ascending ? .ascending : .descending,
                limit: paging.rowsNeeded)
            let head = history.ledger.blockNumber
            let registry = history.ledger.nativeContracts
            return Self.list(
                paging.slice(transfers).map { EtherscanRows.tokenTransfer($0, head: head, registry: registry) })
        case "tokennfttx", "token1155tx":
            // Sandnet has no NFTs yet: the parameters are checked, the list is empty.
            let address = try Self.optionalAddress(query["address"])
            let token = try Self.optionalAddress(query["contractaddress"])
            guard address != nil || token != nil else { throw .notOK(EtherscanAnswer.invalidAddress) }
            _ = try EtherscanPaging(query)
            return Self.list([])
        case "txlistinternal":
            return try internalTransactions(query)
        case "tokenbalance":
            let token = try Self.address(query["contractaddress"])
            let holder = try Self.address(query["address"])
            _ = try Self.tag(query["tag"])
            let ledger = node.snapshotOfLedger
            guard let definition = ledger.nativeContracts.token(at: token) else { return .ok(.string("0")) }
            let slot = definition.profile.layout.balanceSlot(holder)
            return .ok(.string(ledger.storage(token, slot: slot).description))
        default:
            throw .notOK(EtherscanAnswer.invalidAction)
        }
    }

    func balance(_ address: Address, _ query: EtherscanQuery) throws(EtherscanAnswer) -> String {
        let selector = try Self.tag(query["tag"])
        do {
            return try node.chain.balance(of: address, at: selector).description
        } catch {
            throw .notOK("Error! \(error)")
        }
    }

    func internalTransactions(_ query: EtherscanQuery) throws(EtherscanAnswer) -> EtherscanAnswer {
        let history = AddressHistory(ledger: node.snapshotOfLedger)
        if let text = query["txhash"], !text.isEmpty {
            guard let hash = try? Hex.decodePrefixed(text), hash.count == 32 else {
                throw .notOK(EtherscanAnswer.invalidHash)
            }
            let transfers = history.internalTransfers(ofTransaction: hash) ?? []
            return Self.list(transfers.map { EtherscanRows.internalTransfer($0, byHash: true) })
        }
        let address = try Self.optionalAddress(query["address"])
        let paging = try EtherscanPaging(query)
        if address == nil && (query["startblock"] ?? "").isEmpty {
            throw .notOK(EtherscanAnswer.invalidAddress)
        }
        guard let range = try history.blocks(from: paging.startBlock, to: paging.endBlock) else {
            return Self.list([])
        }
        let transfers = history.internalTransfers(
            of: address, in: range, paging.sort == .ascending ? .ascending : .descending, limit: paging.rowsNeeded)
        return Self.list(paging.slice(transfers).map { EtherscanRows.internalTransfer($0, byHash: false) })
    }

    // MARK: proxy

    /// Etherscan's proxy actions and how their query parameters become JSON-RPC params.
    static let proxyActions: [String: [ProxyParameter]] = [
        "eth_blockNumber": [],
        "eth_getBlockByNumber": [.required("tag"), .flag("boolean")],
        "eth_getUncleByBlockNumberAndIndex": [.required("tag"), .required("index")],
        "eth_getBlockTransactionCountByNumber": [.required("tag")],
        "eth_getTransactionByHash": [.required("txhash")],
        "eth_getTransactionByBlockNumberAndIndex": [.required("tag"), .required("index")],
        "eth_getTransactionCount": [.required("address"), .tag],
        "eth_sendRawTransaction": [.required("hex")],
        "eth_getTransactionReceipt": [.required("txhash")],
        "eth_call": [.callObject, .tag],
        "eth_getCode": [.required("address"), .tag],
        "eth_getStorageAt": [.required("address"), .required("position"), .tag],
        "eth_gasPrice": [],
        "eth_estimateGas": [.callObject],
    ]

    enum ProxyParameter {
        case required(String)
        case flag(String)
        /// `tag`, default `latest`.
        case tag
        /// `to`, `data`, `value`, `gas`, `gasPrice`, `from` as one transaction object.
        case callObject
    }

    func proxy(_ action: String, _ query: EtherscanQuery) throws(EtherscanAnswer) -> EtherscanAnswer {
        guard let parameters = Self.proxyActions[action] else { throw .notOK(EtherscanAnswer.invalidAction) }
        var params: [JSON] = []
        for parameter in parameters {
            switch parameter {
            case .required(let name):
                guard let value = query[name], !value.isEmpty else { throw .notOK("Error! Missing \(name)") }
                params.append(.string(value))
            case .flag(let name):
                params.append(.bool((query[name] ?? "false").lowercased() == "true"))
            case .tag:
                params.append(.string(query["tag"].flatMap { $0.isEmpty ? nil : $0 } ?? "latest"))
            case .callObject:
                var members: [(String, JSON)] = []
                for name in ["from", "to", "data", "value", "gas", "gasPrice"] {
                    if let value = query[name], !value.isEmpty { members.append((name, .string(value))) }
                }
                params.append(.object(members))
            }
        }
        let id: JSON = query["id"].flatMap { UInt64($0) }.map { .int($0) } ?? .int(1)
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", id), ("method", .string(action)), ("params", .array(params)),
        ])
        guard let response = rpc(request) else { throw .notOK("Error! The node gave no answer") }
        return .rpc(response)
    }

    // MARK: gastracker

    /// `gasoracle`: prices in gwei with decimals, as Etherscan's (docs.etherscan.io gasoracle): safe, propose and
    /// fast are the next base fee plus the 25th, 60th and 90th percentile tips of the last 20 blocks (1 gwei when
    /// they hold no transactions); `gasUsedRatio` the last 5 blocks' ratios, comma-joined.
    func gasOracle() -> EtherscanAnswer {
        let history = try? node.chain.feeHistory(count: 20, newest: .latest, percentiles: [25, 60, 90])
        let head = node.chain.blockNumber
        let nextBase = history?.baseFeePerGas.last ?? .zero
        var tips: [UInt256] = [.zero, .zero, .zero]
        var counted = 0
        if let history, let rewards = history.reward {
            for (i, row) in rewards.enumerated() where history.gasUsedRatio[i] > 0 && row.count == 3 {
                for p in 0..<3 { tips[p] = tips[p] + row[p] }
                counted += 1
            }
        }
        let gwei = UInt256(1_000_000_000 as UInt64)
        if counted == 0 {
            tips = [gwei, gwei, gwei]
        } else {
            tips = tips.map { $0 / UInt256(UInt64(counted)) }
        }
        let ratios = (history?.gasUsedRatio ?? []).suffix(5).map { String($0) }.joined(separator: ",")
        return .ok(
            .object([
                ("LastBlock", .string(String(head))), ("SafeGasPrice", .string(Self.gwei(nextBase + tips[0]))),
                ("ProposeGasPrice", .string(Self.gwei(nextBase + tips[1]))),
                ("FastGasPrice", .string(Self.gwei(nextBase + tips[2]))),
                ("suggestBaseFee", .string(Self.gwei(nextBase))), ("gasUsedRatio", .string(ratios)),
            ]))
    }

    /// Wei as gwei with up to 9 decimals, trailing zeros dropped (`"0.496839934"`, `"1"`).
    static func gwei(_ wei: UInt256) -> String {
        let (whole, fraction) = wei.quotientAndRemainder(dividingBy: UInt256(1_000_000_000 as UInt64))
        guard !fraction.isZero else { return whole.description }
        var digits = fraction.description
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return whole.description + "." + digits
    }

    // MARK: contract

    func contract(_ action: String, _ query: EtherscanQuery) throws(EtherscanAnswer) -> EtherscanAnswer {
        switch action {
        case "getabi":
            let address = try Self.address(query["address"])
            guard let contract = node.snapshotOfLedger.nativeContracts.contract(at: address) else {
                throw .notOK(EtherscanAnswer.notVerified)
            }
            return .ok(.string(NativeABI.abi(contract).serialized))
        case "getsourcecode":
            let address = try Self.address(query["address"])
            let contract = node.snapshotOfLedger.nativeContracts.contract(at: address)
            let name: String
            let source: String
            switch contract {
            case .token(let token)?:
                name = token.symbol
                source =
                    "// Sandnet native contract: \(token.name) (\(token.symbol)), profile \(token.profile.rawValue). "
                    + "It runs as Swift code in the node (Sources/NativeContracts), not as EVM bytecode, so there is "
                    + "no Solidity source to show; the ABI is the functions and events the native code handles."
            case .multicall3?:
                name = "Multicall3"
                source =
                    "// Sandnet native contract: Multicall3 (github.com/mds1/multicall). It runs as Swift code in "
                    + "the node (Sources/NativeContracts), not as EVM bytecode."
            case nil:
                name = ""
                source = ""
            }
            let abi = contract.map { NativeABI.abi($0).serialized } ?? EtherscanAnswer.notVerified
            return .ok(
                .array([
                    .object([
                        ("SourceCode", .string(source)), ("ABI", .string(abi)), ("ContractName", .string(name)),
                        ("CompilerVersion", .string(contract == nil ? "" : "sandnet-native")),
                        ("OptimizationUsed", .string(contract == nil ? "" : "0")),
                        ("Runs", .string(contract == nil ? "" : "0")),
                        ("ConstructorArguments", .string("")), ("EVMVersion", .string("Default")),
                        ("Library", .string("")), ("LicenseType", .string(contract == nil ? "" : "Unknown")),
                        ("Proxy", .string("0")), ("Implementation", .string("")), ("SwarmSource", .string("")),
                    ])
                ]))
        default:
            throw .notOK(EtherscanAnswer.invalidAction)
        }
    }

    // MARK: block

    /// `getblocknobytime`: the last block at or before `timestamp` (`closest=before`) or the first at or after it
    /// (`after`); block timestamps never decrease, so a binary search over the chain.
    func blockByTime(_ query: EtherscanQuery) throws(EtherscanAnswer) -> EtherscanAnswer {
        guard let text = query["timestamp"], let target = UInt64(text) else {
            throw .notOK("Error! Invalid timestamp: Unix seconds from 0 to \(UInt64.max)")
        }
        let before: Bool
        switch query["closest"]?.lowercased() {
        case "before": before = true
        case "after": before = false
        default: throw .notOK("Error! Invalid closest: before or after")
        }
        let ledger = node.snapshotOfLedger
        let head = ledger.blockNumber
        func time(of n: UInt64) -> UInt64 { ledger.block(number: n)?.header.timestamp ?? 0 }
        // A chain of 2^64 blocks cannot exist: head + 1 never overflows.
        // The first block whose timestamp is > time (before) or >= time (after).
        var low: UInt64 = 0
        var high = head + 1
        while low < high {
            let mid = low + (high - low) / 2
            let t = time(of: mid)
            if before ? t <= target : t < target { low = mid + 1 } else { high = mid }
        }
        if before {
            guard low > 0 else { throw .notOK("Error! No closest block found") }
            return .ok(.string(String(low - 1)))
        }
        guard low <= head else { throw .notOK("Error! No closest block found") }
        return .ok(.string(String(low)))
    }

    // MARK: stats

    func stats(_ action: String) throws(EtherscanAnswer) -> EtherscanAnswer {
        switch action {
        case "ethsupply":
            // Ether in existence: the genesis allocation and developer grants, less what EIP-1559 burned.
            let ledger = node.snapshotOfLedger
            return .ok(.string((ledger.totalSupply - ledger.burned).description))
        case "ethprice":
            let now = node.chainTime
            guard let price = ethPrice?(now) else { throw .notOK("Error! No ETH price: the market simulator is off") }
            return .ok(
                .object([
                    ("ethbtc", .string(String(format6(price.btc)))), ("ethbtc_timestamp", .string(String(now))),
                    ("ethusd", .string(String(format6(price.usd)))), ("ethusd_timestamp", .string(String(now))),
                ]))
        default:
            throw .notOK(EtherscanAnswer.invalidAction)
        }
    }

    /// Up to 6 decimals, trailing zeros dropped (Etherscan's `"ethusd":"1645.23"`).
    func format6(_ value: Double) -> String {
        guard value.isFinite, value >= 0 else { return "0" }
        let scaled = (value * 1_000_000).rounded()
        guard scaled < 9e18 else { return String(Int64(value)) }
        let micro = Int64(scaled)
        var text = String(micro / 1_000_000)
        var fraction = String(micro % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return text
    }
}
