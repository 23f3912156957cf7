import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import KeccakHashing
import NativeContracts
import Testing

/// eth_simulateV1 (execution-apis, geth `internal/ethapi/simulate.go`): blocks of calls on a copy of the state,
/// state and block overrides, validation, transfers traced as logs, geth's limits and -38xxx codes; the chain never
/// changes.
@Suite struct SimulateTests {
    static let usdc = TokenDefinition.usdc.address
    static let stranger = Address([UInt8](repeating: 0x51, count: 20))!

    static func transfer(_ from: Address, _ to: Address, _ value: UInt64) -> TransactionRequest {
        var request = TransactionRequest(from: from, to: to)
        request.value = UInt256(value)
        return request
    }

    @Test func blocksRunOnACopyAndTheChainStaysAsItWas() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address
        let headBefore = node.blockNumber
        let balanceBefore = try node.chain.balance(of: Self.stranger)
        let request = SimulationRequest(blocks: [
            .init(calls: [Self.transfer(dev0, Self.stranger, 1_000), Self.transfer(dev0, Self.stranger, 2_000)]),
            .init(calls: [Self.transfer(dev0, Self.stranger, 3_000)]),
        ])
        let blocks = try node.chain.simulate(request)
        #expect(blocks.map(\.block.number) == [headBefore + 1, headBefore + 2])
        #expect(blocks[0].block.transactions.count == 2)
        #expect(blocks[0].calls.map(\.gasUsed) == [21_000, 21_000])
        #expect(blocks[0].block.header.gasUsed == 42_000)
        #expect(blocks[0].block.header.baseFeePerGas == .zero)
        // Nonces follow the state the earlier calls left, across blocks.
        #expect(blocks.flatMap(\.block.transactions).map(\.nonce) == [0, 1, 2])
        #expect(blocks[1].block.header.parentHash == blocks[0].block.hash)
        #expect(blocks[1].block.header.timestamp == blocks[0].block.header.timestamp + 12)
        #expect(node.blockNumber == headBefore)
        #expect(try node.chain.balance(of: Self.stranger) == balanceBefore)
        #expect(try node.chain.transactionCount(of: dev0) == 0)
    }

    /// The base block decides the state: a past block's (the chain rewound on the copy), or the pending block's.
    @Test func baseBlockIsPastLatestOrPending() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address
        _ = try TypedNodeAPITests.transfer(node, nonce: 0, tip: 1_000_000_000)
        let request = SimulationRequest(blocks: [.init(calls: [Self.transfer(dev0, Self.stranger, 1)])])
        let past = try node.chain.simulate(request, at: .number(0))
        #expect(past[0].block.number == 1 && past[0].block.transactions[0].nonce == 0)
        guard case .sealed(let genesis)? = node.chain.block(.number(0)) else {
            Issue.record("the chain has its genesis")
            return
        }
        #expect(past[0].block.header.parentHash == genesis.hash)
        let latest = try node.chain.simulate(request)
        #expect(latest[0].block.number == 2 && latest[0].block.transactions[0].nonce == 1)
        try node.dev.setAutomine(false)
        _ = try TypedNodeAPITests.transfer(node, nonce: 1, tip: 1_000_000_000)
        let pending = try node.chain.simulate(request, at: .pending)
        #expect(pending[0].block.number == 3 && pending[0].block.transactions[0].nonce == 2)
        #expect(node.blockNumber == 1)
        #expect(throws: NodeError.headerNotFound) { try node.chain.simulate(request, at: .number(9)) }
    }

    /// Overrides: a stranger with a balance sends; block numbers with a gap get empty blocks 12 s apart.
    @Test func stateAndBlockOverrides() throws {
        let (node, _) = try makeNode()
        let head = node.blockNumber
        var overrides = SimulationRequest.BlockOverrides()
        overrides.number = head + 3
        overrides.feeRecipient = Self.stranger
        overrides.baseFeePerGas = UInt256(7)
        let request = SimulationRequest(blocks: [
            .init(
                overrides: overrides,
                stateOverrides: [(Self.stranger, AccountStateOverride(balance: UInt256(50_000), nonce: 9))],
                calls: [Self.transfer(Self.stranger, node.devAccounts[1].address, 40_000)])
        ])
        let blocks = try node.chain.simulate(request)
        #expect(blocks.map(\.block.number) == [head + 1, head + 2, head + 3])
        #expect(blocks[0].block.transactions.isEmpty && blocks[1].block.transactions.isEmpty)
        #expect(blocks[2].block.header.coinbase == Self.stranger)
        #expect(blocks[2].block.header.baseFeePerGas == UInt256(7))
        #expect(blocks[2].block.transactions[0].nonce == 9)
        #expect(blocks[2].calls[0].failure == nil)
        // The override is gone after the simulation.
        #expect(try node.chain.balance(of: Self.stranger) == .zero)
    }

    /// A `feeRecipient` override receives the tips of its block's calls; the next block without one pays the
    /// chain's coinbase again.
    @Test func feeRecipientReceivesTheTips() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address
        let recipient = Address(Array(repeating: 0xfe, count: 20))!
        var overrides = SimulationRequest.BlockOverrides()
        overrides.feeRecipient = recipient
        var paying = Self.transfer(dev0, Self.stranger, 1)
        paying.maxFeePerGas = UInt256(10_000_000_000)
        paying.maxPriorityFeePerGas = UInt256(3)
        // The second block asks Multicall3's getEthBalance(recipient): what the first block's tips left there.
        let multicall = try Address(parsing: "0xcA11bde05977b3631167028862bE2a173976CA11")
        let selector = Array(Keccak256.hash(utf8: "getEthBalance(address)")[0..<4])
        let balanceCall = TransactionRequest(
            from: dev0, to: multicall, data: selector + [UInt8](repeating: 0, count: 12) + recipient.bytes)
        let blocks = try node.chain.simulate(
            SimulationRequest(
                blocks: [
                    .init(overrides: overrides, calls: [paying]),
                    .init(calls: [balanceCall]),
                ],
                validation: false))
        #expect(blocks[0].block.header.coinbase == recipient)
        #expect(blocks[1].block.header.coinbase == node.chain.coinbase)
        // 21,000 gas at a tip of 3 wei went to the override.
        #expect(blocks[1].calls[0].failure == nil)
        #expect(blocks[1].calls[0].returnData == UInt256(63_000).bigEndianBytes)
    }

    /// Native token calls run; a revert is the call's error, not the request's.
    @Test func nativeCallsAndReverts() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address
        let data = AccessListTests.transferData(to: Self.stranger, amount: UInt256(5_000_000))
        let ok = TransactionRequest(from: dev0, to: Self.usdc, data: data)
        // The stranger holds what the first call sent it (the calls share state), one unit short of this.
        let bad = TransactionRequest(
            from: Self.stranger, to: Self.usdc,
            data: AccessListTests.transferData(to: node.devAccounts[1].address, amount: UInt256(5_000_001)))
        let blocks = try node.chain.simulate(SimulationRequest(blocks: [.init(calls: [ok, bad])]))
        let calls = blocks[0].calls
        #expect(calls[0].failure == nil)
        #expect(calls[0].returnData == [UInt8](repeating: 0, count: 31) + [1])
        #expect(blocks[0].block.receipts[0].logs.count == 1)
        guard case .reverted? = calls[1].failure else {
            Issue.record("the stranger's transfer reverts: \(calls[1])")
            return
        }
        #expect(!blocks[0].block.receipts[1].status)
    }

    /// web3.py's `test_eth_simulate_v1`: a call without `gas` gets the block's remaining gas (60M here), cut to
    /// geth's 50M RPC budget, so 500,000,000 wei pay for it at 10 wei per gas.
    @Test func defaultGasIsCutToTheRPCBudget() throws {
        let (node, _) = try makeNode()
        var overrides = SimulationRequest.BlockOverrides()
        overrides.baseFeePerGas = UInt256(10)
        var call = TransactionRequest(from: Self.stranger, to: Self.stranger)
        call.maxFeePerGas = UInt256(10)
        call.maxPriorityFeePerGas = UInt256(10)
        let request = SimulationRequest(
            blocks: [
                .init(
                    overrides: overrides,
                    stateOverrides: [(Self.stranger, AccountStateOverride(balance: UInt256(500_000_000)))],
                    calls: [call])
            ], validation: true, traceTransfers: true)
        let blocks = try node.chain.simulate(request)
        #expect(blocks[0].calls[0].failure == nil && blocks[0].calls[0].gasUsed == 21_000)
        #expect(blocks[0].block.transactions[0].gasLimit == 50_000_000)
        #expect(blocks[0].calls[0].gasCapped)
    }

    @Test func validationChecksNoncesAndFees() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address
        var request = Self.transfer(dev0, Self.stranger, 1)
        request.nonce = 5
        var simulation = SimulationRequest(blocks: [.init(calls: [request])], validation: true)
        #expect(throws: SimulationError.nonceTooHigh(sender: dev0, nonce: 5, state: 0)) {
            try node.chain.simulate(simulation)
        }
        request.nonce = nil
        simulation.blocks[0].calls = [request]
        #expect(throws: SimulationError.self) { try node.chain.simulate(simulation) }
        #expect(
            SimulationError.feeCapTooLow(sender: dev0, maxFee: .zero, baseFee: UInt256(7)).description
                == "max fee per gas less than block base fee: address \(dev0.checksummed), maxFeePerGas: 0, baseFee: 7")
        // Without validation the nonce is not checked.
        request.nonce = 5
        simulation = SimulationRequest(blocks: [.init(calls: [request])])
        #expect(try node.chain.simulate(simulation)[0].block.transactions[0].nonce == 5)
    }

    @Test func limitsAndOrderErrorsAreGeths() throws {
        let (node, _) = try makeNode()
        let head = node.blockNumber
        #expect(throws: SimulationInputError.emptyInput) { try node.chain.simulate(SimulationRequest(blocks: [])) }
        #expect(throws: SimulationInputError.tooManyBlocks) {
            try node.chain.simulate(SimulationRequest(blocks: Array(repeating: .init(), count: 257)))
        }
        var far = SimulationRequest.BlockOverrides()
        far.number = head + 257
        #expect(throws: SimulationInputError.tooManyBlocks) {
            try node.chain.simulate(SimulationRequest(blocks: [.init(overrides: far)]))
        }
        var same = SimulationRequest.BlockOverrides()
        same.number = head
        #expect(throws: SimulationInputError.blockNumberNotInOrder(head, previous: head)) {
            try node.chain.simulate(SimulationRequest(blocks: [.init(overrides: same)]))
        }
        var early = SimulationRequest.BlockOverrides()
        early.time = 1
        #expect(throws: SimulationInputError.self) {
            try node.chain.simulate(SimulationRequest(blocks: [.init(overrides: early)]))
        }
        let many = Array(repeating: TransactionRequest(from: Self.stranger, to: Self.stranger), count: 5_001)
        #expect(throws: SimulationInputError.tooManyCallsInBlock(5_001, limit: 5_000)) {
            try node.chain.simulate(SimulationRequest(blocks: [.init(calls: many)]))
        }
        var gas = Self.transfer(node.devAccounts[0].address, Self.stranger, 1)
        gas.gas = 100_000_000
        #expect(throws: SimulationError.blockGasLimitReached(remaining: 60_000_000, required: 100_000_000)) {
            try node.chain.simulate(SimulationRequest(blocks: [.init(calls: [gas])]))
        }
        var poor = Self.transfer(Self.stranger, node.devAccounts[0].address, 1)
        poor.gas = 21_000
        #expect(
            throws: SimulationError.insufficientFunds(sender: Self.stranger, have: .zero, want: WideAmount(UInt256(1)))
        ) {
            try node.chain.simulate(SimulationRequest(blocks: [.init(calls: [poor])]))
        }
    }

    // MARK: JSON-RPC

    @Test func rpcShapeTraceTransfersAndCodes() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address.lowercased
        let payload = JSON.object([
            (
                "blockStateCalls",
                .array([
                    .object([
                        (
                            "stateOverrides",
                            .object([(Self.stranger.lowercased, .object([("balance", .string("0x10"))]))])
                        ),
                        (
                            "calls",
                            .array([
                                .object([
                                    ("from", .string(dev0)), ("to", .string(Self.stranger.lowercased)),
                                    ("value", .string("0x2a")),
                                ]),
                                .object([
                                    ("from", .string(Self.stranger.lowercased)), ("to", .string(Self.usdc.lowercased)),
                                    (
                                        "data",
                                        .string(
                                            Hex.encodePrefixed(
                                                AccessListTests.transferData(to: Self.stranger, amount: UInt256(1))))
                                    ),
                                ]),
                            ])
                        ),
                    ])
                ])
            ),
            ("traceTransfers", .bool(true)), ("returnFullTransactions", .bool(true)),
        ])
        let result = try node.call("eth_simulateV1", [payload, .string("latest")])
        let block = try #require(result.arrayValue?.first)
        #expect(block["transactions"]?.arrayValue?.first?["from"] == .string(dev0))
        let calls = try #require(block["calls"]?.arrayValue)
        guard case .object(let fields) = calls[0] else {
            Issue.record("a call result is an object")
            return
        }
        #expect(fields.map(\.0) == ["returnData", "logs", "gasUsed", "maxUsedGas", "status"])
        let log = try #require(calls[0]["logs"]?.arrayValue?.first)
        #expect(log["address"] == .string("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"))
        #expect(log["topics"]?.arrayValue?.count == 3)
        #expect(
            log["topics"]?.arrayValue?[2]
                == .string("0x000000000000000000000000" + Self.stranger.lowercased.dropFirst(2)))
        #expect(log["data"] == .string("0x" + String(repeating: "0", count: 62) + "2a"))
        #expect(log["blockHash"] == block["hash"])
        #expect(calls[1]["status"] == .string("0x0"))
        #expect(calls[1]["error"]?["code"] == .number("3"))
        #expect(calls[1]["logs"] == .array([]))

        func error(_ params: [JSON]) -> RPCError? {
            do {
                _ = try node.call("eth_simulateV1", params)
                return nil
            } catch { return error as? RPCError }
        }
        #expect(error([.object([("blockStateCalls", .array([]))])]) == RPCError(code: -32602, message: "empty input"))
        let late = JSON.object([("blockOverrides", .object([("number", .string("0x0"))]))])
        #expect(
            error([.object([("blockStateCalls", .array([late]))])])
                == RPCError(code: -38020, message: "block numbers must be in order: 0 <= 0"))
        let nonce = JSON.object([("calls", .array([.object([("from", .string(dev0)), ("nonce", .string("0x3"))])]))])
        #expect(
            error([.object([("blockStateCalls", .array([nonce])), ("validation", .bool(true))])])
                == RPCError(
                    code: -38011,
                    message: "nonce too high: address \(node.devAccounts[0].address.checksummed), tx: 3 state: 0"))
    }

    /// Issue 38: times near 2^64−1 trapped the node (a block at 2^64−1 followed by one without a time; a block at
    /// 2^64−5 followed by a gap of three blocks). Both answer -38021 naming the overflow; the node keeps answering.
    @Test func blockTimesNearTheTopOfUInt64AreRefusedNotTrapped() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address
        var top = SimulationRequest.BlockOverrides()
        top.time = .max
        let followed = SimulationRequest(blocks: [
            .init(overrides: top, calls: []), .init(calls: [Self.transfer(dev0, Self.stranger, 1)]),
        ])
        #expect(throws: SimulationInputError.timestampOverflow(previous: .max)) { try node.chain.simulate(followed) }
        #expect(SimulationInputError.timestampOverflow(previous: .max).code == -38021)

        var nearTop = SimulationRequest.BlockOverrides()
        nearTop.time = .max - 4
        var gap = SimulationRequest.BlockOverrides()
        gap.number = node.blockNumber + 5
        let gapped = SimulationRequest(blocks: [.init(overrides: nearTop, calls: []), .init(overrides: gap, calls: [])])
        #expect(throws: SimulationInputError.timestampOverflow(previous: .max - 4)) { try node.chain.simulate(gapped) }
        // The last representable time still works when nothing comes after it.
        let alone = try node.chain.simulate(SimulationRequest(blocks: [.init(overrides: top, calls: [])]))
        #expect(alone[0].block.header.timestamp == .max)
    }

    /// Issue 38: a state override nonce of 2^64−1 and a call from that account trapped in the ledger's apply. geth
    /// answers `nonce has max value` (EIP-2681), code -32603.
    @Test func aSenderAtTheMaximumNonceIsRefusedNotTrapped() throws {
        let (node, _) = try makeNode()
        let request = SimulationRequest(blocks: [
            .init(
                stateOverrides: [(Self.stranger, AccountStateOverride(balance: UInt256(1_000_000), nonce: .max))],
                calls: [Self.transfer(Self.stranger, node.devAccounts[1].address, 1)])
        ])
        let expected = SimulationError.nonceMax(sender: Self.stranger, nonce: .max)
        #expect(throws: expected) { try node.chain.simulate(request) }
        #expect(expected.code == -32603)
        #expect(expected.description.hasPrefix("nonce has max value: address 0x5151"))
        var validated = request
        validated.validation = true
        validated.blocks[0].calls[0].nonce = .max
        #expect(throws: expected) { try node.chain.simulate(validated) }
        // One below the maximum is the last nonce an account can send with.
        var last = request
        last.blocks[0].stateOverrides[0].change.nonce = .max - 1
        let blocks = try node.chain.simulate(last)
        #expect(blocks[0].block.transactions[0].nonce == UInt64.max - 1)
    }

}

