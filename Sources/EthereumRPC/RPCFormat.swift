import ABICoding
import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC

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
            if let baseFee, let tip = tx.effectiveTip(baseFee: baseFee) {
                price = baseFee + tip
            } else {
                price = tx.maxFeePerGas
            }
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
            m.append(
                (
                    "accessList",
                    .array(
                        tx.accessList.map { entry in
                            .object([
                                ("address", address(entry.address)),
                                ("storageKeys", .array(entry.storageKeys.map { data($0) })),
                            ])
                        })
                ))
        }
        if let chainID = tx.chainID { m.append(("chainId", q(chainID))) }
        m.append(("v", q(tx.v)))
        if tx.type != 0 { m.append(("yParity", q(tx.v))) }
        m.append(("r", q(tx.r)))
        m.append(("s", q(tx.s)))
        m.append(("data", data(tx.data)))
        return .object(m)
    }

    /// A signed transaction as geth marshals `types.Transaction` (eth_signTransaction's `tx`): its own fields and
    /// hash, nothing about a block or sender.
    static func signedTransaction(_ tx: LedgerTransaction) -> JSON {
        guard case .object(let members) = transaction(tx, block: nil, index: nil, baseFee: nil) else {
            preconditionFailure("a transaction is an object")
        }
        let dropped: Set<String> = ["blockHash", "blockNumber", "blockTimestamp", "from", "transactionIndex", "data"]
        return .object(members.filter { key, _ in !dropped.contains(key) && !(key == "gasPrice" && tx.type == 2) })
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

    /// A log; `index` is its position in its receipt, `logIndex` its position in the block.
    static func log(_ l: Log, receipt: Receipt, block: Block, index: Int, removed: Bool = false) -> JSON {
        let logIndex = block.receipts.prefix(receipt.transactionIndex).reduce(0) { $0 + $1.logs.count } + index
        return .object([
            ("address", address(l.address)), ("topics", .array(l.topics.map { data($0) })), ("data", data(l.data)),
            ("blockNumber", q(block.number)), ("blockHash", data(block.hash)),
            ("blockTimestamp", q(block.header.timestamp)), ("transactionHash", data(receipt.transactionHash)),
            ("transactionIndex", q(receipt.transactionIndex)), ("logIndex", q(logIndex)), ("removed", .bool(removed)),
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

/// Public JSON shapes for transports (WebSocket notifications).
public enum NodeFormat {
    /// A block header as `newHeads` subscribers receive it.
    public static func header(_ block: Block) -> JSON { .object(Format.header(block)) }

    /// A transaction as `newPendingTransactions` subscribers with `true` receive it: geth's pool transaction
    /// object (no block, no index).
    public static func pendingTransaction(_ tx: LedgerTransaction) -> JSON {
        Format.transaction(tx, block: nil, index: nil, baseFee: nil)
    }

    /// A log as `logs` subscribers receive it (`removed: true` for a log whose block a reorg removed).
    public static func log(_ entry: LogEntry) -> JSON { Format.log(entry) }

    /// The filter argument of `eth_subscribe("logs", filter)`, read as eth_getLogs reads its filter (geth's texts);
    /// a block range is refused, as geth refuses it for subscriptions.
    public static func subscriptionFilter(_ json: JSON?) throws -> LogFilter {
        guard let json, !json.isNull else { return LogFilter() }
        let filter = try Arg.logFilter(json)
        if filter.fromBlock != nil || filter.toBlock != nil || filter.blockHash != nil {
            throw RPCError.invalidParams("invalid argument 1: a logs subscription takes no block range")
        }
        guard !filter.exceedsQueryLimit else { throw NodeError.tooManyFilterCriteriaPerPosition }
        return filter
    }
}

// MARK: - Shapes of the node's typed results

extension Format {
    static func transaction(_ lookup: TransactionLookup) -> JSON {
        transaction(
            lookup.transaction, block: lookup.block, index: lookup.index, baseFee: lookup.block?.header.baseFeePerGas)
    }

    static func log(_ entry: LogEntry) -> JSON {
        log(entry.log, receipt: entry.receipt, block: entry.block, index: entry.index, removed: entry.removed)
    }

    /// eth_feeHistory's object; a history of no blocks has only its first three members, as geth answers.
    /// eth_getProof's `AccountResult` (geth's field order): an account the state trie does not hold has zero
    /// hashes; each storage key is echoed as given, a 32-byte one as data and any other as a quantity.
    static func proof(_ p: StateProof, address: Address, keyLengths: [Int]) -> JSON {
        let zero = [UInt8](repeating: 0, count: 32)
        let account = p.account
        return .object([
            ("address", Format.address(address)),
            ("accountProof", .array(p.accountProof.map { data($0) })),
            ("balance", q(account?.balance ?? .zero)),
            ("codeHash", data(account?.codeHash ?? zero)),
            ("nonce", q(account?.nonce ?? 0)),
            ("storageHash", data(account?.storage.root ?? zero)),
            (
                "storageProof",
                .array(
                    zip(p.storage, keyLengths).map { slot, length in
                        .object([
                            ("key", length == 32 ? data(slot.slot.bigEndianBytes) : q(slot.slot)),
                            ("value", q(slot.value)),
                            ("proof", .array(slot.proof.map { data($0) })),
                        ])
                    })
            ),
        ])
    }

    /// geth's `accessListResult`: `accessList`, `error` only when the execution failed, `gasUsed`.
    static func accessListResult(_ result: AccessListResult) -> JSON {
        var fields: [(String, JSON)] = [("accessList", accessList(result.accessList))]
        if let error = result.error { fields.append(("error", .string(error))) }
        fields.append(("gasUsed", q(result.gasUsed)))
        return .object(fields)
    }

    static func accessList(_ list: [AccessListEntry]) -> JSON {
        .array(
            list.map { entry in
                .object([
                    ("address", address(entry.address)),
                    ("storageKeys", .array(entry.storageKeys.map { data($0.bigEndianBytes) })),
                ])
            })
    }

    /// An eth_simulateV1 block: the block as eth_getBlockByNumber shows it plus `calls`, each
    /// `{returnData, logs, gasUsed, maxUsedGas, status, error?}` (geth's `simCallResult`). With `traceTransfers`,
    /// each ETH movement of a successful call is a log of 0xEeee…EeEe (`Transfer(from, to, value)`) before the
    /// call's own logs; `logIndex` counts through the block, synthetic logs included.
    static func simulatedBlock(_ simulated: SimulatedBlock, full: Bool, traceTransfers: Bool) -> JSON {
        guard case .object(var fields) = block(simulated.block, full: full) else { return .null }
        let b = simulated.block
        var logIndex = 0
        var calls: [JSON] = []
        for (i, call) in simulated.calls.enumerated() {
            let receipt = b.receipts[i]
            var logs: [Log] = []
            if call.failure == nil {
                if traceTransfers {
                    logs += call.transfers.map { t in
                        Log(
                            address: transferLogAddress,
                            topics: [
                                transferTopic, ABI.word(t.from), ABI.word(t.to),
                            ],
                            data: t.amount.bigEndianBytes)
                    }
                }
                logs += receipt.logs
            }
            let logJSON: [JSON] = logs.map { l in
                defer { logIndex += 1 }
                return .object([
                    ("address", address(l.address)), ("topics", .array(l.topics.map { data($0) })),
                    ("data", data(l.data)), ("blockNumber", q(b.number)), ("blockHash", data(b.hash)),
                    ("blockTimestamp", q(b.header.timestamp)),
                    ("transactionHash", data(receipt.transactionHash)), ("transactionIndex", q(i)),
                    ("logIndex", q(logIndex)), ("removed", .bool(false)),
                ])
            }
            var result: [(String, JSON)] = [
                ("returnData", data(call.returnData)), ("logs", .array(logJSON)), ("gasUsed", q(call.gasUsed)),
                ("maxUsedGas", q(call.maxUsedGas)), ("status", q(UInt64(call.failure == nil ? 1 : 0))),
            ]
            switch call.failure {
            case nil: break
            case .reverted(let revert)?:
                let message = RevertReason.decode(revert).map { "execution reverted: \($0)" } ?? "execution reverted"
                result.append(
                    ("error", .object([("message", .string(message)), ("code", .number("3")), ("data", data(revert))])))
            case .invalidOpcode?, .outOfGas?:
                var message = call.failure == .invalidOpcode ? "invalid opcode: INVALID" : "out of gas"
                if call.gasCapped { message += " (gas limit was capped by the RPC server's global gas cap)" }
                result.append(("error", .object([("message", .string(message)), ("code", .number("-32015"))])))
            }
            calls.append(.object(result))
        }
        fields.append(("calls", .array(calls)))
        return .object(fields)
    }

    /// geth's `traceTransfers` pseudo-contract and the ERC-20 `Transfer(address,address,uint256)` topic.
    static let transferLogAddress = Address([UInt8](repeating: 0xee, count: 20))!
    static let transferTopic = ERC20Event.transferTopic

    /// EIP-7910's fork object in geth's field order; the maps' keys sorted, as Go marshals maps.
    static func forkConfig(_ c: ForkConfig) -> JSON {
        func map(_ m: [String: Address]) -> JSON { .object(m.keys.sorted().map { ($0, address(m[$0])) }) }
        return .object([
            ("activationTime", .number(String(c.activationTime))),
            (
                "blobSchedule",
                .object([
                    ("target", .number(String(c.blobSchedule.target))), ("max", .number(String(c.blobSchedule.max))),
                    ("baseFeeUpdateFraction", .number(String(c.blobSchedule.baseFeeUpdateFraction))),
                ])
            ),
            ("chainId", q(c.chainID)), ("forkId", data(c.forkID)), ("precompiles", map(c.precompiles)),
            ("systemContracts", map(c.systemContracts)),
        ])
    }

    static func feeHistory(_ history: FeeHistory) -> JSON {
        guard !history.gasUsedRatio.isEmpty else {
            return .object([
                ("oldestBlock", q(history.oldestBlock)), ("baseFeePerGas", .array([])), ("gasUsedRatio", .array([])),
            ])
        }
        var members: [(String, JSON)] = [
            ("oldestBlock", q(history.oldestBlock)),
            ("baseFeePerGas", .array(history.baseFeePerGas.map { q($0) })),
            ("gasUsedRatio", .array(history.gasUsedRatio.map { .number(String($0)) })),
            ("baseFeePerBlobGas", .array(history.baseFeePerGas.map { _ in q(UInt64(1)) })),
            ("blobGasUsedRatio", .array(history.gasUsedRatio.map { _ in .number("0") })),
        ]
        if let reward = history.reward { members.append(("reward", .array(reward.map { .array($0.map { q($0) }) }))) }
        return .object(members)
    }

    /// The `pending` block as geth shows it (`RPCMarshalBlock`, then hash, nonce and miner set to null): the block
    /// sealed on a copy of the ledger, its transactions with their pending block and index.
    static func pendingBlock(_ pending: PendingBlock, full: Bool) -> JSON {
        guard case .object(let members) = block(pending.block, full: full) else {
            preconditionFailure("a block is an object")
        }
        return .object(
            members.map { key, value in ["hash", "nonce", "miner"].contains(key) ? (key, .null) : (key, value) })
    }

    static func block(_ view: BlockView, full: Bool) -> JSON {
        switch view {
        case .sealed(let b): return block(b, full: full)
        case .pending(let p): return pendingBlock(p, full: full)
        }
    }
}
