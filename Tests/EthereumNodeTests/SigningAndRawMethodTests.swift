import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// Issue 19's methods: eth_signTransaction (geth's `{raw, tx}`) and the raw transaction by block and index.
@Suite struct SigningAndRawMethodTests {
    @Test func signTransactionSignsWithoutSending() throws {
        let (node, _) = try makeNode()
        let from = node.devAccounts[0].address
        let request = JSON.object([
            ("from", .string(from.lowercased)), ("to", .string(node.devAccounts[1].address.lowercased)),
            ("value", .string("0x1")), ("gas", .string("0x5208")), ("maxFeePerGas", .string("0x77359400")),
            ("maxPriorityFeePerGas", .string("0x3b9aca00")), ("nonce", .string("0x0")),
        ])
        let result = try node.call("eth_signTransaction", [request])
        guard let raw = result["raw"]?.stringValue, let tx = result["tx"] else {
            Issue.record("geth's {raw, tx}")
            return
        }
        let signed = try SignedTransaction(decoding: try Quantity.parseData(raw))
        #expect(try signed.recoverSender() == from)
        #expect(tx["maxFeePerGas"] == .string("0x77359400"))
        #expect(tx["maxPriorityFeePerGas"] == .string("0x3b9aca00"))
        #expect(tx["gas"] == .string("0x5208") && tx["nonce"] == .string("0x0") && tx["type"] == .string("0x2"))
        #expect(tx["hash"] == .string(Hex.encodePrefixed(signed.hash)))
        #expect(tx["blockHash"] == nil && tx["from"] == nil && tx["gasPrice"] == nil)
        // Signed, not sent: the pool is empty and the nonce unchanged.
        #expect(try node.call("txpool_status", [])["pending"] == .string("0x0"))
        #expect(
            try node.call("eth_getTransactionCount", [.string(from.lowercased), .string("pending")]) == .string("0x0"))
        #expect(throws: RPCError(code: -32000, message: "unknown account")) {
            try node.call(
                "eth_signTransaction", [.object([("from", .string("0x" + String(repeating: "1", count: 40)))])])
        }
    }

    @Test func rawTransactionByBlockAndIndex() throws {
        let (node, _) = try makeNode()
        let request = JSON.object([
            ("from", .string(node.devAccounts[0].address.lowercased)),
            ("to", .string(node.devAccounts[1].address.lowercased)),
        ])
        let hash = try node.call("eth_sendTransaction", [request])
        let raw = try node.call("eth_getRawTransactionByHash", [hash])
        let block = try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])
        #expect(try node.call("eth_getRawTransactionByBlockNumberAndIndex", [.string("0x1"), .string("0x0")]) == raw)
        #expect(
            try node.call("eth_getRawTransactionByBlockNumberAndIndex", [.string("latest"), .string("0x0")]) == raw)
        #expect(try node.call("eth_getRawTransactionByBlockHashAndIndex", [block["hash"]!, .string("0x0")]) == raw)
        #expect(try node.call("eth_getRawTransactionByBlockNumberAndIndex", [.string("0x1"), .string("0x1")]) == .null)
        #expect(
            try node.call("eth_getRawTransactionByBlockNumberAndIndex", [.string("0x99"), .string("0x0")]) == .null)
        #expect(
            try node.call(
                "eth_getRawTransactionByBlockHashAndIndex",
                [.string("0x" + String(repeating: "ab", count: 32)), .string("0x0")])
                == .null)
    }
}
