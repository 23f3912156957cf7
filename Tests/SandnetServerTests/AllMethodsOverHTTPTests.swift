import EthereumNode
import Foundation
import JSONCoding
import JSONRPC
import Testing

/// Every method of the README's table over real HTTP on 127.0.0.1, with the result shape checked, and the
/// argument errors clients see.
@Suite(.serialized) struct AllMethodsOverHTTPTests {
    @Test func everyMethodAnswers() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        let dev1 = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"
        func ok(_ method: String, _ params: [JSON] = []) async throws -> JSON {
            let response = try await node.rpc(method, params)
            #expect(response["error"] == nil, "\(method): \(response.serialized)")
            return response["result"] ?? .null
        }
        let tx = JSON.object([("from", .string(dev0)), ("to", .string(dev1)), ("value", .string("0x1"))])
        let hash = try await ok("eth_sendTransaction", [tx])
        #expect(hash.stringValue?.count == 66)
        let filter = try await ok("eth_newBlockFilter")
        _ = try await ok("eth_sendTransaction", [tx])
        #expect(try await ok("eth_getFilterChanges", [filter]).arrayValue?.count == 1)
        let pendingFilter = try await ok("eth_newPendingTransactionFilter")
        let logFilter = try await ok("eth_newFilter", [.object([("fromBlock", .string("0x0"))])])
        let typed =
            #"{"types":{"EIP712Domain":[{"name":"name","type":"string"}],"M":[{"name":"x","type":"uint256"}]},"primaryType":"M","domain":{"name":"t"},"message":{"x":"1"}}"#
        let calls: [(String, [JSON])] = [
            ("web3_clientVersion", []), ("web3_sha3", [.string("0x68656c6c6f")]), ("net_version", []),
            ("net_listening", []), ("net_peerCount", []), ("eth_chainId", []), ("eth_syncing", []),
            ("eth_blockNumber", []), ("eth_gasPrice", []), ("eth_maxPriorityFeePerGas", []),
            ("eth_feeHistory", [.string("0x2"), .string("latest"), .array([.number("25"), .number("75")])]),
            ("eth_getBalance", [.string(dev0), .string("pending")]),
            ("eth_getTransactionCount", [.string(dev0), .string("earliest")]),
            ("eth_getTransactionCount", [.string(dev0), .string("safe")]),
            ("eth_getTransactionCount", [.string(dev0), .string("finalized")]),
            ("eth_getTransactionCount", [.string(dev0), .string("0x1")]),
            ("eth_getCode", [.string(dev0), .string("latest")]),
            ("eth_getStorageAt", [.string(dev0), .string("0x0"), .string("latest")]),
            ("eth_call", [tx, .string("latest")]), ("eth_estimateGas", [tx]),
            ("eth_getProof", [.string(dev0), .array([.string("0x0")]), .string("latest")]),
            ("eth_createAccessList", [tx]), ("eth_config", []),
            ("eth_simulateV1", [.object([("blockStateCalls", .array([.object([("calls", .array([tx]))])]))])]),
            ("eth_getRawTransactionByHash", [hash]), ("eth_sign", [.string(dev0), .string("0x6869")]),
            ("personal_sign", [.string("0x6869"), .string(dev0)]),
            ("eth_signTypedData_v4", [.string(dev0), .string(typed)]), ("eth_accounts", []),
            ("eth_getTransactionByHash", [hash]), ("eth_getTransactionReceipt", [hash]),
            ("eth_getTransactionByBlockNumberAndIndex", [.string("0x1"), .string("0x0")]),
            ("eth_getBlockReceipts", [.string("0x1")]), ("eth_getBlockByNumber", [.string("latest"), .bool(true)]),
            ("eth_getBlockByNumber", [.string("pending"), .bool(false)]),
            ("eth_getBlockTransactionCountByNumber", [.string("0x1")]),
            ("eth_getUncleCountByBlockNumber", [.string("0x1")]),
            ("eth_getLogs", [.object([("fromBlock", .string("0x0")), ("toBlock", .string("latest"))])]),
            ("eth_getFilterChanges", [pendingFilter]), ("eth_getFilterLogs", [logFilter]),
            ("eth_uninstallFilter", [filter]), ("txpool_status", []), ("txpool_content", []), ("txpool_inspect", []),
            ("anvil_setBalance", [.string(dev1), .string("0x1")]),
            ("hardhat_setBalance", [.string(dev1), .string("0x2")]),
            ("anvil_setNonce", [.string(dev1), .string("0x5")]), ("anvil_setCode", [.string(dev1), .string("0x60")]),
            ("anvil_mine", [.string("0x3")]), ("hardhat_mine", []), ("evm_mine", []),
            ("evm_snapshot", []), ("evm_increaseTime", [.string("0x10")]),
            ("evm_setNextBlockTimestamp", [.number("4000000000")]), ("evm_setAutomine", [.bool(false)]),
            ("anvil_getAutomine", []), ("evm_setIntervalMining", [.number("0")]), ("evm_setAutomine", [.bool(true)]),
            ("anvil_setNextBlockBaseFeePerGas", [.string("0x3b9aca00")]), ("anvil_reorg", [.number("1")]),
            ("anvil_dumpState", []), ("anvil_nodeInfo", []), ("sandnet_faucet", [.string(dev1)]),
        ]
        for (method, params) in calls { _ = try await ok(method, params) }
        let block = try await ok("eth_getBlockByNumber", [.string("0x1"), .bool(false)])
        for field in [
            "totalDifficulty", "size", "sha3Uncles", "transactionsRoot", "stateRoot", "receiptsRoot", "uncles",
        ] {
            #expect(block[field] != nil, "block lacks \(field)")
        }
        let blockHash = block["hash"]!
        _ = try await ok("eth_getBlockByHash", [blockHash, .bool(false)])
        _ = try await ok("eth_getBlockTransactionCountByHash", [blockHash])
        _ = try await ok("eth_getUncleCountByBlockHash", [blockHash])
        _ = try await ok("eth_getTransactionByBlockHashAndIndex", [blockHash, .string("0x0")])
        let dump = try await ok("anvil_dumpState")
        #expect(try await ok("anvil_loadState", [dump]) == .bool(true))
        let snapshot = try await ok("evm_snapshot")
        #expect(try await ok("evm_revert", [snapshot]) == .bool(true))
        // Dropping a pending transaction.
        _ = try await ok("evm_setAutomine", [.bool(false)])
        let pending = try await ok("eth_sendTransaction", [tx])
        #expect(try await ok("anvil_dropTransaction", [pending]) == pending)
    }

    @Test func argumentErrorsAreGeths() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        func error(_ method: String, _ params: [JSON]) async throws -> (JSON?, JSON?) {
            let response = try await node.rpc(method, params)
            return (response["error"]?["code"], response["error"]?["message"])
        }
        #expect(
            try await error("eth_getBalance", []) == (
                .number("-32602"), .string("missing value for required argument 0")
            ))
        #expect(
            try await error(
                "eth_getBalance",
                [.string("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"), .string("latest"), .null, .null])
                == (.number("-32602"), .string("too many arguments, want at most 2")))
        #expect(try await error("eth_blockNumber", []).0 == nil)
        #expect(
            try await error("eth_getBlockByNumber", [.string("0x01"), .bool(false)])
                == (.number("-32602"), .string("invalid argument 0: hex number with leading zero digits")))
        #expect(try await error("eth_sendRawTransaction", [.string("0x03")]).0 == .number("-32000"))
        #expect(
            try await error("eth_getBalance", [.number("1")]).1
                == .string("invalid argument 0: json: cannot unmarshal number into Go value of type string"))
        #expect(
            try await error(
                "eth_feeHistory", [.string("0x1"), .string("latest"), .array([.number("50"), .number("10")])]
            ).0
                == .number("-32602"))
    }
}
