import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// Issue 19: one pending state (the pool's executable transactions applied to a copy of the head) answers every
/// `pending` read; transaction types as numbers; type-4 fields refused; setAutomine mines no empty block.
@Suite struct PendingStateTests {
    func refusal(_ node: SandnetNode, _ method: String, _ params: [JSON]) -> RPCError? {
        do {
            _ = try node.call(method, params)
            return nil
        } catch { return error as? RPCError }
    }

    @Test func everyPendingReadSeesTheSamePendingBlock() throws {
        let (node, _) = try makeNode()
        _ = try node.call("evm_setAutomine", [.bool(false)])
        let from = JSON.string(node.devAccounts[0].address.lowercased)
        let to = JSON.string(node.devAccounts[1].address.lowercased)
        let hashes = try (0..<2).map { _ in
            try node.call("eth_sendTransaction", [.object([("from", from), ("to", to), ("value", .string("0x5"))])])
        }
        // A gapped transaction waits in the queue: not part of the pending block.
        _ = try node.call("eth_sendTransaction", [.object([("from", from), ("to", to), ("nonce", .string("0x9"))])])
        let latest = try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])
        let pending = try node.call("eth_getBlockByNumber", [.string("pending"), .bool(false)])
        #expect(pending["transactions"] == .array(hashes))
        #expect(try node.call("eth_getBlockTransactionCountByNumber", [.string("pending")]) == .string("0x2"))
        #expect(
            try node.call("eth_getTransactionByBlockNumberAndIndex", [.string("pending"), .string("0x1")])["hash"]
                == hashes[1])
        #expect(
            try node.call("eth_getTransactionByBlockNumberAndIndex", [.string("pending"), .string("0x2")]) == .null)
        // Real roots and size, not the head's; no hash, nonce or miner (geth's pending block).
        #expect(pending["stateRoot"] != latest["stateRoot"])
        #expect(pending["transactionsRoot"] != latest["transactionsRoot"])
        #expect(pending["receiptsRoot"] != latest["receiptsRoot"])
        #expect(pending["size"] != .string("0x0") && pending["size"] != nil)
        #expect(pending["gasUsed"] == .string("0xa410"))
        #expect(pending["parentHash"] == latest["hash"])
        #expect(pending["hash"] == .null && pending["nonce"] == .null && pending["miner"] == .null)
        // Balances: the recipient has its two transfers of 5 wei in the pending state only.
        let before = try node.chain.balance(of: node.devAccounts[1].address)
        #expect(try node.chain.balance(of: node.devAccounts[1].address, at: .pending) == before + UInt256(10))
        #expect(try node.call("eth_getTransactionCount", [from, .string("pending")]) == .string("0x2"))
        #expect(try node.call("eth_getTransactionCount", [from, .string("latest")]) == .string("0x0"))
        // Mining the pool seals exactly the block that was pending.
        let sealed = try node.call("evm_mine", [])
        #expect(sealed == .string("0x0"))
        let mined = try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])
        #expect(mined["stateRoot"] == pending["stateRoot"])
        #expect(mined["transactionsRoot"] == pending["transactionsRoot"])
        #expect(mined["size"] == pending["size"])
    }

    @Test func transactionTypeIsANumberOrAQuantity() throws {
        let (node, _) = try makeNode()
        let from = JSON.string(node.devAccounts[0].address.lowercased)
        let to = JSON.string(node.devAccounts[1].address.lowercased)
        for type in [JSON.number("2"), .string("0x2"), .number("0"), .string("0x1")] {
            let request = JSON.object([("from", from), ("to", to), ("type", type)])
            #expect(try node.call("eth_estimateGas", [request]) == .string("0x5208"), "\(type)")
            #expect(try node.call("eth_call", [request]) == .string("0x"), "\(type)")
        }
        let hash = try node.call(
            "eth_sendTransaction", [.object([("from", from), ("to", to), ("type", .number("2"))])])
        #expect(try node.call("eth_getTransactionByHash", [hash])["type"] == .string("0x2"))
        for type in [JSON.number("3"), .string("0x4"), .number("126")] {
            let request = JSON.object([("from", from), ("to", to), ("type", type)])
            #expect(
                refusal(node, "eth_estimateGas", [request])
                    == RPCError(code: -32000, message: "transaction type not supported"))
            #expect(
                refusal(node, "eth_sendTransaction", [request])
                    == RPCError(code: -32000, message: "transaction type not supported"))
        }
    }

    /// EIP-7702 authorization lists are refused as eth_sendRawTransaction refuses type 4 (it used to answer the plain
    /// intrinsic gas).
    @Test func estimateGasRefusesAuthorizationLists() throws {
        let (node, _) = try makeNode()
        let authorization = JSON.object([
            ("chainId", .string("0xaa36a7")), ("address", .string(node.devAccounts[2].address.lowercased)),
            ("nonce", .string("0x0")), ("yParity", .string("0x0")), ("r", .string("0x1")), ("s", .string("0x1")),
        ])
        let request = JSON.object([
            ("from", .string(node.devAccounts[0].address.lowercased)),
            ("to", .string(node.devAccounts[1].address.lowercased)),
            ("authorizationList", .array([authorization])),
        ])
        #expect(
            refusal(node, "eth_estimateGas", [request])
                == RPCError(code: -32000, message: "transaction type not supported"))
    }

    @Test func automineOnMinesNoEmptyBlockForQueuedTransactions() throws {
        let (node, _) = try makeNode()
        _ = try node.call("evm_setAutomine", [.bool(false)])
        let from = JSON.string(node.devAccounts[0].address.lowercased)
        let to = JSON.string(node.devAccounts[1].address.lowercased)
        _ = try node.call("eth_sendTransaction", [.object([("from", from), ("to", to), ("nonce", .string("0x3"))])])
        _ = try node.call("evm_setAutomine", [.bool(true)])
        #expect(node.blockNumber == 0)
        _ = try node.call("evm_setAutomine", [.bool(false)])
        _ = try node.call("eth_sendTransaction", [.object([("from", from), ("to", to)])])
        _ = try node.call("evm_setAutomine", [.bool(true)])
        #expect(node.blockNumber == 1)
    }
}
