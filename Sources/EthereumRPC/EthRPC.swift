import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC

/// The `eth` namespace: arguments converted with geth's texts, the node's typed API called, results shaped. Inline
/// (``RPCExecution``) only where the answer never reaches the chain (its lock is held while a block is sealed and
/// written; history is read from the store).
enum EthRPC {
    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.registerParameterless("eth_chainId") { Format.q(node.chainID) }
        d.registerParameterless("eth_syncing", runs: .inline) { .bool(false) }
        d.registerParameterless("eth_mining") { .bool(node.chain.isMining) }
        d.registerParameterless("eth_hashrate", runs: .inline) { Format.q(UInt64(0)) }
        d.registerParameterless("eth_coinbase") { Format.address(node.chain.coinbase) }
        d.registerParameterless("eth_accounts", runs: .inline) {
            .array(node.devAccounts.map { Format.address($0.address) })
        }
        d.registerParameterless("eth_blockNumber") { Format.q(node.blockNumber) }
        d.registerParameterless("eth_gasPrice") { Format.q(node.chain.gasPrice) }
        d.registerParameterless("eth_maxPriorityFeePerGas") { Format.q(node.chain.maxPriorityFeePerGas) }
        d.registerParameterless("eth_blobBaseFee", runs: .inline) { Format.q(UInt64(1)) }
        d.registerParameterless("eth_config") {
            let config = node.chain.forkConfig
            return .object([
                ("current", Format.forkConfig(config.current)), ("next", config.next.map(Format.forkConfig) ?? .null),
                ("last", config.last.map(Format.forkConfig) ?? .null),
            ])
        }
        d.register("eth_feeHistory") { p in
            try p.atMost(3)
            let count = try p.required(0, Arg.number)
            let newest = try p.required(1, Arg.block)
            let percentiles: [Double] =
                try p.optional(2) { v in
                    guard let list = v.arrayValue else {
                        throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type []float64")
                    }
                    return try list.map { item in
                        guard case .number(let n) = item, let d = Double(n) else {
                            throw ArgumentError("invalid reward percentile")
                        }
                        return d
                    }
                } ?? []
            return Format.feeHistory(try node.chain.feeHistory(count: count, newest: newest, percentiles: percentiles))
        }
        registerState(node, into: &d)
        registerTransactions(node, into: &d)
        registerBlocks(node, into: &d)
        registerLogs(node, into: &d)
    }

    static func registerState(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register("eth_getBalance") { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            return Format.q(try node.chain.balance(of: address, at: try p.optional(1, Arg.block)))
        }
        d.register("eth_getTransactionCount") { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            return Format.q(try node.chain.transactionCount(of: address, at: try p.optional(1, Arg.block)))
        }
        d.register("eth_getCode") { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            return Format.data(try node.chain.code(at: address, block: try p.optional(1, Arg.block)))
        }
        d.register("eth_getStorageAt") { p in
            try p.atMost(3)
            let address = try p.required(0, Arg.address)
            let key = try Arg.storageKey(try p.required(1, Arg.string))
            return Format.data(try node.chain.storage(at: address, key: key, block: try p.optional(2, Arg.block)))
        }
        d.register("eth_getProof") { p in
            try p.atMost(3)
            let address = try p.required(0, Arg.address)
            // An explicit null is an empty list (Go decodes it into a nil slice); only a missing argument is refused.
            guard p.count > 1 else { throw RPCError.invalidParams("missing value for required argument 1") }
            let texts: [String] =
                try p.optional(1) { v in
                    guard let list = v.arrayValue else {
                        throw ArgumentError("json: cannot unmarshal \(v.typeName) into Go value of type []string")
                    }
                    return try list.map(Arg.string)
                } ?? []
            // geth counts the keys before it reads them.
            guard texts.count <= NodeChain.maxProofKeys else {
                throw NodeError.tooManyStorageKeys(limit: NodeChain.maxProofKeys, got: texts.count)
            }
            let keys = try texts.map(Arg.proofStorageKey)
            let proof = try node.chain.proof(of: address, slots: keys.map(\.slot), at: try p.optional(2, Arg.block))
            return Format.proof(proof, address: address, keyLengths: keys.map(\.length))
        }
        d.register("eth_createAccessList") { p in
            try p.atMost(3)
            let request = try Arg.request(p)
            if let overrides = p[2], !overrides.isNull {
                throw RPCError.invalidParams(
                    "invalid argument 2: state overrides are not supported by eth_createAccessList")
            }
            return Format.accessListResult(try node.chain.createAccessList(request, at: try p.optional(1, Arg.block)))
        }
        d.register("eth_simulateV1") { p in
            try p.atMost(2)
            let request = try p.required(0, Arg.simulation)
            let blocks = try node.chain.simulate(request, at: try p.optional(1, Arg.block))
            return .array(
                blocks.map {
                    Format.simulatedBlock(
                        $0, full: request.returnFullTransactions, traceTransfers: request.traceTransfers)
                })
        }
        d.register("eth_call") { p in
            try p.atMost(3)
            let request = try Arg.request(p)
            return Format.data(try node.chain.call(request, at: try p.optional(1, Arg.block)))
        }
        d.register("eth_estimateGas") { p in
            try p.atMost(3)
            let request = try Arg.request(p)
            return Format.q(try node.chain.estimateGas(request))
        }
    }

    static func registerTransactions(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register("eth_sendRawTransaction") { p in
            try p.atMost(1)
            return Format.data(try node.submit(raw: try p.required(0, Arg.data)))
        }
        d.register("eth_sendTransaction") { p in
            try p.atMost(1)
            let request = try Arg.request(p)
            guard let from = request.from else { throw RPCError.invalidParams("missing from") }
            return Format.data(try node.submitter.sendTransaction(request, from: from))
        }
        d.register("eth_signTransaction") { p in
            try p.atMost(1)
            let request = try Arg.request(p)
            guard let from = request.from else { throw RPCError.invalidParams("missing from") }
            let signed = try node.submitter.signTransaction(request, from: from)
            return .object([("raw", Format.data(signed.encoding)), ("tx", Format.signedTransaction(signed))])
        }
        // Anvil's answer: every pool transaction (pending, then queued), as unmined transaction objects.
        d.registerParameterless("eth_pendingTransactions") {
            let content = node.pool.content
            return .array(
                (content.pending + content.queued).map { Format.transaction($0, block: nil, index: nil, baseFee: nil) })
        }
        d.register("eth_getRawTransactionByBlockNumberAndIndex") { p in
            try p.atMost(2)
            let selector = try p.required(0, Arg.block)
            let index = try p.required(1, Arg.quantity)
            return node.chain.transaction(inBlock: selector, index: index).map { Format.data($0.transaction.encoding) }
                ?? .null
        }
        d.register("eth_getRawTransactionByBlockHashAndIndex") { p in
            try p.atMost(2)
            let hash = try p.required(0, Arg.hash)
            let index = try p.required(1, Arg.quantity)
            return node.chain.transaction(inBlock: .hash(hash), index: index).map {
                Format.data($0.transaction.encoding)
            }
                ?? .null
        }
        d.register("eth_getRawTransactionByHash") { p in
            let hash = try p.required(0, Arg.hash)
            return node.chain.transaction(hash: hash).map { Format.data($0.transaction.encoding) } ?? .null
        }
        d.register("eth_sign") { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let message = try p.required(1, Arg.data)
            return Format.data(try node.accounts.signPersonalMessage(message, address: address))
        }
        d.register("personal_sign") { p in
            try p.atMost(3)
            let message = try p.required(0, Arg.data)
            let address = try p.required(1, Arg.address)
            return Format.data(try node.accounts.signPersonalMessage(message, address: address))
        }
        d.register(["eth_signTypedData_v4", "eth_signTypedData"]) { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            guard let raw = p[1] else { throw RPCError.invalidParams("missing value for required argument 1") }
            // A JSON text (what most clients send) is parsed once; a JSON object is read as it arrived, with its
            // exact numbers: no printing and re-parsing under other number rules.
            let signature = try node.accounts.signTypedData(
                {
                    if case .string(let text) = raw { return try TypedData(json: Array(text.utf8)) }
                    return try TypedData(document: raw)
                }, address: address)
            return Format.data(signature)
        }
        d.register("eth_getTransactionByHash") { p in
            try p.atMost(1)
            return node.chain.transaction(hash: try p.required(0, Arg.hash)).map(Format.transaction) ?? .null
        }
        d.register("eth_getTransactionReceipt") { p in
            try p.atMost(1)
            return node.chain.receipt(hash: try p.required(0, Arg.hash)).map {
                Format.receipt($0.receipt, block: $0.block)
            }
                ?? .null
        }
        d.register("eth_getTransactionByBlockHashAndIndex") { p in
            let hash = try p.required(0, Arg.hash)
            let index = try p.required(1, Arg.quantity)
            return node.chain.transaction(inBlock: .hash(hash), index: index).map(Format.transaction) ?? .null
        }
        d.register("eth_getTransactionByBlockNumberAndIndex") { p in
            let selector = try p.required(0, Arg.block)
            let index = try p.required(1, Arg.quantity)
            return node.chain.transaction(inBlock: selector, index: index).map(Format.transaction) ?? .null
        }
    }

    static func registerBlocks(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register("eth_getBlockByNumber") { p in
            try p.atMost(2)
            let selector = try p.required(0, Arg.block)
            let full = try p.optional(1, Arg.bool) ?? false
            return node.chain.block(selector).map { Format.block($0, full: full) } ?? .null
        }
        d.register("eth_getBlockByHash") { p in
            try p.atMost(2)
            let hash = try p.required(0, Arg.hash)
            let full = try p.optional(1, Arg.bool) ?? false
            return node.chain.block(hash: hash).map { Format.block($0, full: full) } ?? .null
        }
        d.register("eth_getBlockTransactionCountByNumber") { p in
            node.chain.transactionCount(inBlock: try p.required(0, Arg.block)).map { Format.q($0) } ?? .null
        }
        d.register("eth_getBlockTransactionCountByHash") { p in
            node.chain.block(hash: try p.required(0, Arg.hash)).map { Format.q($0.transactions.count) } ?? .null
        }
        d.register("eth_getUncleCountByBlockNumber") { p in
            node.chain.hasBlock(try p.required(0, Arg.block)) ? Format.q(UInt64(0)) : .null
        }
        d.register("eth_getUncleCountByBlockHash") { p in
            node.chain.block(hash: try p.required(0, Arg.hash)) == nil ? .null : Format.q(UInt64(0))
        }
        d.register("eth_getBlockReceipts") { p in
            guard let (receipts, block) = node.chain.receipts(inBlock: try p.required(0, Arg.block)) else {
                return .null
            }
            return .array(receipts.map { Format.receipt($0, block: block) })
        }
    }

    static func registerLogs(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register("eth_getLogs") { p in
            try p.atMost(1)
            return .array(try node.chain.logs(try p.required(0, Arg.logFilter)).map(Format.log))
        }
        d.register("eth_newFilter") { p in
            try p.atMost(1)
            return Format.q(try node.filters.newFilter(try p.required(0, Arg.logFilter)))
        }
        d.registerParameterless("eth_newBlockFilter") { Format.q(try node.filters.newBlockFilter()) }
        d.register("eth_newPendingTransactionFilter") { p in
            try p.atMost(1)
            return Format.q(try node.filters.newPendingTransactionFilter())
        }
        d.register("eth_uninstallFilter") { p in
            try p.atMost(1)
            return .bool(node.filters.uninstall(try p.required(0, Arg.quantity)))
        }
        d.register("eth_getFilterChanges") { p in
            try p.atMost(1)
            switch try node.filters.changes(try p.required(0, Arg.quantity)) {
            case .hashes(let hashes): return .array(hashes.map { Format.data($0) })
            case .logs(let logs): return .array(logs.map(Format.log))
            }
        }
        d.register("eth_getFilterLogs") { p in
            try p.atMost(1)
            return .array(try node.filters.logs(try p.required(0, Arg.quantity)).map(Format.log))
        }
    }
}
