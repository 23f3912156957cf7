import EthereumTypes
import JSONCoding
import JSONRPC
import KeyValueStorage
import Testing

@testable import EthereumNode

/// Issue 19: Anvil's impersonation and eth_sendUnsignedTransaction: sending from an address without its key.
@Suite struct ImpersonationTests {
    static let whale = "0x" + String(repeating: "12", count: 20)
    static let other = "0x" + String(repeating: "34", count: 20)

    static func transfer(from: String, to: String, value: String = "0x3e8") -> JSON {
        .object([("from", .string(from)), ("to", .string(to)), ("value", .string(value))])
    }

    @Test func impersonatedAddressSendsWithoutItsKey() throws {
        let (node, _) = try makeNode()
        let to = node.devAccounts[1].address.lowercased
        _ = try node.call("anvil_setBalance", [.string(Self.whale), .string("0xde0b6b3a7640000")])
        #expect(throws: RPCError(code: -32000, message: "unknown account")) {
            try node.call("eth_sendTransaction", [Self.transfer(from: Self.whale, to: to)])
        }
        #expect(try node.call("anvil_impersonateAccount", [.string(Self.whale)]) == .null)
        let balanceBefore = try node.call("eth_getBalance", [.string(to), .string("latest")])
        let hash = try node.call("eth_sendTransaction", [Self.transfer(from: Self.whale, to: to)])
        let receipt = try node.call("eth_getTransactionReceipt", [hash])
        #expect(receipt["from"] == .string(Self.whale) && receipt["status"] == .string("0x1"))
        #expect(try node.call("eth_getTransactionByHash", [hash])["from"] == .string(Self.whale))
        #expect(try node.call("eth_getTransactionCount", [.string(Self.whale), .string("latest")]) == .string("0x1"))
        #expect(try node.call("eth_getBalance", [.string(to), .string("latest")]) != balanceBefore)
        // The hardhat_ name stops it as well; the key-holding dev accounts are unaffected.
        #expect(try node.call("hardhat_stopImpersonatingAccount", [.string(Self.whale)]) == .null)
        #expect(throws: RPCError(code: -32000, message: "unknown account")) {
            try node.call("eth_sendTransaction", [Self.transfer(from: Self.whale, to: to)])
        }
        _ = try node.call("hardhat_impersonateAccount", [.string(Self.whale)])
        _ = try node.call("eth_sendTransaction", [Self.transfer(from: Self.whale, to: to)])
        #expect(try node.call("eth_getTransactionCount", [.string(Self.whale), .string("latest")]) == .string("0x2"))
    }

    @Test func autoImpersonationCoversEveryAddress() throws {
        let (node, _) = try makeNode { $0.autoImpersonate = true }
        _ = try node.call("anvil_setBalance", [.string(Self.other), .string("0xde0b6b3a7640000")])
        let hash = try node.call("eth_sendTransaction", [Self.transfer(from: Self.other, to: Self.whale)])
        #expect(try node.call("eth_getTransactionReceipt", [hash])["from"] == .string(Self.other))
        #expect(try node.call("anvil_autoImpersonateAccount", [.bool(false)]) == .null)
        #expect(throws: RPCError(code: -32000, message: "unknown account")) {
            try node.call("eth_sendTransaction", [Self.transfer(from: Self.other, to: Self.whale)])
        }
        _ = try node.call("anvil_autoImpersonateAccount", [.bool(true)])
        #expect(node.impersonation.covers(try Address(parsing: Self.whale)))
    }

    @Test func unsignedTransactionsNeedNoImpersonationAndDifferPerSender() throws {
        let (node, _) = try makeNode()
        for address in [Self.whale, Self.other] {
            _ = try node.call("anvil_setBalance", [.string(address), .string("0xde0b6b3a7640000")])
        }
        let request = { (from: String) in
            JSON.object([
                ("from", .string(from)), ("to", .string(node.devAccounts[0].address.lowercased)),
                ("value", .string("0x1")), ("gas", .string("0x5208")), ("maxFeePerGas", .string("0x77359400")),
                ("maxPriorityFeePerGas", .string("0x1")), ("nonce", .string("0x0")),
            ])
        }
        let a = try node.call("eth_sendUnsignedTransaction", [request(Self.whale)])
        let b = try node.call("eth_sendUnsignedTransaction", [request(Self.other)])
        #expect(a != b)
        #expect(try node.call("eth_getTransactionReceipt", [a])["from"] == .string(Self.whale))
        #expect(try node.call("eth_getTransactionReceipt", [b])["from"] == .string(Self.other))
        #expect(throws: RPCError(code: -32602, message: "missing from")) {
            try node.call("eth_sendUnsignedTransaction", [.object([("to", .string(Self.other))])])
        }
    }

    @Test func unsignedSenderSurvivesReopeningTheDataDirectory() throws {
        let store = InMemoryStore()
        var config = NodeConfiguration()
        config.autoImpersonate = true
        let node = try SandnetNode(configuration: config, store: store, clock: { 1_800_000_000 })
        _ = try node.call("anvil_setBalance", [.string(Self.whale), .string("0xde0b6b3a7640000")])
        let hash = try node.call("eth_sendTransaction", [Self.transfer(from: Self.whale, to: Self.other)])
        try node.shutdown()
        let reopened = try SandnetNode(configuration: config, store: store, clock: { 1_800_000_000 })
        #expect(try reopened.call("eth_getTransactionByHash", [hash])["from"] == .string(Self.whale))
        #expect(
            try reopened.call("eth_getTransactionCount", [.string(Self.whale), .string("latest")]) == .string("0x1"))
    }

    @Test func impersonationIsBounded() throws {
        let (node, _) = try makeNode()
        do {
            for i in 0..<Impersonation.limit {
                var bytes = [UInt8](repeating: 0, count: 20)
                bytes[16] = UInt8(truncatingIfNeeded: i >> 24)
                bytes[17] = UInt8(truncatingIfNeeded: i >> 16)
                bytes[18] = UInt8(truncatingIfNeeded: i >> 8)
                bytes[19] = UInt8(truncatingIfNeeded: i)
                try node.impersonation.impersonate(Address(bytes)!)
            }
        }
        #expect(
            throws: RPCError(code: -32005, message: NodeError.tooManyImpersonatedAccounts(limit: 10_000).description)
        ) {
            try node.call("anvil_impersonateAccount", [.string(Self.whale)])
        }
    }
}
