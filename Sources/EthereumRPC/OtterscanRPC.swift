import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTypes
import ExplorerAPI
import JSONCoding
import JSONRPC

/// Otterscan's `ots_` namespace and `erigon_getHeaderByNumber` (otterscan docs/custom-jsonrpc.md; Anvil's
/// `crates/anvil/src/eth/otterscan/api.rs` for the shapes), answered from the chain without an EVM (README,
/// "Explorer APIs", says what is exact and what is synthesized).
///
/// Otterscan sends block numbers as plain JSON numbers (`ots_getBlockDetails [1]`, foundry-rs/foundry#7433): these
/// methods, and only these, accept them beside quantities and tags.
enum OtterscanRPC {
    /// The API level Otterscan requires (otterscan `src/params.ts` `MIN_API_LEVEL = 8`; Anvil reports 8).
    static let apiLevel = 8
    /// Most transactions one `ots_getBlockTransactions` page or search page may ask for.
    static let maxPageSize = 1_000

    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.registerParameterless("ots_getApiLevel") { .int(apiLevel) }
        d.register("erigon_getHeaderByNumber") { p in
            try p.atMost(1)
            let selector = try p.required(0, block)
            guard case .sealed(let b)? = node.chain.block(selector) else { return .null }
            return Format.block(b, full: false)
        }
        d.register("ots_getBlockDetails") { p in
            try p.atMost(1)
            guard case .sealed(let b)? = node.chain.block(try p.required(0, block)) else { return .null }
            return details(b)
        }
        d.register("ots_getBlockDetailsByHash") { p in
            try p.atMost(1)
            return node.chain.block(hash: try p.required(0, Arg.hash)).map(details) ?? .null
        }
        d.register("ots_getBlockTransactions") { p in
            try p.atMost(3)
            guard case .sealed(let b)? = node.chain.block(try p.required(0, block)) else { return .null }
            let page = try p.required(1, Arg.number)
            let size = try p.required(2, pageSize)
            return blockTransactions(b, page: page, size: size)
        }
        d.register("ots_hasCode") { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let selector = try p.optional(1, block) ?? .latest
            return .bool(!(try node.chain.code(at: address, block: selector)).isEmpty)
        }
        d.register("ots_getTransactionError") { p in
            try p.atMost(1)
            let hash = try p.required(0, Arg.hash)
            let ledger = node.snapshotOfLedger
            guard let (receipt, b) = ledger.receipt(hash) else { return .null }
            guard !receipt.status else { return Format.data([]) }
            return Format.data(revertData(ledger, b, receipt.transactionIndex))
        }
        d.register("ots_getInternalOperations") { p in
            try p.atMost(1)
            let hash = try p.required(0, Arg.hash)
            let history = AddressHistory(ledger: node.snapshotOfLedger)
            guard let transfers = history.internalTransfers(ofTransaction: hash) else { return .array([]) }
            return .array(
                transfers.map {
                    .object([
                        ("type", .int(0)), ("from", Format.address($0.from)), ("to", Format.address($0.to)),
                        ("value", Format.q($0.amount)),
                    ])
                })
        }
        d.register("ots_searchTransactionsBefore") { p in
            try p.atMost(3)
            let address = try p.required(0, Arg.address)
            let number = try p.required(1, blockNumber)
            let size = try p.required(2, pageSize)
            return search(AddressHistory(ledger: node.snapshotOfLedger).search(address, before: number, pageSize: size))
        }
        d.register("ots_searchTransactionsAfter") { p in
            try p.atMost(3)
            let address = try p.required(0, Arg.address)
            let number = try p.required(1, blockNumber)
            let size = try p.required(2, pageSize)
            return search(AddressHistory(ledger: node.snapshotOfLedger).search(address, after: number, pageSize: size))
        }
        d.register("ots_getTransactionBySenderAndNonce") { p in
            try p.atMost(2)
            let sender = try p.required(0, Arg.address)
            let nonce = try p.required(1, Arg.number)
            let item = AddressHistory(ledger: node.snapshotOfLedger).transaction(sender: sender, nonce: nonce)
            return item.map { Format.data($0.transaction.hash) } ?? .null
        }
        d.register("ots_getContractCreator") { p in
            try p.atMost(1)
            let address = try p.required(0, Arg.address)
            guard let item = AddressHistory(ledger: node.snapshotOfLedger).creation(of: address) else { return .null }
            return .object([
                ("hash", Format.data(item.transaction.hash)), ("creator", Format.address(item.transaction.sender)),
            ])
        }
        d.register("ots_traceTransaction") { p in
            try p.atMost(1)
            let hash = try p.required(0, Arg.hash)
            let ledger = node.snapshotOfLedger
            guard let (receipt, b) = ledger.receipt(hash) else { return .null }
            return trace(ledger, b, receipt.transactionIndex)
        }
    }

    // MARK: Arguments

    /// A block as Otterscan sends it: a plain JSON number, a quantity, a tag or a hash.
    static func block(_ v: JSON) throws -> BlockSelector {
        if case .number = v { return .number(try Arg.number(v)) }
        return try Arg.block(v)
    }

    /// A block number as a plain JSON number or a quantity.
    static func blockNumber(_ v: JSON) throws -> UInt64 { try Arg.number(v) }

    static func pageSize(_ v: JSON) throws -> Int {
        let n = try Arg.number(v)
        guard n >= 1, n <= UInt64(maxPageSize) else {
            throw ArgumentError("page size \(n) out of range: from 1 to \(maxPageSize)")
        }
        return Int(n)
    }

    // MARK: Shapes

    /// The block object without its transactions: `transactionCount` instead, `logsBloom` null (Erigon's and
    /// Anvil's shape).
    static func blockObject(_ b: Block) -> [(String, JSON)] {
        guard case .object(let members) = Format.block(b, full: false) else { preconditionFailure("an object") }
        var out = members.filter { $0.0 != "transactions" }.map { ($0.0, $0.0 == "logsBloom" ? JSON.null : $0.1) }
        out.append(("transactionCount", .int(b.transactions.count)))
        return out
    }

    /// Σ gas used × effective gas price over the block's receipts.
    static func totalFees(_ b: Block) -> UInt256 {
        b.receipts.reduce(UInt256.zero) { $0 + UInt256($1.gasUsed) * $1.effectiveGasPrice }
    }

    static func details(_ b: Block) -> JSON {
        .object([
            ("block", .object(blockObject(b))),
            (
                "issuance",
                .object([
                    ("blockReward", Format.q(UInt64(0))), ("uncleReward", Format.q(UInt64(0))),
                    ("issuance", Format.q(UInt64(0))),
                ])
            ),
            ("totalFees", Format.q(totalFees(b))),
        ])
    }

    /// Page `page` (from 0) of `size` transactions, inputs cut to their 4-byte selector, receipts without logs.
    static func blockTransactions(_ b: Block, page: UInt64, size: Int) -> JSON {
        let (start, overflow) = page.multipliedReportingOverflow(by: UInt64(size))
        let indices: Range<Int> =
            overflow || start >= UInt64(b.transactions.count)
            ? 0..<0 : Int(start)..<min(b.transactions.count, Int(start) + size)
        var full = blockObject(b)
        let txs: [JSON] = indices.map { i in
            guard
                case .object(let members) = Format.transaction(
                    b.transactions[i], block: b, index: i, baseFee: b.header.baseFeePerGas)
            else { preconditionFailure("an object") }
            return .object(
                members.map { key, value in
                    key == "input" || key == "data"
                        ? (key, Format.data(Array(b.transactions[i].data.prefix(4)))) : (key, value)
                })
        }
        full.append(("transactions", .array(txs)))
        let receipts: [JSON] = indices.map { i in
            guard case .object(let members) = Format.receipt(b.receipts[i], block: b) else {
                preconditionFailure("an object")
            }
            return .object(members.map { ($0.0, $0.0 == "logs" || $0.0 == "logsBloom" ? JSON.null : $0.1) })
        }
        return .object([("fullblock", .object(full)), ("receipts", .array(receipts))])
    }

    static func search(_ page: AddressHistory.SearchPage) -> JSON {
        let txs = page.items.map {
            Format.transaction($0.transaction, block: $0.block, index: $0.index, baseFee: $0.block.header.baseFeePerGas)
        }
        let receipts: [JSON] = page.items.map { item in
            guard case .object(let members) = Format.receipt(item.receipt, block: item.block) else {
                preconditionFailure("an object")
            }
            return .object(members + [("timestamp", Format.q(item.block.header.timestamp))])
        }
        return .object([
            ("txs", .array(txs)), ("receipts", .array(receipts)), ("firstPage", .bool(page.firstPage)),
            ("lastPage", .bool(page.lastPage)),
        ])
    }

    /// A failed transaction's revert data: its call run again over the state before its block (receipts keep no
    /// output). Exact when no earlier transaction of the same block changed what the call reads.
    static func revertData(_ ledger: Ledger, _ b: Block, _ index: Int) -> [UInt8] {
        let tx = b.transactions[index]
        guard b.number > 0 else { return [] }
        let outcome = ledger.call(
            CallRequest(from: tx.sender, to: tx.to, value: tx.value, data: tx.data, gas: tx.gasLimit),
            atBlock: b.number - 1)
        if case .reverted(let data)? = outcome.failure { return data }
        return []
    }

    /// The call tree Sandnet knows: the transaction's own call (depth 0) and the ETH its native contracts paid out
    /// (depth 1). Outputs are not kept, so `output` is `0x`; no opcode-level trace exists without an EVM.
    static func trace(_ ledger: Ledger, _ b: Block, _ index: Int) -> JSON {
        let tx = b.transactions[index]
        let receipt = b.receipts[index]
        var entries: [JSON] = [
            .object([
                ("type", .string(tx.to == nil ? "CREATE" : "CALL")), ("depth", .int(0)),
                ("from", Format.address(tx.sender)), ("to", Format.address(tx.to ?? receipt.contractAddress)),
                ("value", Format.q(tx.value)), ("input", Format.data(tx.data)), ("output", Format.data([])),
            ])
        ]
        let history = AddressHistory(ledger: ledger)
        for transfer in history.internalTransfers(ofTransaction: tx.hash) ?? [] {
            entries.append(
                .object([
                    ("type", .string("CALL")), ("depth", .int(1)), ("from", Format.address(transfer.from)),
                    ("to", Format.address(transfer.to)), ("value", Format.q(transfer.amount)),
                    ("input", Format.data([])), ("output", Format.data([])),
                ]))
        }
        return .array(entries)
    }
}
