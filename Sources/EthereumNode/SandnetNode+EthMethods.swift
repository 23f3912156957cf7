import ByteCoding
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import Foundation
import JSONCoding
import JSONRPC
import KeccakHashing

extension SandnetNode {
    /// Resolves a block selector to a number, or throws geth's "header not found"-style error.
    func resolve(_ selector: BlockSelector?, _ chain: Ledger) throws -> UInt64? {
        switch selector ?? .latest {
        case .latest, .pending: return chain.blockNumber
        case .earliest: return 0
        case .safe: return chain.blockNumber >= 32 ? chain.blockNumber - 32 : 0
        case .finalized: return chain.blockNumber >= 64 ? chain.blockNumber - 64 : 0
        case .number(let n): return n <= chain.blockNumber ? n : nil
        case .hash(let h): return chain.block(hash: h)?.number
        }
    }

    /// State reads at a block: unknown blocks are geth's "header not found" (-32000).
    func stateBlock(_ selector: BlockSelector?, _ chain: Ledger) throws -> UInt64? {
        if case .pending? = selector { return nil }
        guard let n = try resolve(selector, chain) else { throw RPCError.server("header not found") }
        return n == chain.blockNumber ? nil : n
    }

    func registerEthMethods(into d: inout RPCDispatcher) {
        let config = configuration
        d.registerParameterless("web3_clientVersion") {
            return .string(config.clientVersion)
        }
        d.register("web3_sha3") { p in
            try p.atMost(1)
            return Format.data(Keccak256.hash(try p.required(0, Arg.data)))
        }
        d.registerParameterless("net_version") {
            return .string(String(config.chain.chainID))
        }
        d.registerParameterless("net_listening") {
            return .bool(true)
        }
        d.registerParameterless("net_peerCount") {
            return Format.q(UInt64(0))
        }
        d.registerParameterless("eth_chainId") {
            return Format.q(config.chain.chainID)
        }
        d.registerParameterless("eth_syncing") {
            return .bool(false)
        }
        d.registerParameterless("eth_mining") { [unowned self] in
            return .bool(miningMode != .manual)
        }
        d.registerParameterless("eth_hashrate") {
            return Format.q(UInt64(0))
        }
        d.registerParameterless("eth_coinbase") {
            return Format.address(config.chain.coinbase)
        }
        d.registerParameterless("eth_accounts") { [unowned self] in
            return .array(devAccounts.map { Format.address($0.address) })
        }
        d.registerParameterless("eth_blockNumber") { [unowned self] in
            return Format.q(withLedger { $0.blockNumber })
        }
        d.registerParameterless("eth_gasPrice") { [unowned self] in
            // A base fee set near 2^256 − 1 (anvil_setNextBlockBaseFeePerGas) saturates instead of wrapping.
            return Format.q(withLedger { chain in
                let (price, overflow) = chain.nextBaseFee.addingReportingOverflow(suggestedTip(chain))
                return overflow ? UInt256.max : price
            })
        }
        d.registerParameterless("eth_maxPriorityFeePerGas") { [unowned self] in
            return Format.q(withLedger { suggestedTip($0) })
        }
        d.registerParameterless("eth_blobBaseFee") {
            return Format.q(UInt64(1))
        }
        d.register("eth_feeHistory") { [unowned self] p in try feeHistory(p) }
        d.register("eth_getBalance") { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let selector = try p.optional(1, Arg.block)
            return try withLedger { chain in Format.q(chain.account(address, atBlock: try stateBlock(selector, chain)).balance) }
        }
        d.register("eth_getTransactionCount") { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let selector = try p.optional(1, Arg.block)
            return try withLedger { chain in
                if case .pending? = selector { return Format.q(chain.pendingNonce(address)) }
                return Format.q(chain.account(address, atBlock: try stateBlock(selector, chain)).nonce)
            }
        }
        d.register("eth_getCode") { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let selector = try p.optional(1, Arg.block)
            return try withLedger { chain in Format.data(chain.account(address, atBlock: try stateBlock(selector, chain)).code) }
        }
        d.register("eth_getStorageAt") { [unowned self] p in
            try p.atMost(3)
            _ = try p.required(0, Arg.address)
            _ = try Arg.storageKey(try p.required(1, Arg.string))
            let selector = try p.optional(2, Arg.block)
            _ = try withLedger { chain in try stateBlock(selector, chain) }
            // EVM-less: storage is always empty.
            return Format.data([UInt8](repeating: 0, count: 32))
        }
        d.register("eth_call") { [unowned self] p in
            try p.atMost(3)
            let request = try p.required(0, CallRequest.init)
            let selector = try p.optional(1, Arg.block)
            try withLedger { chain in
                _ = try stateBlock(selector, chain)
                try checkCall(request, chain)
            }
            // EVM-less: no code runs, so every call returns empty data (geth returns 0x for code-less targets).
            return .string("0x")
        }
        d.register("eth_estimateGas") { [unowned self] p in
            try p.atMost(3)
            let request = try p.required(0, CallRequest.init)
            try withLedger { chain in try checkCall(request, chain) }
            let needed = request.gasNeeded
            if let cap = request.gas, cap < needed {
                throw RPCError.server("gas required exceeds allowance (\(cap))")
            }
            return Format.q(needed)
        }
        d.register("eth_sendRawTransaction") { [unowned self] p in
            try p.atMost(1)
            let raw = try p.required(0, Arg.data)
            return Format.data(try submit(raw: raw))
        }
        d.register("eth_sendTransaction") { [unowned self] p in
            try p.atMost(1)
            let request = try p.required(0, CallRequest.init)
            guard let from = request.from else { throw RPCError.invalidParams("missing from") }
            guard let key = keys[from] ?? (from == faucetAddress ? faucetKey : nil) else {
                throw RPCError.server("unknown account")
            }
            return Format.data(try sendFromKey(key, from: from, request: request))
        }
        d.register("eth_getRawTransactionByHash") { [unowned self] p in
            let hash = try p.required(0, Arg.hash)
            return withLedger { $0.transaction(hash).map { Format.data($0.0.encoding) } ?? .null }
        }
        d.register("eth_sign") { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let message = try p.required(1, Arg.data)
            return try personalSign(message, address)
        }
        d.register("personal_sign") { [unowned self] p in
            try p.atMost(3)
            let message = try p.required(0, Arg.data)
            let address = try p.required(1, Arg.address)
            return try personalSign(message, address)
        }
        d.register(["eth_signTypedData_v4", "eth_signTypedData"]) { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            guard let raw = p[1] else { throw RPCError.invalidParams("missing value for required argument 1") }
            guard let key = keys[address] else { throw RPCError.server("unknown account") }
            do {
                // A JSON text (what most clients send) is parsed once; a JSON object is read as it arrived, with
                // its exact numbers: no printing and re-parsing under other number rules.
                let typed: TypedData
                if case .string(let text) = raw {
                    typed = try TypedData(json: Array(text.utf8))
                } else {
                    typed = try TypedData(document: raw)
                }
                return Format.data(try typed.sign(privateKey: key).bytes)
            } catch {
                throw RPCError.invalidParams("invalid argument 1: \(error)")
            }
        }
        d.register("eth_getTransactionByHash") { [unowned self] p in
            try p.atMost(1)
            let hash = try p.required(0, Arg.hash)
            return withLedger { chain in
                guard let (tx, loc) = chain.transaction(hash) else { return .null }
                let block = loc.flatMap { chain.block(number: $0.blockNumber) }
                return Format.transaction(tx, block: block, index: loc?.index, baseFee: block?.header.baseFeePerGas)
            }
        }
        d.register("eth_getTransactionReceipt") { [unowned self] p in
            try p.atMost(1)
            let hash = try p.required(0, Arg.hash)
            return withLedger { chain in chain.receipt(hash).map { Format.receipt($0.0, block: $0.1) } ?? .null }
        }
        d.register("eth_getBlockByNumber") { [unowned self] p in
            try p.atMost(2)
            let selector = try p.required(0, Arg.block)
            let full = try p.optional(1, Arg.bool) ?? false
            return try withLedger { chain in
                if case .pending = selector { return pendingBlock(chain, full: full) }
                guard let n = try resolve(selector, chain), let block = chain.block(number: n) else { return .null }
                return Format.block(block, full: full)
            }
        }
        d.register("eth_getBlockByHash") { [unowned self] p in
            try p.atMost(2)
            let hash = try p.required(0, Arg.hash)
            let full = try p.optional(1, Arg.bool) ?? false
            return withLedger { $0.block(hash: hash).map { Format.block($0, full: full) } ?? .null }
        }
        d.register("eth_getBlockTransactionCountByNumber") { [unowned self] p in
            let selector = try p.required(0, Arg.block)
            return try withLedger { chain in
                if case .pending = selector { return Format.q(chain.pool.count) }
                guard let n = try resolve(selector, chain), let b = chain.block(number: n) else { return .null }
                return Format.q(b.transactions.count)
            }
        }
        d.register("eth_getBlockTransactionCountByHash") { [unowned self] p in
            let hash = try p.required(0, Arg.hash)
            return withLedger { $0.block(hash: hash).map { Format.q($0.transactions.count) } ?? .null }
        }
        d.register("eth_getUncleCountByBlockNumber") { [unowned self] p in
            let selector = try p.required(0, Arg.block)
            return try withLedger { chain in try resolve(selector, chain) == nil ? .null : Format.q(UInt64(0)) }
        }
        d.register("eth_getUncleCountByBlockHash") { [unowned self] p in
            let hash = try p.required(0, Arg.hash)
            return withLedger { $0.block(hash: hash) == nil ? .null : Format.q(UInt64(0)) }
        }
        d.register("eth_getTransactionByBlockHashAndIndex") { [unowned self] p in
            let hash = try p.required(0, Arg.hash)
            let index = try p.required(1, Arg.quantity)
            return withLedger { chain in
                guard let b = chain.block(hash: hash), index < b.transactions.count else { return .null }
                return Format.transaction(b.transactions[Int(index)], block: b, index: Int(index), baseFee: b.header.baseFeePerGas)
            }
        }
        d.register("eth_getTransactionByBlockNumberAndIndex") { [unowned self] p in
            let selector = try p.required(0, Arg.block)
            let index = try p.required(1, Arg.quantity)
            return try withLedger { chain in
                guard let n = try resolve(selector, chain), let b = chain.block(number: n), index < b.transactions.count
                else { return .null }
                return Format.transaction(b.transactions[Int(index)], block: b, index: Int(index), baseFee: b.header.baseFeePerGas)
            }
        }
        d.register("eth_getBlockReceipts") { [unowned self] p in
            let selector = try p.required(0, Arg.block)
            return try withLedger { chain in
                guard let n = try resolve(selector, chain), let b = chain.block(number: n) else { return .null }
                return .array(b.receipts.map { Format.receipt($0, block: b) })
            }
        }
        d.register("eth_getLogs") { [unowned self] p in
            try p.atMost(1)
            let filter = try p.required(0, Self.logFilter)
            try Self.checkQueryLimit(filter)
            return .array(try withLedger { chain in try logs(filter, chain) })
        }
        d.register("eth_newFilter") { [unowned self] p in
            try p.atMost(1)
            let filter = try p.required(0, Self.logFilter)
            try Self.checkQueryLimit(filter)
            let head = withLedger { $0.blockNumber }
            let now = clock()
            return Format.q(try filters.withLock { try $0.install(.logs(filter), head: head, now: now) })
        }
        d.registerParameterless("eth_newBlockFilter") { [unowned self] in
            let now = clock()
            return Format.q(try filters.withLock { try $0.install(.blocks, head: 0, now: now) })
        }
        d.register("eth_newPendingTransactionFilter") { [unowned self] p in
            try p.atMost(1)
            let now = clock()
            return Format.q(try filters.withLock { try $0.install(.pending, head: 0, now: now) })
        }
        d.register("eth_uninstallFilter") { [unowned self] p in
            try p.atMost(1)
            let id = try p.required(0, Arg.quantity)
            return .bool(filters.withLock { $0.uninstall(id) })
        }
        d.register("eth_getFilterChanges") { [unowned self] p in
            try p.atMost(1)
            let id = try p.required(0, Arg.quantity)
            let now = clock()
            let head = withLedger { $0.blockNumber }
            guard let changes = filters.withLock({ $0.poll(id, head: head, now: now) }) else {
                throw RPCError.server("filter not found")
            }
            switch changes.kind {
            case .blocks, .pending: return .array(changes.hashes.map { Format.data($0) })
            case .logs(var f):
                // The blocks mined since the last poll, at most the eth_getLogs range.
                let last = changes.cursor
                guard last < head else { return .array([]) }
                f.fromBlock = .number(max(last + 1, head - min(head, Self.maxLogRange)))
                f.toBlock = .number(head)
                return .array(try withLedger { chain in try logs(f, chain) })
            }
        }
        d.register("eth_getFilterLogs") { [unowned self] p in
            try p.atMost(1)
            let id = try p.required(0, Arg.quantity)
            let now = clock()
            guard let entry = filters.withLock({ $0.entry(id, now: now) }), case .logs(let f) = entry.kind else {
                throw RPCError.server("filter not found")
            }
            return .array(try withLedger { chain in try logs(f, chain) })
        }
        d.registerParameterless("txpool_status") { [unowned self] in
            return withLedger { chain in
                let split = chain.pool.split { chain.account($0).nonce }
                return .object([("pending", Format.q(split.pending.count)), ("queued", Format.q(split.queued.count))])
            }
        }
        d.registerParameterless("txpool_content") { [unowned self] in
            return txpool { tx, _ in Format.transaction(tx, block: nil, index: nil, baseFee: nil) }
        }
        d.registerParameterless("txpool_inspect") { [unowned self] in
            return txpool { tx, _ in
                .string("\(tx.to?.lowercased ?? "contract creation"): \(tx.value) wei + \(tx.gasLimit) gas × \(tx.maxFeePerGas) wei")
            }
        }
        d.register("sandnet_faucet") { [unowned self] p in
            // The same rules as POST /api/claim (cooldown per address and per client IP); more than the payout
            // only where developer methods are served.
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let amount = try p.optional(1, Arg.uint256)
            let payout = config.faucetAmount
            if let amount, amount > payout, !config.devMethodsEnabled {
                throw RPCError.invalidParams(
                    "invalid argument 1: amount \(amount) wei exceeds the faucet payout of \(payout) wei; larger "
                        + "amounts need developer methods (--allow-dev-methods)")
            }
            return Format.data(try faucet.claim(address: address, amount: amount, clientIP: p.client.address))
        }
    }

