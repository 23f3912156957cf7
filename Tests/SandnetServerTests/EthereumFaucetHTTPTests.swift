import DevNetwork
import EthereumNode
import EthereumTypes
import JSONCoding
import JSONRPC
import SandnetServer
import Synchronization
import Testing

/// The Ethereum faucet's rules live in ``EthereumFaucet`` (the node); `sandnet_faucet` and `POST /api/claim` (the
/// server's ``EthereumFaucet/claim(httpBody:clientIP:)``) share the payout, the cooldowns and the dry check, with
/// eth-faucet's texts and statuses.
@Suite struct EthereumFaucetTests {
    static let dead = "0x000000000000000000000000000000000000dead"
    static let fresh = "0x000000000000000000000000000000000000f00d"

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

    @Test func httpClaimsAnswerInEthFaucetsShape() throws {
        let (node, clock) = try makeNode { $0.faucetCooldown = 90 }
        let faucet = node.faucet
        let ok = faucet.claim(httpBody: Array(#"{"address":"\#(Self.dead)"}"#.utf8), clientIP: "10.0.0.1")
        #expect(ok.status == 200)
        #expect(ok.retryAfter == nil)
        let message = try #require(ok.body["msg"]?.stringValue)
        #expect(message.hasPrefix("Txhash: 0x") && message.count == "Txhash: 0x".count + 64)
        let hash = String(message.dropFirst("Txhash: ".count))
        #expect(
            try node.call("eth_getTransactionByHash", [.string(hash)])["from"] == .string(node.faucetAddress.lowercased)
        )
        #expect(try node.call("eth_getBalance", [.string(Self.dead)]) == .string("0xde0b6b3a7640000"))

        let refusals: [(String, Int, String)] = [
            ("{", 400, "invalid request body: expected {\"address\": \"0x…\"}"),
            (#"{"address":"\#(Self.dead)","x":1}"#, 400, "invalid request body: expected {\"address\": \"0x…\"}"),
            (#"{"address":7}"#, 400, "invalid request body: expected {\"address\": \"0x…\"}"),
            (#"{"address":"0x1234"}"#, 400, "invalid address"),
            (
                #"{"address":"\#(Self.dead)"}"#, 429,
                "You have exceeded the rate limit. Please wait 1m30s before you try again"
            ),
        ]
        for (body, status, text) in refusals {
            let reply = faucet.claim(httpBody: Array(body.utf8), clientIP: "10.0.0.2")
            #expect(reply.status == status, "\(body)")
            #expect(reply.body == .object([("msg", .string(text))]), "\(body)")
        }
        // The per-IP cooldown: another address from the same client waits as long.
        clock.advance(30)
        let sameIP = faucet.claim(
            httpBody: Array(#"{"address":"0x000000000000000000000000000000000000beef"}"#.utf8), clientIP: "10.0.0.1")
        #expect(sameIP.status == 429)
        #expect(sameIP.retryAfter == 60)
        #expect(
            sameIP.body["msg"] == .string("You have exceeded the rate limit. Please wait 1m0s before you try again"))
    }

    @Test func theRPCMethodAndTheHTTPRouteShareTheCooldown() throws {
        let (node, _) = try makeNode { $0.faucetCooldown = 3_600 }
        _ = try node.call("sandnet_faucet", [.string(Self.dead)])
        let reply = node.faucet.claim(httpBody: Array(#"{"address":"\#(Self.dead)"}"#.utf8), clientIP: nil)
        #expect(reply.status == 429)
        #expect(reply.retryAfter == 3_600)
        #expect(
            reply.body["msg"] == .string("You have exceeded the rate limit. Please wait 1h0m0s before you try again"))
        do {
            _ = try node.call("sandnet_faucet", [.string(Self.dead)])
            Issue.record("a second claim within the cooldown was accepted")
        } catch let error as RPCError {
            #expect(error.code == -32005)
            #expect(error.message == "You have exceeded the rate limit. Please wait 1h0m0s before you try again")
        }
    }

    @Test func aDryFaucetAnswers500() throws {
        let (node, _) = try makeNode {
            $0.faucetBalance = UInt256(1_000 as UInt64)
            $0.chain.genesisBaseFee = UInt256(7 as UInt64)
        }
        let reply = node.faucet.claim(httpBody: Array(#"{"address":"\#(Self.dead)"}"#.utf8), clientIP: nil)
        #expect(reply.status == 500)
        // 1 ETH plus 21,000 gas at twice the next base fee (7 wei) plus the idle tip (1 gwei).
        #expect(
            reply.body["msg"]
                == .string(
                    "Transaction failed: the faucet has run dry (balance 1000 wei, claim needs 1000021000000294000 wei)"
                ))
        #expect(reply.retryAfter == nil)
    }

    @Test func infoIsEthFaucetsShape() throws {
        let (node, _) = try makeNode { $0.faucetAmount = UInt256(500_000_000_000_000_000 as UInt64) }
        #expect(
            node.faucet.info
                == .object([
                    ("account", .string(node.faucetAddress.checksummed)), ("network", .string("sepolia")),
                    ("payout", .string("0.5")), ("symbol", .string("ETH")),
                    (
                        "tokens",
                        .array(
                            [
                                ("USDC", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"),
                                ("WETH", "0xfFf9976782d46CC05630D1f6eBAb18b2324d6B14"),
                                ("LINK", "0x779877A7B0D9E8603169DdbD7836e478b4624789"),
                                ("USDT", "0x7e57000000000000000000000000000000005D70"),
                            ].map {
                                .object([
                                    ("symbol", .string($0.0)), ("address", .string($0.1)), ("payout", .string("1000")),
                                ])
                            })
                    ),
                    (
                        "nfts",
                        .array(
                            [
                                ("0x5a4d000000000000000000000000000000000721", "ERC721", "Sandnet Shapes", "SHAPE"),
                                ("0x5A4D000000000000000000000000000000001155", "ERC1155", "Sandnet Items", "ITEM"),
                            ].map {
                                .object([
                                    ("address", .string($0.0)), ("standard", .string($0.1)), ("name", .string($0.2)),
                                    ("symbol", .string($0.3)),
                                ])
                            })
                    ),
                ]))
    }

    /// Moved from TokenRPCTests.faucetPaysTokens with the HTTP shaping: each asset has its own cooldown.
    @Test func tokenClaimsOverTheHTTPRoute() throws {
        let (node, _) = try makeNode { $0.faucetCooldown = 60 }
        _ = try node.call("sandnet_faucet", [.string(Self.fresh), .null, .string("usdc")])
        let reply = node.faucet.claim(
            httpBody: Array(#"{"address":"\#(Self.fresh)","token":"LINK"}"#.utf8), clientIP: "10.0.0.9")
        #expect(reply.status == 200)
        // Each asset has its own cooldown: a second USDC claim waits, the LINK one went through.
        let again = node.faucet.claim(
            httpBody: Array(#"{"address":"\#(Self.fresh)","token":"USDC"}"#.utf8), clientIP: "10.0.0.9")
        #expect(again.status == 429)
        let bad = node.faucet.claim(
            httpBody: Array(#"{"address":"\#(Self.fresh)","token":"DOGE"}"#.utf8), clientIP: "10.0.0.9")
        #expect(bad.status == 400 && bad.body["msg"] == .string("unknown token: this chain has USDC, WETH, LINK, USDT"))
    }

}

extension SandnetNode {
    /// A JSON-RPC call to the node's methods (as the server dispatches them); throws the error it answers.
    fileprivate func call(_ method: String, _ params: [JSON] = []) throws -> JSON {
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        let response = try JSON.parse(DevelopmentNetwork(node: self).dispatcher.handle(request.bytes)!)
        if let error = response["error"] {
            throw RPCError(
                code: Int(
                    error["code"].flatMap { if case .number(let n) = $0 { return Int(n) } else { return nil } } ?? 0),
                message: error["message"]?.stringValue ?? "")
        }
        return response["result"]!
    }
}
