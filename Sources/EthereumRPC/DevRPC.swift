import EthereumLedger
import EthereumNode
import JSONCoding
import JSONRPC

/// Anvil's developer methods under their Anvil, Hardhat and evm names.
enum DevRPC {
    /// - Parameter snapshots: what evm_snapshot and evm_revert act on (the node's chain, or a network's chains).
    static func register(_ node: SandnetNode, snapshots: any SnapshotControls, into d: inout RPCDispatcher) {
        d.register(["anvil_setBalance", "hardhat_setBalance"]) { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            try node.dev.setBalance(address, try p.required(1, Arg.uint256))
            return .null
        }
        d.register(["anvil_setNonce", "hardhat_setNonce", "evm_setAccountNonce"]) { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            try node.dev.setNonce(address, try p.required(1, Arg.number))
            return .null
        }
        d.register(["anvil_setCode", "hardhat_setCode"]) { p in
            let address = try p.required(0, Arg.address)
            try node.dev.setCode(address, try p.required(1, Arg.data))
            return .null
        }
        d.register(["anvil_mine", "hardhat_mine"]) { p in
            try p.atMost(2)
            let count = try p.optional(0, Arg.number) ?? 1
            try node.dev.mine(blocks: count, interval: try p.optional(1, Arg.number))
            return .null
        }
        d.register(["evm_mine", "anvil_mine_detailed"]) { p in
            try p.atMost(1)
            var count: UInt64 = 1
            var timestamp: UInt64?
            if let arg = p[0] {
                if case .object = arg {
                    if let t = arg["timestamp"], !t.isNull { timestamp = try p.required(0) { _ in try Arg.number(t) } }
                    if let b = arg["blocks"], !b.isNull { count = try p.required(0) { _ in try Arg.number(b) } }
                } else {
                    timestamp = try p.required(0, Arg.number)
                }
            }
            try node.dev.mine(blocks: count, timestamp: timestamp)
            return .string("0x0")
        }
        d.registerParameterless("evm_snapshot", "anvil_snapshot") { Format.q(try snapshots.snapshot()) }
        d.register(["evm_revert", "anvil_revert"]) { p in
            .bool(try snapshots.revert(to: try p.required(0, Arg.quantity)))
        }
        d.register(["evm_increaseTime", "anvil_increaseTime"]) { p in
            Format.q(try node.parameters.increaseTime(by: try p.required(0, Arg.number)))
        }
        d.register(["evm_setNextBlockTimestamp", "anvil_setNextBlockTimestamp"]) { p in
            try node.parameters.setNextBlockTimestamp(try p.required(0, Arg.number))
            return .null
        }
        d.register(["evm_setAutomine", "anvil_setAutomine"]) { p in
            try node.dev.setAutomine(try p.required(0, Arg.bool))
            return .null
        }
        d.registerParameterless("anvil_getAutomine", "hardhat_getAutomine") { .bool(node.dev.isAutomine) }
        d.register(["evm_setIntervalMining", "anvil_setIntervalMining"]) { p in
            try node.dev.setIntervalMining(try p.required(0, Arg.number))
            return .null
        }
        d.register(["anvil_dropTransaction", "hardhat_dropTransaction"]) { p in
            let hash = try p.required(0, Arg.hash)
            return node.pool.dropTransaction(hash) ? Format.data(hash) : .null
        }
        d.register("anvil_reorg") { p in
            let depth = try p.required(0, Arg.number)
            let requeue =
                try p.optional(1) { v -> Bool in
                    if let b = v.boolValue { return b }
                    return !(v.arrayValue?.isEmpty ?? true)
                } ?? false
            try node.dev.reorg(depth: depth, requeue: requeue)
            return .null
        }
        d.register(["anvil_setStorageAt", "hardhat_setStorageAt"]) { p in
            try p.atMost(3)
            let address = try p.required(0, Arg.address)
            let key = try p.required(1) { v in try Arg.storageKey(try Arg.string(v)) }
            let value = try p.required(2) { v in try Arg.storageKey(try Arg.string(v)) }
            node.dev.setStorage(address, key: key, value: value)
            return .bool(true)
        }
        // anvil_dealERC20(holder, token, amount[, {emitTransfer}]): Anvil's argument order.
        d.register(["anvil_dealERC20", "hardhat_dealERC20", "anvil_setERC20Balance"]) { p in
            try p.atMost(4)
            let holder = try p.required(0, Arg.address)
            let token = try p.required(1, Arg.address)
            let amount = try p.required(2, Arg.uint256)
            let emit = try p.optional(3) { v in try v["emitTransfer"].map(Arg.bool) ?? false } ?? false
            _ = try node.parameters.token(token.checksummed)
            let hash = try node.dev.dealToken(token, holder: holder, amount: amount, emitTransfer: emit)
            return hash.map(Format.data) ?? .null
        }
        // anvil_setERC20Allowance(owner, spender, token, amount): Anvil's argument order.
        d.register("anvil_setERC20Allowance") { p in
            try p.atMost(4)
            let owner = try p.required(0, Arg.address)
            let spender = try p.required(1, Arg.address)
            let token = try p.required(2, Arg.address)
            _ = try node.parameters.token(token.checksummed)
            try node.dev.setTokenAllowance(
                token, owner: owner, spender: spender, amount: try p.required(3, Arg.uint256))
            return .null
        }
        d.register(["anvil_setNextBlockBaseFeePerGas", "hardhat_setNextBlockBaseFeePerGas"]) { p in
            node.parameters.setNextBlockBaseFee(try p.required(0, Arg.uint256))
            return .null
        }
        d.registerParameterless("anvil_dumpState", "hardhat_dumpState") { Format.data(StateDump.dump(node).bytes) }
        d.register(["anvil_loadState", "hardhat_loadState"]) { p in
            try StateDump.load(try p.required(0, Arg.data), into: node)
            return .bool(true)
        }
        registerImpersonation(node, into: &d)
        registerPoolAndQueries(node, into: &d)
        registerChainControls(node, into: &d)
        d.registerParameterless("anvil_nodeInfo") {
            let info = node.dev.nodeInfo
            // Anvil's NodeInfo (alloy `rpc-types-anvil`): the timestamp and chain id as JSON numbers, the fees as
            // quantities; Sandnet runs Osaka rules from genesis, orders by fees and never forks.
            return .object([
                ("currentBlockNumber", Format.q(info.blockNumber)),
                ("currentBlockTimestamp", .number(String(info.blockTimestamp))),
                ("currentBlockHash", Format.data(info.blockHash)),
                ("hardFork", .string("osaka")),
                ("transactionOrder", .string("fees")),
                (
                    "environment",
                    .object([
                        ("baseFee", Format.q(info.baseFee)), ("chainId", .number(String(info.chainID))),
                        ("gasLimit", Format.q(info.gasLimit)), ("gasPrice", Format.q(node.chain.gasPrice)),
                    ])
                ),
                (
                    "forkConfig",
                    .object([("forkUrl", .null), ("forkBlockNumber", .null), ("forkRetryBackoff", .null)])
                ),
                ("network", .string("sandnet")),
            ])
        }
    }

