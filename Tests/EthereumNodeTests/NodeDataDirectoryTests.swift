import ByteCoding
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import KeyValueStorage
import Synchronization
import Testing

/// A real in-memory store whose writes fail on demand.
final class FailingWritesStore: KeyValueStore {
    let inner = InMemoryStore()
    private let failingWrites = Mutex(false)

    var failing: Bool {
        get { failingWrites.withLock { $0 } }
        set { failingWrites.withLock { $0 = newValue } }
    }

    func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? { try inner.get(key) }

    func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        if failing { throw StorageError("disk full (test)") }
        try inner.write(batch, sync: sync)
    }

    func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        try inner.scan(prefix: prefix, body)
    }
}

@Suite struct NodeDataDirectoryTests {
    func rpcError(_ body: () throws -> JSON) -> RPCError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? RPCError
        }
    }

    func transfer(_ node: SandnetNode, nonce: UInt64) throws -> JSON {
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: 11_155_111, nonce: nonce, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(3_000_000_000 as UInt64), gas: 21_000, to: node.devAccounts[1].address,
                value: UInt256(1_000 as UInt64)))
        let signed = try tx.signed(privateKey: node.devAccounts[0].privateKey)
        return .string(Hex.encodePrefixed(signed.encoded))
    }

    /// What a client can see of the chain.
    func view(_ node: SandnetNode) throws -> [JSON] {
        let sender = JSON.string(node.devAccounts[0].address.lowercased)
        return [
            try node.call("eth_blockNumber"), try node.call("eth_getBalance", [sender, .string("latest")]),
            try node.call("eth_getTransactionCount", [sender, .string("pending")]),
            try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])["hash"] ?? .null,
        ]
    }

    @Test func aFailedWriteIsAnInternalErrorAndTheChainStaysWhereItWas() throws {
        let store = FailingWritesStore()
        let clock = TestClock()
        let node = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { clock.now })
        let snapshot = try node.call("evm_snapshot")
        _ = try node.call("eth_sendRawTransaction", [try transfer(node, nonce: 0)])
        let before = try view(node)

        store.failing = true
        let raw = try transfer(node, nonce: 1)
        let failed = rpcError { try node.call("eth_sendRawTransaction", [raw]) }
        #expect(failed == RPCError(code: -32603, message: "data directory: disk full (test)"))
        #expect(rpcError { try node.call("evm_revert", [snapshot]) }?.code == -32603)
        #expect(rpcError { try node.call("evm_mine") }?.code == -32603)
        #expect(try view(node) == before)

        store.failing = false
        #expect(try node.call("eth_sendRawTransaction", [raw]) != .null)
        #expect(try node.call("eth_blockNumber") == .string("0x2"))
        #expect(try node.call("evm_revert", [snapshot]) == .bool(true))
        #expect(try node.call("eth_blockNumber") == .string("0x0"))
        // The reopened chain is the one the clients saw.
        let reopened = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { clock.now })
        #expect(try view(reopened) == view(node))
    }

    /// geth answers the per-account pool limit with -32000 (`ErrAccountLimitExceeded`).
    @Test func accountLimitExceededIsAServerError() throws {
        let clock = TestClock()
        var configuration = NodeConfiguration()
        configuration.miningMode = .manual
        configuration.chain.poolLimitPerSender = 1
        let node = try SandnetNode(configuration: configuration, clock: { clock.now })
        _ = try node.call("eth_sendRawTransaction", [try transfer(node, nonce: 0)])
        let refused = rpcError { try node.call("eth_sendRawTransaction", [try transfer(node, nonce: 1)]) }
        #expect(refused == RPCError(code: -32000, message: "account limit exceeded"))
    }
}
