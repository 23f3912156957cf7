import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// Issue 19: Anvil's pool controls and read-outs, eth_pendingTransactions and txpool_contentFrom.
@Suite struct PoolAndDevQueryTests {
    /// A manual-mining node with two of dev account 0's transfers pending, one of account 1's, and account 1's
    /// nonce-gapped (queued) one.
    static func nodeWithPool() throws -> SandnetNode {
        let (node, _) = try makeNode { $0.miningMode = .manual }
        let to = JSON.string("0x" + String(repeating: "ab", count: 20))
        for (account, nonce) in [(0, 0), (0, 1), (1, 0), (1, 5)] {
            _ = try node.call(
                "eth_sendTransaction",
                [
                    .object([
                        ("from", .string(node.devAccounts[account].address.lowercased)), ("to", to),
                        ("nonce", .string("0x" + String(nonce, radix: 16))),
                    ])
                ])
        }
        return node
    }

    @Test func pendingTransactionsAndContentFrom() throws {
        let node = try Self.nodeWithPool()
        let first = node.devAccounts[0].address.lowercased
        let second = node.devAccounts[1].address.lowercased
        let pending = try node.call("eth_pendingTransactions")
        #expect(pending.arrayValue?.count == 4)
        #expect(pending.arrayValue?.allSatisfy { $0["blockHash"] == .null && $0["blockNumber"] == .null } == true)
        let mine = try node.call("txpool_contentFrom", [.string(first)])
        #expect(mine["pending"]?.objectKeys == ["0", "1"] && mine["queued"]?.objectKeys == [])
        #expect(mine["pending"]?["1"]?["from"] == .string(first))
        let theirs = try node.call("txpool_contentFrom", [.string(second)])
        #expect(theirs["pending"]?.objectKeys == ["0"] && theirs["queued"]?.objectKeys == ["5"])
        let nobody = try node.call("txpool_contentFrom", [.string("0x" + String(repeating: "cd", count: 20))])
        #expect(nobody == .object([("pending", .object([])), ("queued", .object([]))]))
    }

    @Test func removePoolTransactionsAndDropAll() throws {
        let node = try Self.nodeWithPool()
        #expect(
            try node.call("anvil_removePoolTransactions", [.string(node.devAccounts[1].address.lowercased)]) == .null)
        #expect(try node.call("txpool_status") == .object([("pending", .string("0x2")), ("queued", .string("0x0"))]))
        #expect(try node.call("anvil_dropAllTransactions") == .null)
        #expect(try node.call("txpool_status") == .object([("pending", .string("0x0")), ("queued", .string("0x0"))]))
        #expect(try node.call("eth_pendingTransactions") == .array([]))
    }

    @Test func addBalanceAddsAndChecksOverflow() throws {
        let (node, _) = try makeNode()
        let address = JSON.string("0x" + String(repeating: "12", count: 20))
        _ = try node.call("anvil_setBalance", [address, .string("0x10")])
        #expect(try node.call("anvil_addBalance", [address, .string("0x5")]) == .null)
        #expect(try node.call("eth_getBalance", [address, .string("latest")]) == .string("0x15"))
        #expect(throws: RPCError(code: -32602, message: "balance would exceed 2^256-1 wei")) {
            try node.call("anvil_addBalance", [address, .string("0x" + String(repeating: "f", count: 64))])
        }
        #expect(try node.call("eth_getBalance", [address, .string("latest")]) == .string("0x15"))
    }

    @Test func miningIntervalGenesisTimeAndRefusals() throws {
        let (node, _) = try makeNode { $0.chain.genesisTimestamp = 1_700_000_123 }
        #expect(try node.call("anvil_getIntervalMining") == .null)
        _ = try node.call("evm_setIntervalMining", [.number("12")])
        #expect(try node.call("anvil_getIntervalMining") == .number("12"))
        #expect(try node.call("anvil_getGenesisTime") == .number("1700000123"))
        #expect(
            throws: RPCError(code: -32602, message: "anvil_setMinGasPrice is not supported when EIP-1559 is active")
        ) {
            try node.call("anvil_setMinGasPrice", [.string("0x1")])
        }
        #expect(try node.call("anvil_setLoggingEnabled", [.bool(false)]) == .null)
    }
}

extension JSON {
    /// The keys of an object, in order.
    var objectKeys: [String]? {
        guard case .object(let members) = self else { return nil }
        return members.map(\.0)
    }
}
