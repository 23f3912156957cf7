import ByteCoding
import EthereumNode
import EthereumTypes
import Foundation
import JSONCoding
import NativeContracts
import Testing

/// Otterscan's `ots_` methods and `erigon_getHeaderByNumber` over HTTP, with plain JSON numbers as block numbers as
/// Otterscan sends them (foundry-rs/foundry#7433), while standard methods keep geth's strict parsing.
@Suite(.serialized) struct OtterscanRPCTests {
    static func address(_ n: UInt8) -> Address { Address([UInt8](repeating: 0, count: 19) + [n])! }

    @Test func blocksAndLevel() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev = node.node.devAccounts[0].address
        let hash = try node.node.sendUnsigned(
            TransactionRequest(from: dev, to: Self.address(0x81), value: UInt256(5 as UInt64)), from: dev)
        #expect(try await node.rpc("ots_getApiLevel")["result"] == .number("8"))
        #expect(try await node.rpc("erigon_getHeaderByNumber", [.number("1")])["result"]?["number"] == .string("0x1"))
        #expect(
            try await node.rpc("erigon_getHeaderByNumber", [.string("latest")])["result"]?["number"] == .string("0x1"))
        #expect(try await node.rpc("erigon_getHeaderByNumber", [.number("99")])["result"] == .null)
        // Standard methods keep geth's strict parsing.
        #expect(
            try await node.rpc("eth_getBlockByNumber", [.number("1"), .bool(false)])["error"]?["code"]
                == .number("-32602"))
        let details = try await node.rpc("ots_getBlockDetails", [.number("1")])["result"] ?? .null
        #expect(details["block"]?["transactionCount"] == .number("1"))
        #expect(details["block"]?["logsBloom"] == .null && details["block"]?["transactions"] == nil)
        #expect(details["issuance"]?["blockReward"] == .string("0x0"))
        let receipt = try await node.rpc("eth_getTransactionReceipt", [.string(Hex.encodePrefixed(hash))])["result"]
        let gasUsed = UInt64(receipt?["gasUsed"]?.stringValue?.dropFirst(2) ?? "", radix: 16) ?? 0
        let price = UInt64(receipt?["effectiveGasPrice"]?.stringValue?.dropFirst(2) ?? "", radix: 16) ?? 0
        #expect(details["totalFees"] == .string("0x" + String(gasUsed * price, radix: 16)))
        let blockHash = details["block"]?["hash"] ?? .null
        #expect(try await node.rpc("ots_getBlockDetailsByHash", [blockHash])["result"] == details)
        let page = try await node.rpc("ots_getBlockTransactions", [.number("1"), .number("0"), .number("10")])["result"]
        #expect(page?["fullblock"]?["transactions"]?.arrayValue?.first?["hash"] == .string(Hex.encodePrefixed(hash)))
        #expect(page?["receipts"]?.arrayValue?.first?["logs"] == .null)
        #expect(
            try await node.rpc("ots_getBlockTransactions", [.number("1"), .number("1"), .number("10")])["result"]?[
                "fullblock"]?["transactions"] == .array([]))
        #expect(
            try await node.rpc("ots_getBlockTransactions", [.number("1"), .number("0"), .number("100000")])["error"]?[
                "message"] == .string("invalid argument 2: page size 100000 out of range: from 1 to 1000"))
        #expect(
            try await node.rpc(
                "ots_getBlockTransactions", [.number("1"), .number("18446744073709551615"), .number("1000")])[
                    "result"]?["fullblock"]?["transactions"] == .array([]))
        // Code: native contracts have their marker code.
        let usdc = node.node.snapshotOfLedger.nativeContracts.tokens[0].address
        #expect(
            try await node.rpc("ots_hasCode", [.string(usdc.lowercased), .string("latest")])["result"] == .bool(true))
        #expect(
            try await node.rpc("ots_hasCode", [.string(Self.address(0x81).lowercased), .number("1")])["result"]
                == .bool(false))
    }

    @Test func transactionsSearchesAndTraces() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev = node.node.devAccounts[0].address
        let to = Self.address(0x82)
        var hashes: [String] = []
        for value in 1...3 as ClosedRange<UInt64> {
            hashes.append(
                Hex.encodePrefixed(
                    try node.node.sendUnsigned(TransactionRequest(from: dev, to: to, value: UInt256(value)), from: dev))
            )
        }
        let before = try await node.rpc(
            "ots_searchTransactionsBefore", [.string(to.lowercased), .number("0"), .number("2")])[
                "result"]
        #expect(before?["txs"]?.arrayValue?.map { $0["hash"]?.stringValue } == [hashes[2], hashes[1]])
        #expect(before?["firstPage"] == .bool(true) && before?["lastPage"] == .bool(false))
        #expect(before?["receipts"]?.arrayValue?.first?["timestamp"]?.stringValue != nil)
        let rest = try await node.rpc(
            "ots_searchTransactionsBefore", [.string(to.lowercased), .number("2"), .number("2")])[
                "result"]
        #expect(rest?["txs"]?.arrayValue?.map { $0["hash"]?.stringValue } == [hashes[0]])
        #expect(rest?["firstPage"] == .bool(false) && rest?["lastPage"] == .bool(true))
        let after = try await node.rpc(
            "ots_searchTransactionsAfter", [.string(to.lowercased), .number("0"), .number("10")])[
                "result"]
        #expect(after?["txs"]?.arrayValue?.map { $0["hash"]?.stringValue } == [hashes[2], hashes[1], hashes[0]])
        #expect(after?["firstPage"] == .bool(true) && after?["lastPage"] == .bool(true))
        #expect(
            try await node.rpc("ots_getTransactionBySenderAndNonce", [.string(dev.lowercased), .number("1")])["result"]
                == .string(hashes[1]))
        #expect(
            try await node.rpc("ots_getTransactionBySenderAndNonce", [.string(dev.lowercased), .string("0x9")])[
                "result"]
                == .null)
        #expect(try await node.rpc("ots_getContractCreator", [.string(to.lowercased)])["result"] == .null)
        #expect(try await node.rpc("ots_getTransactionError", [.string(hashes[0])])["result"] == .string("0x"))
        // WETH: the withdrawal's payout is an internal operation and a depth-1 trace entry.
        let weth = node.node.snapshotOfLedger.nativeContracts.tokens.first { $0.profile == .weth9 }!.address
        _ = try node.node.sendUnsigned(
            TransactionRequest(from: dev, to: weth, value: UInt256(1_000 as UInt64), data: try Hex.decode("d0e30db0")),
            from: dev)
        let withdraw = Hex.encodePrefixed(
            try node.node.sendUnsigned(
                TransactionRequest(
                    from: dev, to: weth, data: try Hex.decode("2e1a7d4d") + UInt256(400 as UInt64).bigEndianBytes),
                from: dev))
        let operations = try await node.rpc("ots_getInternalOperations", [.string(withdraw)])["result"]
        #expect(
            operations?.serialized
                == #"[{"type":0,"from":"\#(weth.lowercased)","to":"\#(dev.lowercased)","value":"0x190"}]"#)
        let trace = try await node.rpc("ots_traceTransaction", [.string(withdraw)])["result"]?.arrayValue ?? []
        #expect(trace.map { $0["depth"] } == [.number("0"), .number("1")])
        #expect(trace.last?["value"] == .string("0x190"))
        // A failed transfer (more USDC than the sender holds): its revert data, found by running the call again.
        let usdc = node.node.snapshotOfLedger.nativeContracts.tokens.first { $0.symbol == "USDC" }!.address
        var failing = TransactionRequest(
            from: to, to: usdc,
            data: try Hex.decode("a9059cbb") + [UInt8](repeating: 0, count: 12) + dev.bytes
                + UInt256(1 as UInt64).bigEndianBytes)
        failing.gas = 100_000
        _ = try await node.rpc("anvil_setBalance", [.string(to.lowercased), .string("0xde0b6b3a7640000")])
        _ = try await node.rpc("anvil_impersonateAccount", [.string(to.lowercased)])
        let sent = try await node.rpc(
            "eth_sendTransaction",
            [
                .object([
                    ("from", .string(to.lowercased)), ("to", .string(usdc.lowercased)),
                    ("data", .string(Hex.encodePrefixed(failing.data))), ("gas", .string("0x186a0")),
                ])
            ])
        let failed = sent["result"]?.stringValue ?? ""
        let status = try await node.rpc("eth_getTransactionReceipt", [.string(failed)])["result"]?["status"]
        #expect(status == .string("0x0"), "\(sent.serialized)")
        let reason = try await node.rpc("ots_getTransactionError", [.string(failed)])["result"]?.stringValue ?? ""
        #expect(reason.hasPrefix("0x08c379a0"), "Error(string): \(reason)")
    }
}