    func txpool(_ render: (LedgerTransaction, Ledger) -> JSON) -> JSON {
        withLedger { chain in
            let split = chain.pool.split { chain.account($0).nonce }
            func group(_ txs: [LedgerTransaction]) -> JSON {
                var bySender: [String: [(String, JSON)]] = [:]
                for tx in txs { bySender[tx.sender.checksummed, default: []].append((String(tx.nonce), render(tx, chain))) }
                return .object(bySender.keys.sorted().map { ($0, .object(bySender[$0]!)) })
            }
            return .object([("pending", group(split.pending)), ("queued", group(split.queued))])
        }
    }

    /// Stateful checks geth applies to eth_call/eth_estimateGas with explicit fees and value.
    func checkCall(_ request: CallRequest, _ chain: Ledger) throws {
        if request.to == nil && request.data.count > chain.config.maxInitCodeSize {
            throw LedgerError.maxInitCodeSizeExceeded(size: request.data.count, limit: chain.config.maxInitCodeSize)
        }
        let baseFee = chain.nextBaseFee
        if let maxFee = request.maxFeePerGas {
            if let tip = request.maxPriorityFeePerGas, tip > maxFee {
                throw LedgerError.tipAboveFeeCap
            }
            if maxFee < baseFee && !maxFee.isZero {
                throw LedgerError.feeCapBelowBaseFee(sender: request.from ?? .zero, maxFee: maxFee, baseFee: baseFee)
            }
        }
        if let from = request.from, !request.value.isZero {
            let balance = chain.account(from).balance
            if balance < request.value { throw RPCError.server("insufficient funds for transfer") }
        }
    }

