import ByteCoding
import EthereumLedger
import EthereumTypes
import Foundation
import JSONCoding
import JSONRPC

extension SandnetNode {
    /// Anvil's developer methods under their Anvil, Hardhat and evm names.
    func registerDevMethods(into d: inout RPCDispatcher) {
        d.register(["anvil_setBalance", "hardhat_setBalance"]) { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let balance = try p.required(1, Arg.uint256)
            try withLedger { try $0.setBalance(address, balance) }
            return .null
        }
        d.register(["anvil_setNonce", "hardhat_setNonce", "evm_setAccountNonce"]) { [unowned self] p in
            try p.atMost(2)
            let address = try p.required(0, Arg.address)
            let nonce = try p.required(1, Arg.number)
            try withLedger { try $0.setNonce(address, nonce) }
            return .null
        }
        d.register(["anvil_setCode", "hardhat_setCode"]) { [unowned self] p in
            let address = try p.required(0, Arg.address)
            let code = try p.required(1, Arg.data)
            try withLedger { try $0.setCode(address, code) }
            return .null
        }
        d.register(["anvil_mine", "hardhat_mine"]) { [unowned self] p in
            try p.atMost(2)
            let count = try blockCount(try p.optional(0, Arg.number) ?? 1)
            let interval = try p.optional(1, Arg.number)
            let now = clock()
            publish(try withLedger { try $0.mine(blocks: count, now: now, interval: interval) })
            return .null
        }
        d.register(["evm_mine", "anvil_mine_detailed"]) { [unowned self] p in
            try p.atMost(1)
            let now = clock()
            var count = 1
            var timestamp: UInt64?
            if let arg = p[0] {
                if case .object = arg {
                    if let t = arg["timestamp"], !t.isNull {
                        timestamp = try p.required(0) { _ in try Arg.number(t) }
                    }
                    if let b = arg["blocks"], !b.isNull { count = try blockCount(try p.required(0) { _ in try Arg.number(b) }) }
                } else {
                    timestamp = try p.required(0, Arg.number)
                }
            }
            publish(try withLedger { chain in
                if let timestamp { try chain.setNextTimestamp(timestamp) }
                return try chain.mine(blocks: count, now: now)
            })
            return .string("0x0")
        }
        d.registerParameterless("evm_snapshot", "anvil_snapshot") { [unowned self] in
            let limit = configuration.snapshotLimit
            return Format.q(try withLedger { chain in
                guard chain.snapshotCount < limit else {
                    throw RPCError(
                        code: -32005, message: "too many snapshots: limit is \(limit) (evm_revert consumes a snapshot)")
                }
                return chain.snapshot()
            })
        }
        d.register(["evm_revert", "anvil_revert"]) { [unowned self] p in
            let id = try p.required(0, Arg.quantity)
            let reverted = try withLedger { try $0.revert(to: id) }
            return .bool(reverted)
        }
        d.register(["evm_increaseTime", "anvil_increaseTime"]) { [unowned self] p in
            let seconds = try p.required(0, Arg.number)
            return Format.q(UInt64(max(0, try withLedger { try $0.increaseTime(seconds) })))
        }
        d.register(["evm_setNextBlockTimestamp", "anvil_setNextBlockTimestamp"]) { [unowned self] p in
            let t = try p.required(0, Arg.number)
            try withLedger { try $0.setNextTimestamp(t) }
            return .null
        }
        d.register(["evm_setAutomine", "anvil_setAutomine"]) { [unowned self] p in
            let on = try p.required(0, Arg.bool)
            let now = clock()
            let blocks = try withLedger { chain -> [Block] in
                chain.miningMode = on ? .automatic : .manual
                return on ? try chain.mine(blocks: chain.pool.count > 0 ? 1 : 0, now: now) : []
            }
            publish(blocks)
            return .null
        }
        d.registerParameterless("anvil_getAutomine", "hardhat_getAutomine") { [unowned self] in
            return .bool(miningMode == .automatic)
        }
        d.register(["evm_setIntervalMining", "anvil_setIntervalMining"]) { [unowned self] p in
            let seconds = try p.required(0, Arg.number)
            try withLedger { try $0.setIntervalMining(seconds) }
            return .null
        }
        d.register(["anvil_dropTransaction", "hardhat_dropTransaction"]) { [unowned self] p in
            let hash = try p.required(0, Arg.hash)
            return try withLedger { (chain) throws in chain.dropTransaction(hash) } ? Format.data(hash) : .null
        }
        d.register("anvil_reorg") { [unowned self] p in
            let depth = try p.required(0, Arg.number)
            let requeue = try p.optional(1) { v -> Bool in
                if let b = v.boolValue { return b }
                return !(v.arrayValue?.isEmpty ?? true)
            } ?? false
            let limit = configuration.maxBlocksPerRequest
            guard depth <= limit else { throw RPCError.invalidParams("cannot reorg more than \(limit) blocks at once") }
            let now = clock()
            let blocks = try withLedger { try $0.reorg(depth: Int(depth), requeueTransactions: requeue, now: now) }
            publish(blocks)
            return .null
        }
        d.register(["anvil_setNextBlockBaseFeePerGas", "hardhat_setNextBlockBaseFeePerGas"]) { [unowned self] p in
            let fee = try p.required(0, Arg.uint256)
            withLedger { $0.setNextBaseFee(fee) }
            return .null
        }
        d.registerParameterless("anvil_dumpState", "hardhat_dumpState") { [unowned self] in
            return Format.data(withLedger { StateDump.dump($0) }.bytes)
        }
        d.register(["anvil_loadState", "hardhat_loadState"]) { [unowned self] p in
            try loadState(try p.required(0, Arg.data))
            return .bool(true)
        }
        d.registerParameterless("anvil_nodeInfo") { [unowned self] in
            return withLedger { chain in
                .object([
                    ("currentBlockNumber", Format.q(chain.blockNumber)),
                    ("currentBlockTimestamp", Format.q(chain.head.header.timestamp)),
                    ("currentBlockHash", Format.data(chain.head.hash)),
                    ("chainId", Format.q(chain.config.chainID)),
                    ("network", .string("sandnet")),
                ])
            }
        }
    }
}