    /// Impersonation (Anvil's answers: null), and eth_sendUnsignedTransaction, which sends from any address: a
    /// developer method, never served where dev methods are off.
    static func registerImpersonation(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register(["anvil_impersonateAccount", "hardhat_impersonateAccount"]) { p in
            try p.atMost(1)
            try node.impersonation.impersonate(try p.required(0, Arg.address))
            return .null
        }
        d.register(["anvil_stopImpersonatingAccount", "hardhat_stopImpersonatingAccount"]) { p in
            try p.atMost(1)
            node.impersonation.stop(try p.required(0, Arg.address))
            return .null
        }
        d.register("anvil_autoImpersonateAccount") { p in
            try p.atMost(1)
            node.impersonation.setAutomatic(try p.required(0, Arg.bool))
            return .null
        }
        d.register("eth_sendUnsignedTransaction") { p in
            try p.atMost(1)
            let request = try Arg.request(p)
            guard let from = request.from else { throw RPCError.invalidParams("missing from") }
            return Format.data(try node.submitter.sendUnsigned(request, from: from))
        }
    }

    /// The pool controls and read-outs of issue 19, with Anvil's answers (null, or a JSON number where Anvil's is a
    /// `u64`).
    static func registerPoolAndQueries(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register("anvil_addBalance") { p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            try node.dev.addBalance(address, try p.required(1, Arg.uint256))
            return .null
        }
        d.registerParameterless("anvil_dropAllTransactions") {
            node.pool.dropAllTransactions()
            return .null
        }
        d.register("anvil_removePoolTransactions") { p in
            try p.atMost(1)
            node.pool.removePoolTransactions(from: try p.required(0, Arg.address))
            return .null
        }
        d.registerParameterless("anvil_getIntervalMining") {
            node.dev.miningInterval.map { .number(String($0)) } ?? .null
        }
        d.registerParameterless("anvil_getGenesisTime") { .number(String(node.parameters.genesisTime)) }
        // The chain is post-London from genesis: Anvil refuses a minimum gas price there with these words.
        d.register(["anvil_setMinGasPrice", "hardhat_setMinGasPrice"]) { p in
            try p.atMost(1)
            _ = try p.required(0, Arg.uint256)
            throw RPCError.invalidParams("anvil_setMinGasPrice is not supported when EIP-1559 is active")
        }
        // Accepted for Anvil's clients, no effect: what the node logs is set at start (`--silent`).
        d.register(["anvil_setLoggingEnabled", "hardhat_setLoggingEnabled"]) { p in
            try p.atMost(1)
            _ = try p.required(0, Arg.bool)
            return .null
        }
    }