    func personalSign(_ message: [UInt8], _ address: Address) throws -> JSON {
        guard let key = keys[address] ?? (address == faucetAddress ? faucetKey : nil) else {
            throw RPCError.server("unknown account")
        }
        return Format.data(try PersonalMessage.sign(message, privateKey: key).bytes)
    }

    func pendingBlock(_ chain: Ledger, full: Bool) -> JSON {
        let head = chain.head
        let txs = chain.pool.executable(baseFee: chain.nextBaseFee) { chain.account($0).nonce }
        var members = Format.header(head).filter { !["hash", "nonce", "miner"].contains($0.0) }
        members = members.map { key, value in
            switch key {
            case "number": return (key, Format.q(head.number + 1))
            case "parentHash": return (key, Format.data(head.hash))
            case "baseFeePerGas": return (key, Format.q(chain.nextBaseFee))
            case "timestamp": return (key, Format.q(chain.nextBlockTimestamp(now: clock())))
            case "gasUsed": return (key, Format.q(txs.reduce(UInt64(0)) { $0 + $1.gasUsed }))
            default: return (key, value)
            }
        }
        members += [("hash", .null), ("nonce", .null), ("miner", .null), ("size", Format.q(UInt64(0)))]
        members.append(("transactions", .array(txs.map {
            full ? Format.transaction($0, block: nil, index: nil, baseFee: chain.nextBaseFee) : Format.data($0.hash)
        })))
        members += [("uncles", .array([])), ("withdrawals", .array([]))]
        return .object(members)
    }