extension SandnetNode {
    /// Merges a JSON state dump (``StateDump``) into the chain: `anvil_loadState` and `--load-state`. Every
    /// account is checked before any is written, so a refused dump changes nothing.
    public func loadState(_ json: [UInt8]) throws {
        let dump: JSON
        do { dump = try JSON.parse(json) } catch { throw RPCError.invalidParams("invalid argument 0: \(error)") }
        try withLedger { try StateDump.load(dump, into: &$0) }
    }

    /// A block count from a client, at most ``NodeConfiguration/maxBlocksPerRequest``: mining is synchronous, so
    /// a larger count would hold the ledger (and every other client) for minutes.
    func blockCount(_ n: UInt64) throws(RPCError) -> Int {
        let limit = configuration.maxBlocksPerRequest
        guard n <= limit else { throw .invalidParams("cannot mine more than \(limit) blocks at once") }
        return Int(clamping: n)
    }
}

/// Anvil-style JSON state dumps: `{"block": n, "accounts": {address: {nonce, balance, code}}}`. Loading merges
/// accounts into the current chain (balance, nonce, code), as `anvil_loadState` does.
public enum StateDump {
    public static func dump(_ ledger: Ledger) -> JSON {
        let accounts = ledger.addresses.sorted().map { address -> (String, JSON) in
            let a = ledger.account(address)
            return (address.lowercased, .object([
                ("nonce", Format.q(a.nonce)), ("balance", Format.q(a.balance)), ("code", Format.data(a.code)),
            ]))
        }
        return .object([("block", Format.q(ledger.blockNumber)), ("accounts", .object(accounts))])
    }

    /// Merges `dump` into `ledger`. Every account is read and the new total supply checked before anything is
    /// written, so a refused dump changes nothing.
    public static func load(_ dump: JSON, into ledger: inout Ledger) throws {
        guard case .object(let accounts)? = dump["accounts"] else {
            throw RPCError.invalidParams("invalid argument 0: state dump has no accounts object")
        }
        var changes: [(address: Address, balance: UInt256?, nonce: UInt64?, code: [UInt8]?)] = []
        for (key, value) in accounts {
            let address: Address
            do { address = try Arg.address(.string(key)) } catch { throw RPCError.invalidParams("invalid argument 0: \(error)") }
            do {
                changes.append(
                    (address, try value["balance"].map(Arg.uint256), try value["nonce"].map(Arg.number),
                     try value["code"].map(Arg.data)))
            } catch {
                throw RPCError.invalidParams("invalid argument 0: \(key): \(error)")
            }
        }
        // One change per address (the last value of each field wins), lowered balances first: then every
        // intermediate total lies between the current supply and the checked final one.
        var merged: [Address: (balance: UInt256?, nonce: UInt64?, code: [UInt8]?)] = [:]
        var order: [Address] = []
        for change in changes {
            if merged[change.address] == nil { order.append(change.address) }
            var m = merged[change.address] ?? (nil, nil, nil)
            m.balance = change.balance ?? m.balance
            m.nonce = change.nonce ?? m.nonce
            m.code = change.code ?? m.code
            merged[change.address] = m
        }
        var supply = ledger.totalSupply
        for (address, m) in merged where m.balance != nil { supply = supply - ledger.account(address).balance }
        for m in merged.values {
            guard let balance = m.balance else { continue }
            let (sum, overflow) = supply.addingReportingOverflow(balance)
            guard !overflow else {
                throw LedgerError.valueOutOfRange(
                    "state dump balances are too large: the total supply would exceed 2^256-1 wei")
            }
            supply = sum
        }
        func lowers(_ address: Address) -> Bool {
            guard let balance = merged[address]?.balance else { return false }
            return balance < ledger.account(address).balance
        }
        let lowered = order.filter(lowers)
        let rest = order.filter { !lowers($0) }
        for address in lowered + rest {
            let m = merged[address]!
            if let b = m.balance { try ledger.setBalance(address, b) }
            if let n = m.nonce { try ledger.setNonce(address, n) }
            if let c = m.code { try ledger.setCode(address, c) }
        }
    }
}