/// eth_config (EIP-7910): Osaka from genesis, no later fork. (The fork id is checked against Python's zlib CRC32
/// in Tests/Interop/test_proofs.py.)
@Suite struct ForkConfigTests {
    @Test func osakaFromGenesisWithoutLaterForks() throws {
        let (node, _) = try makeNode()
        let result = try node.call("eth_config")
        #expect(result["next"] == .null && result["last"] == .null)
        let current = try #require(result["current"])
        guard case .object(let fields) = current else {
            Issue.record("current is an object")
            return
        }
        #expect(
            fields.map(\.0) == [
                "activationTime", "blobSchedule", "chainId", "forkId", "precompiles", "systemContracts",
            ])
        #expect(current["activationTime"] == .number("0"))
        #expect(current["chainId"] == .string("0xaa36a7"))
        #expect(
            current["blobSchedule"]
                == .object([
                    ("target", .number("6")), ("max", .number("9")), ("baseFeeUpdateFraction", .number("5007716")),
                ]))
        #expect(current["forkId"]?.stringValue?.count == 10)
        #expect(current["precompiles"] == .object([]) && current["systemContracts"] == .object([]))
        // Another genesis state gives another genesis hash and another fork id.
        let (other, _) = try makeNode { $0.accountCount = 3 }
        #expect(try other.call("eth_config")["current"]?["forkId"] != current["forkId"])
    }
}