    /// Chain parameters, timestamp rules, rollback, metadata and reset, under Anvil's names and aliases (Anvil's
    /// `crates/anvil/core/src/eth/mod.rs`) with Anvil's answers.
    static func registerChainControls(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.register(["anvil_setCoinbase", "hardhat_setCoinbase"]) { p in
            try p.atMost(1)
            node.parameters.setCoinbase(try p.required(0, Arg.address))
            return .null
        }
        d.register(["anvil_setBlockGasLimit", "evm_setBlockGasLimit"]) { p in
            try p.atMost(1)
            try node.parameters.setBlockGasLimit(try p.required(0, Arg.number))
            return .bool(true)
        }
        d.register("anvil_setChainId") { p in
            try p.atMost(1)
            try node.parameters.setChainID(try p.required(0, Arg.number))
            return .null
        }
        // Anvil (for Ganache) reads a value above 10^12 as milliseconds; its answer is a JSON number.
        d.register(["anvil_setTime", "evm_setTime"]) { p in
            try p.atMost(1)
            let raw = try p.required(0, Arg.number)
            return .number(String(try node.parameters.setTime(raw > 1_000_000_000_000 ? raw / 1_000 : raw)))
        }
        d.register("anvil_setBlockTimestampInterval") { p in
            try p.atMost(1)
            try node.parameters.setBlockTimestampInterval(try p.required(0, Arg.number))
            return .null
        }
        d.registerParameterless("anvil_removeBlockTimestampInterval") {
            .bool(node.parameters.removeBlockTimestampInterval())
        }
        d.register("anvil_rollback") { p in
            try p.atMost(1)
            try node.dev.rollback(depth: try p.optional(0, Arg.number))
            return .null
        }
        d.registerParameterless("anvil_metadata", "hardhat_metadata") {
            let m = node.dev.metadata
            return .object([
                ("clientVersion", .string(m.clientVersion)),
                ("chainId", .number(String(m.chainID))),
                ("instanceId", Format.data(m.instanceID)),
                ("latestBlockNumber", .number(String(m.latestBlockNumber))),
                ("latestBlockHash", Format.data(m.latestBlockHash)),
                ("forkedNetwork", .null),
                (
                    "snapshots",
                    .object(
                        m.snapshots.map { s in
                            let head: JSON = .array([.number(String(s.blockNumber)), Format.data(s.blockHash)])
                            return ("0x" + String(s.id, radix: 16), head)
                        })
                ),
            ])
        }
        // Sandnet does not fork: a `forking` argument (or Anvil's untagged form, a `jsonRpcUrl`) is refused.
        d.register(["anvil_reset", "hardhat_reset"]) { p in
            try p.atMost(1)
            if let options = p[0], !options.isNull {
                guard case .object(let fields) = options else {
                    throw RPCError.invalidParams("invalid argument 0: expected an object with `forking`")
                }
                let forking = fields.contains { key, value in
                    !value.isNull && (key == "forking" || key == "jsonRpcUrl" || key == "blockNumber")
                }
                if forking {
                    throw RPCError.invalidParams(
                        "anvil_reset cannot fork: Sandnet does not fork another chain (call it without `forking` to "
                            + "start over from genesis)")
                }
            }
            try node.dev.reset()
            return .null
        }
    }
}
