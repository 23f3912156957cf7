import EthereumRPC
import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// The fee answers of issue 30, each as geth v1.17.5 gives it (`internal/ethapi/api.go` `GasPrice`,
/// `eth/gasprice/gasprice.go` `SuggestTipCap`, `eth/gasestimator`, `internal/ethapi/transaction_args.go`).
@Suite struct GethFeeAnswerTests {
    static let fresh = "0x000000000000000000000000000000000000dead"
    static let gwei: UInt64 = 1_000_000_000

    static func q(_ value: UInt64) -> JSON { .string("0x" + String(value, radix: 16)) }

    func expectError(
        _ node: SandnetNode, _ method: String, _ params: [JSON], code: Int = -32000, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let result = try node.call(method, params)
            Issue.record("\(method) answered \(result), expected \(message)", sourceLocation: sourceLocation)
        } catch let error as RPCError {
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(error.message == message, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Sends one EIP-1559 transfer per tip from dev accounts 1… (not the coinbase) into one block, then mines it.
    func mineBlock(_ node: SandnetNode, tips: [UInt64], from first: Int = 1) throws {
        _ = try node.call("evm_setAutomine", [.bool(false)])
        for (i, tip) in tips.enumerated() {
            let from = node.devAccounts[first + i].address.lowercased
            _ = try node.call(
                "eth_sendTransaction",
                [
                    .object([
                        ("from", .string(from)), ("to", .string(Self.fresh)), ("value", .string("0x1")),
                        ("maxPriorityFeePerGas", Self.q(tip)), ("maxFeePerGas", Self.q(tip + 10 * Self.gwei)),
                    ])
                ])
        }
        _ = try node.call("evm_mine")
        _ = try node.call("evm_setAutomine", [.bool(true)])
    }

    @Test func gasPriceAddsTheLatestBlocksBaseFeeNotTheNext() throws {
        let (node, _) = try makeNode()
        _ = try node.call("anvil_setNextBlockBaseFeePerGas", [Self.q(5 * Self.gwei)])
        // Latest (genesis) base fee 1 gwei + the oracle's start answer 1 gwei; the next block's 5 gwei is not used.
        #expect(try node.call("eth_gasPrice") == Self.q(2 * Self.gwei))
        _ = try node.call("evm_mine")
        #expect(try node.call("eth_gasPrice") == Self.q(6 * Self.gwei))
    }

    @Test func tipOracleTakesTheThreeLowestTipsPerBlock() throws {
        let (node, _) = try makeNode()
        try mineBlock(node, tips: [1, 2, 3, 4, 5].map { $0 * Self.gwei })
        // Block 1 gives 1, 2, 3 gwei; the 60th percentile of three values is the second.
        #expect(try node.call("eth_maxPriorityFeePerGas") == Self.q(2 * Self.gwei))
        // An empty block repeats the last answer: [2] + [1, 2, 3] → the second of four is 2 gwei.
        _ = try node.call("evm_mine")
        #expect(try node.call("eth_maxPriorityFeePerGas") == Self.q(2 * Self.gwei))
    }

    @Test func tipOracleSkipsDustTipsAndTheCoinbasesOwn() throws {
        let (node, _) = try makeNode()
        // Tips under 2 wei are ignored: only 5 gwei remains.
        try mineBlock(node, tips: [1, 1, 5 * Self.gwei])
        #expect(try node.call("eth_maxPriorityFeePerGas") == Self.q(5 * Self.gwei))
        // The coinbase's own transactions are skipped: dev 1 mines, so its 1 gwei tip does not count.
        _ = try node.call("anvil_setCoinbase", [.string(node.devAccounts[1].address.lowercased)])
        try mineBlock(node, tips: [1 * Self.gwei, 9 * Self.gwei])
        // Values: block 2 → [9], block 1 → [5]: the 60th percentile of [5, 9] is 5 gwei.
        #expect(try node.call("eth_maxPriorityFeePerGas") == Self.q(5 * Self.gwei))
    }

    @Test func tipOracleIsCappedAt500Gwei() throws {
        let (node, _) = try makeNode()
        try mineBlock(node, tips: [600 * Self.gwei, 700 * Self.gwei])
        #expect(try node.call("eth_maxPriorityFeePerGas") == Self.q(500 * Self.gwei))
    }

    @Test func callsFromAnAccountThatCannotPayAnswerAsGeth() throws {
        let (node, _) = try makeNode()
        let transfer: [(String, JSON)] = [
            ("from", .string(Self.fresh)), ("to", .string(node.devAccounts[1].address.lowercased)),
            ("value", .string("0x38d7ea4c68000")),
        ]
        let want = "insufficient funds for gas * price + value: address 0x000000000000000000000000000000000000dEaD "
        expectError(
            node, "eth_estimateGas", [.object(transfer)],
            message: "failed with 16777216 gas: " + want + "have 0 want 1000000000000000")
        expectError(node, "eth_call", [.object(transfer)], message: want + "have 0 want 1000000000000000")
        // With a fee cap the estimator checks the value against the balance first.
        expectError(
            node, "eth_estimateGas", [.object(transfer + [("maxFeePerGas", Self.q(2 * Self.gwei))])],
            message: "insufficient funds for transfer")
        // eth_call with a fee cap and no gas buys the RPC gas cap's worth: 50,000,000 × 2 gwei + value.
        expectError(
            node, "eth_call", [.object(transfer + [("maxFeePerGas", Self.q(2 * Self.gwei))])],
            message: want + "have 0 want 101000000000000000")
        // A tip above the fee cap: the state transition's text, wrapped by the estimator.
        let dev = node.devAccounts[0].address
        let tipAbove: [(String, JSON)] = [
            ("from", .string(dev.lowercased)), ("to", .string(Self.fresh)),
            ("maxFeePerGas", Self.q(2 * Self.gwei)), ("maxPriorityFeePerGas", Self.q(3 * Self.gwei)),
        ]
        let tipText =
            "max priority fee per gas higher than max fee per gas: address \(dev.checksummed), "
            + "maxPriorityFeePerGas: 3000000000, maxFeePerGas: 2000000000"
        expectError(node, "eth_call", [.object(tipAbove)], message: tipText)
        expectError(node, "eth_estimateGas", [.object(tipAbove)], message: "failed with 16777216 gas: " + tipText)
    }

    @Test func sendTransactionChecksItsFeeArgumentsAsGeth() throws {
        let (node, _) = try makeNode()
        let base: [(String, JSON)] = [
            ("from", .string(node.devAccounts[0].address.lowercased)), ("to", .string(Self.fresh)),
        ]
        expectError(
            node, "eth_sendTransaction",
            [
                .object(
                    base + [("maxFeePerGas", .string("0x3b9aca00")), ("maxPriorityFeePerGas", .string("0x77359400"))])
            ],
            message: "maxFeePerGas (0x3b9aca00) < maxPriorityFeePerGas (0x77359400)")
        // A fee cap alone: the suggested tip (1 gwei) fills the tip, then the same check.
        expectError(
            node, "eth_sendTransaction", [.object(base + [("maxFeePerGas", .string("0x1"))])],
            message: "maxFeePerGas (0x1) < maxPriorityFeePerGas (0x3b9aca00)")
        expectError(
            node, "eth_sendTransaction",
            [.object(base + [("maxFeePerGas", .string("0x0")), ("maxPriorityFeePerGas", .string("0x0"))])],
            message: "maxFeePerGas must be non-zero")
        expectError(
            node, "eth_sendTransaction", [.object(base + [("gasPrice", .string("0x0"))])],
            message: "gasPrice must be non-zero after london fork")
    }
}
