import ByteCoding
import EthereumNode
import EthereumRPC
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import Synchronization
import Testing

/// A settable clock for deterministic tests.
final class TestClock: Sendable {
    let time = Mutex<UInt64>(1_800_000_000)
    var now: UInt64 { time.withLock { $0 } }
    func advance(_ s: UInt64) { time.withLock { $0 += s } }
}

func makeNode(_ configure: (inout NodeConfiguration) -> Void = { _ in }) throws -> (SandnetNode, TestClock) {
    var config = NodeConfiguration()
    configure(&config)
    let clock = TestClock()
    return (try SandnetNode(configuration: config, clock: { clock.now }), clock)
}

extension SandnetNode {
    /// The node's JSON-RPC methods, as the server serves them (without the ICP ones).
    var dispatcher: RPCDispatcher { EthereumMethods.dispatcher(self) }

    func call(_ method: String, _ params: [JSON] = []) throws -> JSON {
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        let response = try JSON.parse(dispatcher.handle(request.bytes)!)
        if let error = response["error"] {
            throw RPCError(
                code: Int(
                    error["code"].flatMap { if case .number(let n) = $0 { return Int(n) } else { return nil } } ?? 0),
                message: error["message"]?.stringValue ?? "")
        }
        return response["result"]!
    }
}

@Suite struct NodeRPCTests {
    @Test func devAccountsAreAnvils() throws {
        let (node, _) = try makeNode()
        #expect(node.devAccounts[0].address.checksummed == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
        #expect(
            Hex.encode(node.devAccounts[0].privateKey)
                == "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
        #expect(try node.call("eth_chainId") == .string("0xaa36a7"))
        #expect(try node.call("net_version") == .string("11155111"))
        #expect(
            try node.call("eth_getBalance", [.string(node.devAccounts[1].address.lowercased), .string("latest")])
                == .string("0x21e19e0c9bab2400000"))
    }

    @Test func sendRawTransactionAndReceipt() throws {
        let (node, _) = try makeNode()
        let key = node.devAccounts[0].privateKey
        let to = node.devAccounts[1].address
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: 11_155_111, nonce: 0, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(3_000_000_000 as UInt64), gas: 21_000, to: to, value: UInt256(1_000 as UInt64)))
        let signed = try tx.signed(privateKey: key)
        let hash = try node.call("eth_sendRawTransaction", [.string(Hex.encodePrefixed(signed.encoded))])
        #expect(hash == .string(Hex.encodePrefixed(signed.hash)))
        let receipt = try node.call("eth_getTransactionReceipt", [hash])
        #expect(receipt["status"] == .string("0x1"))
        #expect(receipt["gasUsed"] == .string("0x5208"))
        #expect(try node.call("eth_blockNumber") == .string("0x1"))
        #expect(throws: RPCError.self) {
            try node.call("eth_sendRawTransaction", [.string(Hex.encodePrefixed(signed.encoded))])
        }
        do {
            _ = try node.call("eth_sendRawTransaction", [.string(Hex.encodePrefixed(signed.encoded))])
        } catch let e as RPCError {
            #expect(e.code == -32000)
            #expect(e.message == "nonce too low: next nonce 1, tx nonce 0")
        }
    }

    @Test func faucetRateLimit() throws {
        let (node, clock) = try makeNode { $0.faucetCooldown = 86_400 }
        let target = try Address(parsing: "0x000000000000000000000000000000000000dEaD")
        _ = try node.faucet.claim(address: target, clientIP: "10.0.0.1")
        #expect(try node.call("eth_getBalance", [.string(target.lowercased)]) == .string("0xde0b6b3a7640000"))
        #expect(throws: FaucetError.self) { try node.faucet.claim(address: target, clientIP: "10.0.0.2") }
        do {
            _ = try node.faucet.claim(
                address: try Address(parsing: "0x000000000000000000000000000000000000bEEF"), clientIP: "10.0.0.1")
            Issue.record("expected the IP limit")
        } catch let error as FaucetError {
            #expect(error == .cooldown(retryAfter: 86_400))
            #expect(error.message == "You have exceeded the rate limit. Please wait 24h0m0s before you try again")
        }
        clock.advance(86_400)
        _ = try node.faucet.claim(address: target, clientIP: "10.0.0.1")
    }
}
