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
            let count = try p.optional(0, Arg.number) ?? 1
            let interval = try p.optional(1, Arg.number)
            guard count <= 100_000 else { throw RPCError.invalidParams("cannot mine more than 100000 blocks at once") }
            let now = clock()
            publish(try withLedger { try $0.mine(blocks: Int(count), now: now, interval: interval) })
            return .null
        }
        d.register(["evm_mine", "anvil_mine_detailed"]) { [unowned self] p in
            let now = clock()
            var count = 1
            if let arg = p[0] {
                if case .object = arg {
                    if let t = arg["timestamp"] { try withLedger { try $0.setNextTimestamp(try Arg.number(t)) } }
                    if let b = arg["blocks"] { count = Int(try Arg.number(b)) }
                } else {
                    let t = try p.required(0, Arg.number)
                    try withLedger { try $0.setNextTimestamp(t) }
                }
            }
            publish(try withLedger { try $0.mine(blocks: count, now: now) })
            return .string("0x0")
        }
        d.register(["evm_snapshot", "anvil_snapshot"]) { [unowned self] _ in Format.q(withLedger { $0.snapshot() }) }
        d.register(["evm_revert", "anvil_revert"]) { [unowned self] p in
            let id = try p.required(0, Arg.quantity)
            let reverted = try withLedger { try $0.revert(to: id) }
            return .bool(reverted)
        }
        d.register(["evm_increaseTime", "anvil_increaseTime"]) { [unowned self] p in
            let seconds = try p.required(0, Arg.number)
            return Format.q(UInt64(max(0, withLedger { $0.increaseTime(seconds) })))
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
        d.register(["anvil_getAutomine", "hardhat_getAutomine"]) { [unowned self] _ in .bool(miningMode == .automatic) }
        d.register(["evm_setIntervalMining", "anvil_setIntervalMining"]) { [unowned self] p in
            let seconds = try p.required(0, Arg.number)
            withLedger { $0.miningMode = seconds == 0 ? .manual : .interval(seconds: seconds) }
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
        d.register(["anvil_dumpState", "hardhat_dumpState"]) { [unowned self] _ in
            Format.data(withLedger { StateDump.dump($0) }.bytes)
        }
        d.register(["anvil_loadState", "hardhat_loadState"]) { [unowned self] p in
            let bytes = try p.required(0, Arg.data)
            let dump: JSON
            do { dump = try JSON.parse(bytes) } catch { throw RPCError.invalidParams("invalid argument 0: \(error)") }
            try withLedger { try StateDump.load(dump, into: &$0) }
            return .bool(true)
        }
        d.register("anvil_nodeInfo") { [unowned self] _ in
            withLedger { chain in
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

    public static func load(_ dump: JSON, into ledger: inout Ledger) throws {
        guard case .object(let accounts)? = dump["accounts"] else {
            throw RPCError.invalidParams("invalid argument 0: state dump has no accounts object")
        }
        for (key, value) in accounts {
            let address: Address
            do { address = try Arg.address(.string(key)) } catch { throw RPCError.invalidParams("invalid argument 0: \(error)") }
            do {
                if let b = value["balance"] { try ledger.setBalance(address, try Arg.uint256(b)) }
                if let n = value["nonce"] { try ledger.setNonce(address, try Arg.number(n)) }
                if let c = value["code"] { try ledger.setCode(address, try Arg.data(c)) }
            } catch let e as LedgerError {
                throw e
            } catch {
                throw RPCError.invalidParams("invalid argument 0: \(key): \(error)")
            }
        }
    }
}