    /// The longest block range eth_getLogs scans (Alchemy's and Infura's 100,000 blocks / -32005).
    static let maxLogRange: UInt64 = 100_000

    /// A filter criterion as geth's `FilterCriteria.UnmarshalJSON` reads it, with its texts: `address` is one
    /// address or an array of them, `topics` an array (at most 4) of null, a topic or an array (at most 1,000) of
    /// topics and nulls.
    static func logFilter(_ v: JSON) throws -> LogFilter {
        guard case .object = v else { throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type filters.FilterCriteria") }
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
            do { f.addresses = [try Arg.address(v["address"]!)] } catch { throw ArgumentError("invalid address: \(error)") }
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
            throw ArgumentError("json: cannot unmarshal \(other.typeName) into Go struct field input.topics of type []interface {}")
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

    /// geth's `--rpc.logquerylimit` (1,000 addresses, 1,000 topics per position), checked after parsing.
    static func checkQueryLimit(_ filter: LogFilter) throws(RPCError) {
        if filter.addresses.count > LogFilter.queryLimit
            || filter.topics.contains(where: { ($0?.count ?? 0) > LogFilter.queryLimit })
        {
            throw RPCError.server("exceed max addresses or topics per search position")
        }
    }

    func logs(_ filter: LogFilter, _ chain: Ledger) throws -> [JSON] {
        var blocks: [Block] = []
        if let hash = filter.blockHash {
            guard let b = chain.block(hash: hash) else { throw RPCError.server("unknown block") }
            blocks = [b]
        } else {
            let from = try resolve(filter.fromBlock ?? .latest, chain) ?? chain.blockNumber
            let to = try resolve(filter.toBlock ?? .latest, chain) ?? chain.blockNumber
            guard from <= to else { throw RPCError.invalidParams("invalid block range params") }
            guard to - from <= Self.maxLogRange else {
                throw RPCError(code: -32005, message: "query exceeds max block range \(Self.maxLogRange)")
            }
            blocks = (from...to).compactMap { chain.block(number: $0) }
        }
        var out: [JSON] = []
        for block in blocks {
            for receipt in block.receipts {
                for (i, log) in receipt.logs.enumerated() where filter.matches(log) {
                    out.append(Format.log(log, receipt: receipt, block: block, index: i))
                }
            }
        }
        return out
    }

    /// eth_feeHistory with real reward percentiles: each block's transactions sorted by effective tip and
    /// weighted by gas used (geth's `processBlock`).
    func feeHistory(_ p: RPCParams) throws -> JSON {
        try p.atMost(3)
        let count = try p.required(0, Arg.number)
        let newest = try p.required(1, Arg.block)
        let percentiles: [Double] = try p.optional(2) { v in
            guard let list = v.arrayValue else { throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type []float64") }
            return try list.map { item in
                guard case .number(let n) = item, let d = Double(n) else { throw ArgumentError("invalid reward percentile") }
                return d
            }
        } ?? []
        for (i, pct) in percentiles.enumerated() {
            if pct < 0 || pct > 100 { throw RPCError.invalidParams("invalid reward percentile: \(pct)") }
            if i > 0 && pct <= percentiles[i - 1] {
                throw RPCError.invalidParams("invalid reward percentile: #\(i - 1):\(percentiles[i - 1]) >= #\(i):\(pct)")
            }
        }
        return try withLedger { chain -> JSON in
            guard let last = try resolve(newest, chain) else { throw RPCError.server("header not found") }
            let blocks = min(count, 1_024, last + 1)
            guard blocks > 0 else { return .object([("oldestBlock", Format.q(UInt64(0))), ("baseFeePerGas", .array([])), ("gasUsedRatio", .array([]))]) }
            let first = last + 1 - blocks
            var baseFees: [JSON] = []
            var ratios: [JSON] = []
            var rewards: [JSON] = []
            for n in first...last {
                guard let b = chain.block(number: n) else { continue }
                baseFees.append(Format.q(b.header.baseFeePerGas))
                ratios.append(.number(String(Double(b.header.gasUsed) / Double(b.header.gasLimit))))
                if !percentiles.isEmpty {
                    let tips = zip(b.transactions, b.receipts).map {
                        ($0.0.effectiveTip(baseFee: b.header.baseFeePerGas) ?? .zero, $0.1.gasUsed)
                    }.sorted { $0.0 < $1.0 }
                    var row: [JSON] = []
                    if tips.isEmpty {
                        row = percentiles.map { _ in Format.q(UInt64(0)) }
                    } else {
                        let total = tips.reduce(UInt64(0)) { $0 + $1.1 }
                        var index = 0
                        var cumulative = tips[0].1
                        for pct in percentiles {
                            let threshold = UInt64(Double(total) * pct / 100)
                            while cumulative < threshold && index < tips.count - 1 {
                                index += 1
                                cumulative += tips[index].1
                            }
                            row.append(Format.q(tips[index].0))
                        }
                    }
                    rewards.append(.array(row))
                }
            }
            // The base fee of the block after `last`.
            if last == chain.blockNumber {
                baseFees.append(Format.q(chain.nextBaseFee))
            } else if let next = chain.block(number: last + 1) {
                baseFees.append(Format.q(next.header.baseFeePerGas))
            }
            var members: [(String, JSON)] = [
                ("oldestBlock", Format.q(first)), ("baseFeePerGas", .array(baseFees)), ("gasUsedRatio", .array(ratios)),
                ("baseFeePerBlobGas", .array(baseFees.map { _ in Format.q(UInt64(1)) })),
                ("blobGasUsedRatio", .array(ratios.map { _ in .number("0") })),
            ]
            if !percentiles.isEmpty { members.append(("reward", .array(rewards))) }
            return .object(members)
        }
    }
}
