import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import KeyValueStorage
import Testing

/// The run-time chain parameters (coinbase, gas limit, chain id), the timestamp rules, rollback, metadata and reset:
/// on the typed API, and through the JSON-RPC methods with Anvil's answers.
@Suite struct ChainControlsTests {
    static let other = Address([UInt8](repeating: 0xcb, count: 20))!

    /// A signed EIP-1559 transfer from dev account 0 (21,000 gas, 1 gwei tip) for `chainID`.
    static func transfer(_ node: SandnetNode, nonce: UInt64, chainID: UInt64, gas: UInt64 = 21_000) throws -> [UInt8] {
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: chainID, nonce: nonce, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gas: gas, to: node.devAccounts[1].address,
                value: UInt256(1_000 as UInt64)))
        return try tx.signed(privateKey: node.devAccounts[0].privateKey).encoded
    }

    static func rpcError(_ body: () throws -> JSON) -> RPCError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? RPCError
        }
    }

    // MARK: Coinbase, gas limit, chain id

    @Test func coinbaseReceivesTheTipsOfLaterBlocks() throws {
        let (node, _) = try makeNode()
        #expect(node.chain.coinbase == .zero)
        node.setCoinbase(Self.other)
        #expect(try node.call("eth_coinbase") == .string(Self.other.lowercased))
        try node.submit(raw: try Self.transfer(node, nonce: 0, chainID: node.chainID))
        let head = node.snapshotOfLedger.head
        #expect(head.header.coinbase == Self.other)
        let receipt = head.receipts[0]
        #expect(try node.chain.balance(of: Self.other) == UInt256(receipt.gasUsed) * UInt256(1_000_000_000 as UInt64))
        #expect(try node.call("anvil_setCoinbase", [.string(node.devAccounts[2].address.lowercased)]) == .null)
        #expect(try node.call("hardhat_setCoinbase", [.string(Self.other.lowercased)]) == .null)
        #expect(
            try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])["miner"]
                == .string(Self.other.lowercased))
    }

    @Test func gasLimitAppliesToLaterBlocksAndIsBounded() throws {
        let (node, _) = try makeNode { $0.miningMode = .manual }
        let big = try Self.transfer(node, nonce: 0, chainID: node.chainID, gas: 40_000)
        let bigHash = try node.submit(raw: big)
        #expect(try node.setBlockGasLimit(30_000) == [bigHash])  // geth's pool drops what can never fit
        #expect(!node.snapshotOfLedger.pool.contains(bigHash))
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.gasLimit == 30_000)
        #expect(node.blockGasLimit == 30_000)
        #expect(try node.call("anvil_setBlockGasLimit", [.string("0x1c9c380")]) == .bool(true))
        #expect(try node.call("evm_setBlockGasLimit", [.number("25000000")]) == .bool(true))
        try node.mine()
        #expect(
            try node.call("eth_getBlockByNumber", [.string("latest"), .bool(false)])["gasLimit"]
                == .string("0x17d7840"))
        let bounds =
            "out of range: at least 21000 (one transfer) and at most 9223372036854775807 (2^63-1)"
        #expect(throws: LedgerError.valueOutOfRange("block gas limit 0 is \(bounds)")) { try node.setBlockGasLimit(0) }
        #expect(
            Self.rpcError { try node.call("anvil_setBlockGasLimit", [.string("0x5207")]) }
                == RPCError(code: -32602, message: "block gas limit 20999 is \(bounds)"))
        #expect(
            Self.rpcError { try node.call("anvil_setBlockGasLimit", [.string("0x8000000000000000")]) }
                == RPCError(code: -32602, message: "block gas limit 9223372036854775808 is \(bounds)"))
        #expect(node.blockGasLimit == 25_000_000)
    }

    @Test func chainIDChangesAnswersAndWhatTransactionsMustCarry() throws {
        let (node, _) = try makeNode { $0.miningMode = .manual }
        let old = try node.submit(raw: try Self.transfer(node, nonce: 0, chainID: 11_155_111))
        #expect(try node.call("anvil_setChainId", [.string("0x539")]) == .null)
        #expect(try node.call("eth_chainId") == .string("0x539"))
        #expect(try node.call("net_version") == .string("1337"))
        #expect(!node.snapshotOfLedger.pool.contains(old))  // signed for the old chain id: dropped
        #expect(
            Self.rpcError {
                try node.call(
                    "eth_sendRawTransaction",
                    [.string(Hex.encodePrefixed(try Self.transfer(node, nonce: 0, chainID: 11_155_111)))])
            }
                == RPCError(
                    code: -32000, message: "invalid sender: invalid chain id for signer: have 11155111 want 1337"))
        let fresh = try node.submit(raw: try Self.transfer(node, nonce: 0, chainID: 1337))
        // eth_sendTransaction fills in the new chain id.
        let sent = try node.call(
            "eth_sendTransaction",
            [
                .object([
                    ("from", .string(node.devAccounts[0].address.lowercased)), ("to", .string(Self.other.lowercased)),
                ])
            ])
        #expect(try node.call("eth_getTransactionByHash", [sent])["chainId"] == .string("0x539"))
        try node.mine()
        #expect(node.chain.receipt(hash: fresh) != nil)
        #expect(
            throws: LedgerError.valueOutOfRange(
                "chain id 0 is out of range: at least 1 and at most 4503599627370476 (MetaMask's largest safe chain id)"
            )
        ) { try node.setChainID(0) }
        #expect(
            Self.rpcError { try node.call("anvil_setChainId", [.number("4503599627370477")]) }
                == RPCError(
                    code: -32602,
                    message: "chain id 4503599627370477 is out of range: at least 1 and at most 4503599627370476 "
                        + "(MetaMask's largest safe chain id)"))
        #expect(node.chainID == 1337)
    }

    @Test func evmRevertRestoresTheParameters() throws {
        let (node, _) = try makeNode()
        let id = try node.snapshot()
        node.setCoinbase(Self.other)
        try node.setBlockGasLimit(30_000_000)
        try node.setChainID(1337)
        try node.mine()
        #expect(try node.revert(to: id))
        #expect(node.chainID == 11_155_111 && node.blockGasLimit == 60_000_000 && node.chain.coinbase == .zero)
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.gasLimit == 60_000_000)
    }

    @Test func parametersSurviveReopeningTheDataDirectory() throws {
        let store = InMemoryStore()
        let node = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        try node.setChainID(1337)
        try node.setBlockGasLimit(30_000_000)
        node.setCoinbase(Self.other)
        try node.shutdown()
        let reopened = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        #expect(
            reopened.chainID == 1337 && reopened.blockGasLimit == 30_000_000 && reopened.chain.coinbase == Self.other)
        try reopened.submit(raw: try Self.transfer(reopened, nonce: 0, chainID: 1337))
        #expect(reopened.snapshotOfLedger.head.header.coinbase == Self.other)
        // A revert is written too.
        let id = try reopened.snapshot()
        try reopened.setChainID(5)
        #expect(try reopened.revert(to: id))
        let again = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        #expect(again.chainID == 1337 && again.blockNumber == 1)
    }

    // MARK: Time

    @Test func setTimeMovesTheClockAndAnswersAnvilsOffset() throws {
        let (node, clock) = try makeNode()
        // The next block would be at the clock's 1,800,000,000.
        #expect(try node.setTime(1_800_000_100) == 100)
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == 1_800_000_100)
        clock.advance(5)
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == 1_800_000_105)
        // Anvil reads a value above 10^12 as milliseconds; its answer is a JSON number.
        #expect(try node.call("evm_setTime", [.number("1800000000000")]) == .number("0"))
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == 1_800_000_106)  // never back in time
        #expect(try node.call("anvil_setTime", [.string("0x6b49d200")]) == .number("0"))  // 1,800,000,000
        _ = try node.increaseTime(by: 1_000)
        #expect(try node.setTime(1_900_000_000) == 1_900_000_000 - 1_800_001_106)  // clears increaseTime's floor
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == 1_900_000_000)
        #expect(
            Self.rpcError { try node.call("anvil_setTime", [.number("253402300800")]) }
                == RPCError(
                    code: -32602,
                    message: "timestamp 253402300800 is too large: the latest allowed is 253402300799 "
                        + "(9999-12-31T23:59:59Z)"))
    }

    @Test func blockTimestampIntervalSpacesBlocksFromTheirParent() throws {
        let (node, clock) = try makeNode()
        let start = node.snapshotOfLedger.head.header.timestamp
        #expect(try node.call("anvil_setBlockTimestampInterval", [.number("100")]) == .null)
        try node.mine(blocks: 2)
        #expect(node.snapshotOfLedger.head.header.timestamp == start + 200)
        clock.advance(10_000)  // the clock no longer matters
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == start + 300)
        try node.setNextBlockTimestamp(start + 1_000)  // fixes one block
        try node.mine(blocks: 2)
        #expect(node.snapshotOfLedger.block(number: 4)?.header.timestamp == start + 1_000)
        #expect(node.snapshotOfLedger.head.header.timestamp == start + 1_100)
        _ = try node.increaseTime(by: 500)  // at least that late
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == start + 1_600)
        try node.setBlockTimestampInterval(0)  // timestamps still increase
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == start + 1_601)
        #expect(try node.call("anvil_removeBlockTimestampInterval") == .bool(true))
        #expect(try node.call("anvil_removeBlockTimestampInterval") == .bool(false))
        try node.mine()
        #expect(node.snapshotOfLedger.head.header.timestamp == clock.now + 500)  // the clock again, with the offset
        #expect(
            Self.rpcError { try node.call("anvil_setBlockTimestampInterval", [.number("31536001")]) }
                == RPCError(code: -32602, message: "interval 31536001 is too long: at most 31536000 seconds (one year)")
        )
    }

    @Test func timersRunOnTheClockWhileAnIntervalSetsTimestamps() throws {
        let (node, clock) = try makeNode { $0.miningMode = .interval(seconds: 12) }
        try node.mine()
        let parent = node.snapshotOfLedger.head.header.timestamp
        try node.setBlockTimestampInterval(100)
        #expect(node.tick().isEmpty)  // 100 s of block time are not 12 s of clock: no runaway blocks
        clock.advance(12)
        #expect(node.tick().map(\.header.timestamp) == [parent + 100])
        #expect(node.tick().isEmpty)
        try node.setBlockTimestampInterval(1)
        clock.advance(12)
        #expect(node.tick().map(\.header.timestamp) == [parent + 101])  // due by the clock though 1 s apart
        // Automine's empty-block interval too.
        let (idle, idleClock) = try makeNode { $0.emptyBlockInterval = 12 }
        try idle.mine()
        try idle.setBlockTimestampInterval(60)
        #expect(idle.tick().isEmpty)
        idleClock.advance(12)
        #expect(idle.tick().count == 1)
    }

    @Test func timersKeepGoingAfterTheClockIsSetBehindTheHead() throws {
        let (node, clock) = try makeNode { $0.miningMode = .interval(seconds: 12) }
        try node.mine()
        let head = node.snapshotOfLedger.head.header.timestamp
        _ = try node.setTime(head - 100_000)
        #expect(node.tick().isEmpty)
        clock.advance(12)
        #expect(node.tick().map(\.header.timestamp) == [head + 1])  // not stalled until the clock catches up
        #expect(node.tick().isEmpty)
    }

    // MARK: Rollback

    @Test func rollbackRemovesBlocksWithoutRequeueing() throws {
        let (node, _) = try makeNode()
        try node.mine()
        let hash = try node.submit(raw: try Self.transfer(node, nonce: 0, chainID: node.chainID))
        try node.mine()
        let removedHead = node.snapshotOfLedger.head.hash
        let filter = try node.call("eth_newBlockFilter")
        #expect(try node.call("anvil_rollback", [.string("0x2")]) == .null)
        #expect(node.blockNumber == 1)
        #expect(try node.call("eth_getTransactionByHash", [.string(Hex.encodePrefixed(hash))]) == .null)
        #expect((node.snapshotOfLedger.pool.count == 0))
        #expect(try node.chain.transactionCount(of: node.devAccounts[0].address) == 0)
        try node.mine(blocks: 2)
        #expect(node.snapshotOfLedger.head.hash != removedHead)  // a new block at the same height
        #expect(try node.call("eth_getFilterChanges", [filter]).arrayValue?.count == 2)
        #expect(try node.call("anvil_rollback") == .null)  // depth 1 by default
        #expect(try node.call("anvil_rollback", [.null]) == .null)
        #expect(node.blockNumber == 1)
        #expect(
            Self.rpcError { try node.call("anvil_rollback", [.number("2")]) }
                == RPCError(
                    code: -32602,
                    message: "Rollback depth must not exceed current chain height: current height 1, depth 2"))
        #expect(
            Self.rpcError { try node.call("anvil_rollback", [.number("100001")]) }
                == RPCError(code: -32602, message: "cannot roll back more than 100000 blocks at once"))
    }

    @Test func rollbackGivesFiltersTheRemovedLogs() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address.lowercased
        let filter = try node.call("eth_newFilter", [.object([("address", .string(TokenRPCTests.usdc))])])
        let transfer = TokenRPCTests.calldata(
            "transfer(address,uint256)", [TokenRPCTests.address(TokenRPCTests.fresh), TokenRPCTests.word("64")])
        _ = try node.call("eth_sendTransaction", [TokenRPCTests.call(TokenRPCTests.usdc, transfer, from: dev0)])
        let delivered = try node.call("eth_getFilterChanges", [filter])
        #expect(delivered.arrayValue?.count == 1)
        _ = try node.call("anvil_rollback")
        let changes = try node.call("eth_getFilterChanges", [filter])
        #expect(changes.arrayValue?.count == 1)
        #expect(changes.at(0)?["removed"] == .bool(true))
        #expect(changes.at(0)?["transactionHash"] == delivered.at(0)?["transactionHash"])
    }

    @Test func rollbackFollowsInTheDataDirectory() throws {
        let store = InMemoryStore()
        let node = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        try node.mine(blocks: 3)
        let kept = node.snapshotOfLedger.block(number: 1)?.hash
        try node.rollback(depth: 2)
        let reopened = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        #expect(reopened.blockNumber == 1)
        #expect(reopened.snapshotOfLedger.head.hash == kept)
    }

    // MARK: Metadata and reset

    @Test func metadataHasAnvilsShape() throws {
        let (node, _) = try makeNode()
        try node.mine()
        let id = try node.snapshot()
        let m = try node.call("anvil_metadata")
        let head = node.snapshotOfLedger.head
        #expect(m["clientVersion"] == .string(node.configuration.clientVersion))
        #expect(m["chainId"] == .number("11155111"))
        #expect(m["latestBlockNumber"] == .number("1"))
        #expect(m["latestBlockHash"] == .string(Hex.encodePrefixed(head.hash)))
        #expect(m["forkedNetwork"] == .null)
        #expect(m["instanceId"]?.stringValue?.count == 66)
        #expect(
            m["snapshots"]
                == .object([
                    ("0x\(String(id, radix: 16))", .array([.number("1"), .string(Hex.encodePrefixed(head.hash))]))
                ]))
        #expect(try node.call("hardhat_metadata")["instanceId"] == m["instanceId"])
    }

    @Test func nodeInfoHasAnvilsShapeAndFollowsTheParameters() throws {
        let (node, _) = try makeNode()
        try node.setChainID(1337)
        try node.setBlockGasLimit(30_000_000)
        let info = try node.call("anvil_nodeInfo")
        let head = node.snapshotOfLedger.head
        #expect(info["currentBlockNumber"] == .string("0x0"))
        #expect(info["currentBlockTimestamp"] == .number(String(head.header.timestamp)))
        #expect(info["currentBlockHash"] == .string(Hex.encodePrefixed(head.hash)))
        #expect(info["hardFork"] == .string("osaka") && info["transactionOrder"] == .string("fees"))
        #expect(info["environment"]?["chainId"] == .number("1337"))
        #expect(info["environment"]?["gasLimit"] == .string("0x1c9c380"))
        #expect(info["environment"]?["baseFee"] == .string("0x3b9aca00"))
        #expect(info["forkConfig"]?["forkUrl"] == .null)
        #expect(info["chainId"] == nil)
    }

    @Test func resetStartsOverFromGenesis() throws {
        let (node, _) = try makeNode { $0.miningMode = .manual }
        let genesis = node.snapshotOfLedger.block(number: 0)?.hash
        let instance = node.metadata.instanceID
        try node.mine(blocks: 2)
        let pending = try node.submit(raw: try Self.transfer(node, nonce: 0, chainID: node.chainID))
        let id = try node.snapshot()
        try node.setChainID(1337)
        _ = try node.setTime(1_900_000_000)
        #expect(try node.call("anvil_reset") == .null)
        #expect(node.blockNumber == 0 && node.snapshotOfLedger.head.hash == genesis)
        #expect(!node.snapshotOfLedger.pool.contains(pending) && (node.snapshotOfLedger.pool.count == 0))
        #expect(node.chainID == 11_155_111)
        #expect(node.snapshotOfLedger.schedule.timeOffset == 0)
        #expect(node.miningMode == .manual)
        #expect(node.metadata.instanceID != instance)
        #expect(try !node.revert(to: id))  // snapshots are dropped
        #expect(try node.snapshot() == id + 1)  // and their ids not reused
        #expect(try node.call("hardhat_reset", [.object([])]) == .null)
        #expect(
            Self.rpcError {
                try node.call(
                    "anvil_reset", [.object([("forking", .object([("jsonRpcUrl", .string("https://example.org"))]))])])
            }
                == RPCError(
                    code: -32602,
                    message: "anvil_reset cannot fork: Sandnet does not fork another chain (call it without `forking` "
                        + "to start over from genesis)"))
    }

    @Test func logFiltersScanTheNewChainAfterReset() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address.lowercased
        let filter = try node.call("eth_newFilter", [.object([("address", .string(TokenRPCTests.usdc))])])
        let transfer = TokenRPCTests.calldata(
            "transfer(address,uint256)", [TokenRPCTests.address(TokenRPCTests.fresh), TokenRPCTests.word("64")])
        let send = TokenRPCTests.call(TokenRPCTests.usdc, transfer, from: dev0)
        _ = try node.call("eth_sendTransaction", [send])
        try node.mine(blocks: 2)
        #expect(try node.call("eth_getFilterChanges", [filter]).arrayValue?.count == 1)
        try node.reset()
        let again = try node.call("eth_sendTransaction", [send])  // block 1 of the new chain
        let changes = try node.call("eth_getFilterChanges", [filter])
        #expect(changes.arrayValue?.count == 1)
        #expect(changes.at(0)?["removed"] == .bool(false))
        #expect(changes.at(0)?["transactionHash"] == again)
        #expect(changes.at(0)?["blockNumber"] == .string("0x1"))
    }

    @Test func resetReplacesTheChainInTheDataDirectory() throws {
        let store = InMemoryStore()
        let unrelated: [UInt8] = [0x01] + Array("icp/other".utf8)
        try store.put(unrelated, [42])
        let node = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        try node.submit(raw: try Self.transfer(node, nonce: 0, chainID: node.chainID))
        try node.setChainID(1337)
        try node.mine(blocks: 2)
        try node.reset()
        #expect(node.blockNumber == 0)
        try node.mine()
        let reopened = try SandnetNode(configuration: NodeConfiguration(), store: store, clock: { 1_800_000_000 })
        #expect(reopened.blockNumber == 1 && reopened.chainID == 11_155_111)
        #expect(try reopened.chain.transactionCount(of: node.devAccounts[0].address) == 0)
        #expect(try store.get(unrelated) == [42])  // other records in the directory are left alone
    }

    // MARK: anvil_setCode's bound

    @Test func setCodeIsBounded() throws {
        let (node, _) = try makeNode()
        try node.setCode(Self.other, [UInt8](repeating: 0x60, count: 131_072))
        #expect(try node.chain.code(at: Self.other).count == 131_072)
        #expect(
            Self.rpcError {
                try node.call(
                    "anvil_setCode",
                    [.string(Self.other.lowercased), .string("0x" + String(repeating: "60", count: 131_073))])
            }
                == RPCError(
                    code: -32602,
                    message: "code is 131073 bytes long: at most 131072 bytes (the pool's transaction size limit) "
                        + "may be set"))
    }
}
