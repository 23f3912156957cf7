import ByteCoding
import EthereumLedger
import EthereumRPC
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// Client-supplied numbers and shapes that used to crash, freeze or bloat the node (issue 15): each now gets a
/// JSON-RPC error with geth's code and wording (or one naming the limit), and the node stays consistent.
@Suite struct NodeGuardTests {
    static let max256 = "0x" + String(repeating: "f", count: 64)
    static let max64 = "0xffffffffffffffff"
    static let fresh = "0x000000000000000000000000000000000000dead"

    func expectError(
        _ node: SandnetNode, _ method: String, _ params: [JSON], code: Int, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let result = try node.call(method, params)
            Issue.record(
                "\(method) answered \(result), expected error \(code) \(message)", sourceLocation: sourceLocation)
        } catch let error as RPCError {
            #expect(error.code == code, sourceLocation: sourceLocation)
            #expect(error.message == message, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
        }
    }

    /// The conservation invariant and a consistent head, after every test.
    func expectConsistent(_ node: SandnetNode, sourceLocation: SourceLocation = #_sourceLocation) {
        let chain = node.snapshotOfLedger
        #expect(chain.world.sumOfBalances + chain.burned == chain.totalSupply, sourceLocation: sourceLocation)
        #expect(chain.block(number: chain.blockNumber)?.hash == chain.head.hash, sourceLocation: sourceLocation)
    }

    // MARK: Fees

    @Test func hugeTipWithoutFeeCapIsRefusedNotTrapped() throws {
        let (node, _) = try makeNode()
        let dev = node.devAccounts
        expectError(
            node, "eth_sendTransaction",
            [
                .object([
                    ("from", .string(dev[0].address.lowercased)), ("to", .string(dev[1].address.lowercased)),
                    ("maxPriorityFeePerGas", .string(Self.max256)),
                ])
            ],
            code: -32000, message: "max fee per gas higher than 2^256-1")
        expectConsistent(node)
    }

    @Test func defaultFeePolicyIsOneCheckedFunction() {
        let gwei = UInt256(1_000_000_000 as UInt64)
        #expect(FeeMarket.defaultMaxFee(baseFee: gwei, tip: gwei) == UInt256(3_000_000_000 as UInt64))
        #expect(FeeMarket.defaultMaxFee(baseFee: UInt256(1) << 255, tip: .zero) == nil)
        #expect(FeeMarket.defaultMaxFee(baseFee: .zero, tip: .max) == .max)
        #expect(FeeMarket.defaultMaxFee(baseFee: UInt256(1), tip: .max) == nil)
    }

    @Test func baseFeeArithmeticSaturatesInsteadOfTrapping() throws {
        let max = UInt256.max
        // Empty parent: −12.5 %, computed without the 512-bit product.
        #expect(
            FeeMarket.nextBaseFee(parentBaseFee: max, parentGasUsed: 0, parentGasLimit: 60_000_000)
                == UInt256(hexDigits: "e" + String(repeating: "0", count: 63))!)
        // Full parent: +12.5 % saturates at 2^256 − 1.
        #expect(FeeMarket.nextBaseFee(parentBaseFee: max, parentGasUsed: 60_000_000, parentGasLimit: 60_000_000) == max)
        // Realistic values are unchanged: 1 gwei, full block → 1.125 gwei.
        #expect(
            FeeMarket.nextBaseFee(
                parentBaseFee: UInt256(1_000_000_000 as UInt64), parentGasUsed: 60_000_000, parentGasLimit: 60_000_000)
                == UInt256(1_125_000_000 as UInt64))
    }

    @Test func maximumBaseFeeThenGasPriceAndMining() throws {
        let (node, _) = try makeNode()
        _ = try node.call("anvil_setNextBlockBaseFeePerGas", [.string(Self.max256)])
        // eth_gasPrice adds the tip to the latest block's base fee (geth): genesis 1 gwei + 1 gwei.
        #expect(try node.call("eth_gasPrice") == .string("0x77359400"))
        _ = try node.call("evm_mine")
        #expect(try node.call("eth_blockNumber") == .string("0x1"))
        // The mined block's base fee is 2^256 − 1: base fee + tip saturates instead of wrapping.
        #expect(try node.call("eth_gasPrice") == .string(Self.max256))
        expectConsistent(node)
    }

    @Test func baseFeeOf2To255ThenFaucetClaim() throws {
        let (node, _) = try makeNode()
        _ = try node.call("anvil_setNextBlockBaseFeePerGas", [.string("0x8" + String(repeating: "0", count: 63))])
        expectError(
            node, "sandnet_faucet", [.string(Self.fresh)], code: -32000,
            message: "Transaction failed: max fee per gas higher than 2^256-1")
        expectConsistent(node)
    }

    // MARK: Faucet

    @Test func faucetAmountOverflowIsRefused() throws {
        let (node, _) = try makeNode()
        expectError(
            node, "sandnet_faucet", [.string(Self.fresh), .string(Self.max256)], code: -32000,
            message: "Transaction failed: the faucet has run dry (balance 1000000000000000000000000 wei, claim needs "
                + "more than 2^256-1 wei)")
        expectConsistent(node)
    }

    @Test func faucetAboveThePayoutNeedsDevMethods() throws {
        let (node, _) = try makeNode { $0.devMethodsEnabled = false }
        let ether900k = Quantity.encode(UInt256(900_000 as UInt64) * UInt256(1_000_000_000_000_000_000 as UInt64))
        expectError(
            node, "sandnet_faucet", [.string(Self.fresh), .string(ether900k)], code: -32602,
            message: "invalid argument 1: amount 900000000000000000000000 wei exceeds the faucet payout of "
                + "1000000000000000000 wei; larger amounts need developer methods (--allow-dev-methods)")
        // The payout itself, or less, is fine.
        _ = try node.call("sandnet_faucet", [.string(Self.fresh), .string("0xde0b6b3a7640000")])
        #expect(try node.call("eth_getBalance", [.string(Self.fresh)]) == .string("0xde0b6b3a7640000"))
    }

    @Test func faucetOverRPCObeysTheCooldownPerAddressAndPerIP() throws {
        let (node, clock) = try makeNode {
            $0.devMethodsEnabled = false
            $0.faucetCooldown = 3_600
        }
        func claim(_ address: String, from ip: String) -> JSON {
            let request = JSON.object([
                ("jsonrpc", .string("2.0")), ("id", .number("7")), ("method", .string("sandnet_faucet")),
                ("params", .array([.string(address)])),
            ])
            return try! JSON.parse(
                EthereumMethods.dispatcher(node).handle(request.bytes, client: RPCClient(address: ip))!)
        }
        #expect(claim(Self.fresh, from: "10.0.0.1")["result"]?.stringValue?.count == 66)
        let sameIP = claim("0x000000000000000000000000000000000000beef", from: "10.0.0.1")
        #expect(sameIP["error"]?["code"] == .number("-32005"))
        #expect(
            sameIP["error"]?["message"]
                == .string("You have exceeded the rate limit. Please wait 1h0m0s before you try again"))
        let sameAddress = claim(Self.fresh, from: "10.0.0.2")
        #expect(sameAddress["error"]?["code"] == .number("-32005"))
        clock.advance(3_600)
        #expect(claim("0x000000000000000000000000000000000000beef", from: "10.0.0.1")["result"] != nil)
    }

    // MARK: Balances and state dumps

    @Test func setBalanceThatWouldOverflowTheSupplyIsRefused() throws {
        let (node, _) = try makeNode()
        expectError(
            node, "anvil_setBalance", [.string(Self.fresh), .string(Self.max256)], code: -32602,
            message: "balance 115792089237316195423570985008687907853269984665640564039457584007913129639935 wei is "
                + "too large: the total supply would exceed 2^256-1 wei (this account can hold at most "
                + "115792089237316195423570985008687907853269984665639552939457584007913129639935 wei)")
        #expect(try node.call("eth_getBalance", [.string(Self.fresh)]) == .string("0x0"))
        // The largest balance that fits is accepted, and the invariant still holds. (The supply counts the dev
        // accounts' and the faucet's ETH and the 1.01 × 10^9 ETH backing their genesis WETH.)
        let fits = UInt256(decimal: "115792089237316195423570985008687907853269984665639552939457584007913129639935")!
        _ = try node.call("anvil_setBalance", [.string(Self.fresh), .string(Quantity.encode(fits))])
        #expect(node.snapshotOfLedger.totalSupply == .max)
        expectConsistent(node)
    }

    @Test func stateDumpThatWouldOverflowTheSupplyChangesNothing() throws {
        let (node, _) = try makeNode()
        let dev = node.devAccounts[0].address.lowercased
        let dump = """
            {"accounts": {"\(dev)": {"balance": "0x0", "nonce": "0x5"}, "\(Self.fresh)": {"balance": "\(Self.max256)"}}}
            """
        #expect(
            throws: LedgerError.valueOutOfRange(
                "state dump balances are too large: the total supply would exceed 2^256-1 wei")
        ) {
            try StateDump.load(Array(dump.utf8), into: node)
        }
        #expect(try node.call("eth_getTransactionCount", [.string(dev)]) == .string("0x0"))
        expectError(
            node, "anvil_loadState", [.string(Hex.encodePrefixed(Array(dump.utf8)))], code: -32602,
            message: "state dump balances are too large: the total supply would exceed 2^256-1 wei")
        // Lowering one balance makes room for another in the same dump.
        let supply = node.snapshotOfLedger.totalSupply
        let room = UInt256.max - supply + node.snapshotOfLedger.account(node.devAccounts[0].address).balance
        let fitting = """
            {"accounts": {"\(Self.fresh)": {"balance": "\(Quantity.encode(room))"}, "\(dev)": {"balance": "0x0"}}}
            """
        try StateDump.load(Array(fitting.utf8), into: node)
        #expect(node.snapshotOfLedger.totalSupply == .max)
        expectConsistent(node)
    }

    @Test func genesisBalancesMustFitTheSupply() {
        #expect(throws: LedgerError.valueOutOfRange("genesis balances total more than 2^256-1 wei")) {
            _ = try makeNode { $0.accountBalance = .max }
        }
    }

    // MARK: Mining and time

    @Test func evmMineBlockCountsAreCapped() throws {
        let (node, _) = try makeNode()
        for blocks: JSON in [.string(Self.max64), .number("1000000000"), .number("400000"), .string("0x186a1")] {
            expectError(
                node, "evm_mine", [.object([("blocks", blocks)])], code: -32602,
                message: "cannot mine more than 100000 blocks at once")
        }
        expectError(
            node, "anvil_mine", [.string(Self.max64)], code: -32602,
            message: "cannot mine more than 100000 blocks at once")
        #expect(try node.call("eth_blockNumber") == .string("0x0"))
        _ = try node.call("evm_mine", [.object([("blocks", .number("3"))])])
        #expect(try node.call("eth_blockNumber") == .string("0x3"))
    }

    @Test func smallerBlockLimitIsNamed() throws {
        let (node, _) = try makeNode { $0.maxBlocksPerRequest = 10 }
        expectError(
            node, "evm_mine", [.object([("blocks", .number("11"))])], code: -32602,
            message: "cannot mine more than 10 blocks at once")
    }

    @Test func reorgDepthIsCheckedBeforeConversion() throws {
        let (node, _) = try makeNode()
        _ = try node.call("anvil_mine", [.string("0x2")])
        expectError(
            node, "anvil_reorg", [.string(Self.max64)], code: -32602,
            message: "cannot reorg more than 100000 blocks at once")
        expectError(
            node, "anvil_reorg", [.string("0x3")], code: -32602,
            message: "reorg depth must be between 1 and the chain height (2)")
        _ = try node.call("anvil_reorg", [.string("0x2")])
        #expect(try node.call("eth_blockNumber") == .string("0x2"))
        expectConsistent(node)
    }

    @Test func mineIntervalThatPassesTheLastTimestampIsRefused() throws {
        let (node, _) = try makeNode()
        expectError(
            node, "anvil_mine", [.string("0x2"), .string(Self.max64)], code: -32602,
            message: "cannot mine 2 blocks 18446744073709551615 seconds apart: timestamps may not pass 253402300799 "
                + "(9999-12-31T23:59:59Z)")
        #expect(try node.call("eth_blockNumber") == .string("0x0"))
        _ = try node.call("anvil_mine", [.string("0x2"), .string("0x3c")])
        let one = try node.call("eth_getBlockByNumber", [.string("0x1"), .bool(false)])
        let two = try node.call("eth_getBlockByNumber", [.string("0x2"), .bool(false)])
        let t1 = try Quantity.parseUInt64(one["timestamp"]!.stringValue!)
        #expect(try Quantity.parseUInt64(two["timestamp"]!.stringValue!) == t1 + 60)
    }

    @Test func increaseTimeBeyondTheLastTimestampIsRefused() throws {
        let (node, _) = try makeNode()
        expectError(
            node, "evm_increaseTime", [.string(Self.max64)], code: -32602,
            message: "cannot increase time by 18446744073709551615 seconds: the clock may not pass 253402300799 "
                + "(9999-12-31T23:59:59Z)")
        #expect(try node.call("evm_increaseTime", [.number("3600")]) == .string("0xe10"))
        _ = try node.call("evm_mine")
        _ = try node.call("evm_mine")
        #expect(try node.call("eth_blockNumber") == .string("0x2"))
        expectConsistent(node)
    }

    @Test func nextTimestampBeyondTheLastIsRefusedAndTheLastStillMines() throws {
        let (node, _) = try makeNode()
        expectError(
            node, "evm_setNextBlockTimestamp", [.string(Self.max64)], code: -32602,
            message:
                "timestamp 18446744073709551615 is too large: the latest allowed is 253402300799 (9999-12-31T23:59:59Z)"
        )
        expectError(
            node, "evm_mine", [.string(Self.max64)], code: -32602,
            message:
                "timestamp 18446744073709551615 is too large: the latest allowed is 253402300799 (9999-12-31T23:59:59Z)"
        )
        _ = try node.call("evm_setNextBlockTimestamp", [.number("253402300799")])
        _ = try node.call("evm_mine")
        _ = try node.call("evm_mine")
        let head = try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])
        #expect(head["timestamp"] == .string(Quantity.encode(UInt64(253_402_300_800))))
    }

    @Test func intervalMiningPeriodIsBounded() throws {
        let (node, clock) = try makeNode()
        expectError(
            node, "evm_setIntervalMining", [.string(Self.max64)], code: -32602,
            message: "interval 18446744073709551615 is too long: at most 31536000 seconds (one year)")
        _ = try node.call("evm_setIntervalMining", [.number("31536000")])
        node.tick()  // the genesis block is older than a year on the test clock
        node.tick()
        #expect(try node.call("eth_blockNumber") == .string("0x1"))
        clock.advance(UInt64.max - clock.now)
        node.tick()
        #expect(try node.call("eth_blockNumber") == .string("0x2"))
    }

    @Test func snapshotsAreBounded() throws {
        let (node, _) = try makeNode { $0.snapshotLimit = 2 }
        _ = try node.call("evm_snapshot")
        #expect(try node.call("evm_snapshot") == .string("0x2"))
        expectError(
            node, "evm_snapshot", [], code: -32005,
            message: "too many snapshots: limit is 2 (evm_revert consumes a snapshot)")
        #expect(try node.call("evm_revert", [.string("0x2")]) == .bool(true))
        #expect(try node.call("evm_snapshot") == .string("0x3"))
    }
}
