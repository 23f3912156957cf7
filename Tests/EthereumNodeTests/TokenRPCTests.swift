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

/// The native tokens through the node's JSON-RPC methods: eth_call (and geth's revert shape), eth_estimateGas,
/// eth_getCode, eth_getStorageAt, logs with block-wide indexes, removed logs after a reorg, the token dev methods and
/// the token faucet.
@Suite struct TokenRPCTests {
    static let usdc = "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238"
    static let link = "0x779877a7b0d9e8603169ddbd7836e478b4624789"
    static let multicall = "0xca11bde05977b3631167028862be2a173976ca11"
    static let fresh = "0x000000000000000000000000000000000000f00d"
    static let transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"

    /// The whole response (result or error with its data).
    static func response(_ node: SandnetNode, _ method: String, _ params: [JSON]) throws -> JSON {
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        return try JSON.parse(node.dispatcher.handle(request.bytes)!)
    }

    static func word(_ hex: String) -> String { String(repeating: "0", count: 64 - hex.count) + hex }
    static func address(_ a: String) -> String { word(String(a.dropFirst(2)).lowercased()) }
    static func calldata(_ signature: String, _ words: [String]) -> String {
        "0x" + Hex.encode(Array(Keccak.selector(signature))) + words.joined()
    }

    static func call(_ to: String, _ data: String, from: String? = nil) -> JSON {
        var members: [(String, JSON)] = [("to", .string(to)), ("data", .string(data))]
        if let from { members.append(("from", .string(from))) }
        return .object(members)
    }

    @Test func readsBalancesCodeAndStorage() throws {
        let (node, _) = try makeNode()
        let dev = node.devAccounts[0].address.lowercased
        // 1,000,000 USDC (6 decimals) for every dev account at genesis.
        let balance = try node.call(
            "eth_call",
            [Self.call(Self.usdc, Self.calldata("balanceOf(address)", [Self.address(dev)])), .string("latest")])
        #expect(balance == .string("0x" + Self.word("e8d4a51000")))
        #expect(
            try node.call("eth_call", [Self.call(Self.usdc, Self.calldata("decimals()", []))])
                == .string("0x" + Self.word("6")))
        // The code marker: INVALID, then "sandnet:native:ERC20".
        #expect(
            try node.call("eth_getCode", [.string(Self.usdc), .string("latest")])
                == .string("0xfe" + Hex.encode(Array("sandnet:native:ERC20".utf8))))
        #expect(
            try node.call("eth_getCode", [.string(Self.multicall), .string("latest")])
                == .string("0xfe" + Hex.encode(Array("sandnet:native:MULTICALL3".utf8))))
        // USDC keeps balances at mapping slot 9, where Hardhat users look for them: keccak256(pad32(holder) ‖ pad32(9)).
        let slot = "0x" + Hex.encode(Keccak.hash(Array(try Hex.decode(Self.address(dev) + Self.word("9")))))
        #expect(
            try node.call("eth_getStorageAt", [.string(Self.usdc), .string(slot), .string("latest")])
                == .string("0x" + Self.word("e8d4a51000")))
        // A code-less target still answers 0x.
        #expect(try node.call("eth_call", [Self.call(Self.fresh, "0x70a08231")]) == .string("0x"))
    }

    @Test func revertsAnswerGethsShape() throws {
        let (node, _) = try makeNode()
        let dev = node.devAccounts[0].address.lowercased
        let tooMuch = Self.calldata(
            "transfer(address,uint256)", [Self.address(Self.fresh), Self.word("ffffffffffffffffffffffffff")])
        let reply = try Self.response(node, "eth_call", [Self.call(Self.link, tooMuch, from: dev)])
        #expect(reply["error"]?["code"] == .number("3"))
        #expect(reply["error"]?["message"] == .string("execution reverted: ERC20: transfer amount exceeds balance"))
        let data = try #require(reply["error"]?["data"]?.stringValue)
        #expect(data.hasPrefix("0x08c379a0"))
        let estimate = try Self.response(node, "eth_estimateGas", [Self.call(Self.link, tooMuch, from: dev)])
        #expect(estimate["error"]?["code"] == .number("3") && estimate["error"]?["data"]?.stringValue == data)
        // An unknown selector reverts without data: plain "execution reverted".
        let unknown = try Self.response(node, "eth_call", [Self.call(Self.link, "0xdeadbeef", from: dev)])
        #expect(
            unknown["error"]
                == .object([
                    ("code", .number("3")), ("message", .string("execution reverted")), ("data", .string("0x")),
                ]))
    }

    @Test func transfersLogAndIndexLogsAcrossTheBlock() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address.lowercased
        let dev1 = node.devAccounts[1].address.lowercased
        let transfer = Self.calldata("transfer(address,uint256)", [Self.address(Self.fresh), Self.word("64")])
        let estimate = try node.call("eth_estimateGas", [Self.call(Self.usdc, transfer, from: dev0)])
        _ = try node.call("evm_setAutomine", [.bool(false)])
        let first = try node.call("eth_sendTransaction", [Self.call(Self.usdc, transfer, from: dev0)])
        let second = try node.call("eth_sendTransaction", [Self.call(Self.usdc, transfer, from: dev1)])
        _ = try node.call("evm_mine")
        let r1 = try node.call("eth_getTransactionReceipt", [first])
        let r2 = try node.call("eth_getTransactionReceipt", [second])
        #expect(r1["status"] == .string("0x1") && r2["status"] == .string("0x1"))
        #expect(r1["gasUsed"] == estimate)  // a fresh holder: the estimate is what it uses
        // logIndex counts across the block: the second transaction's log is the block's second.
        #expect(r1["logs"]?.at(0)?["logIndex"] == .string("0x0"))
        #expect(r2["logs"]?.at(0)?["logIndex"] == .string("0x1"))
        #expect(r2["logs"]?.at(0)?["transactionIndex"] == .string("0x1"))
        #expect(r2["logs"]?.at(0)?["topics"]?.at(2) == .string("0x" + Self.address(Self.fresh)))
        // eth_getLogs by address and topics: a null wildcard and an OR list.
        let logs = try node.call(
            "eth_getLogs",
            [
                .object([
                    ("address", .string(Self.usdc)),
                    (
                        "topics",
                        .array([
                            .string(Self.transferTopic),
                            .array([.string("0x" + Self.address(dev1)), .string("0x" + Self.address(Self.fresh))]),
                            .null,
                        ])
                    ),
                ])
            ])
        #expect(logs.arrayValue?.count == 1 && logs.at(0)?["logIndex"] == .string("0x1"))
        let none = try node.call("eth_getLogs", [.object([("address", .string(Self.link))])])
        #expect(none == .array([]))
        let balance = try node.call(
            "eth_call", [Self.call(Self.usdc, Self.calldata("balanceOf(address)", [Self.address(Self.fresh)]))])
        #expect(balance == .string("0x" + Self.word("c8")))
    }

    @Test func filtersGetRemovedLogsAfterAReorg() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address.lowercased
        let filter = try node.call("eth_newFilter", [.object([("address", .string(Self.usdc))])])
        let transfer = Self.calldata("transfer(address,uint256)", [Self.address(Self.fresh), Self.word("64")])
        _ = try node.call("eth_sendTransaction", [Self.call(Self.usdc, transfer, from: dev0)])
        let delivered = try node.call("eth_getFilterChanges", [filter])
        #expect(delivered.arrayValue?.count == 1 && delivered.at(0)?["removed"] == .bool(false))
        _ = try node.call("anvil_reorg", [.string("0x1")])
        let changes = try node.call("eth_getFilterChanges", [filter])
        #expect(changes.arrayValue?.count == 1)
        #expect(changes.at(0)?["removed"] == .bool(true))
        #expect(changes.at(0)?["transactionHash"] == delivered.at(0)?["transactionHash"])
        #expect(changes.at(0)?["blockHash"] == delivered.at(0)?["blockHash"])
        #expect(try node.call("eth_getFilterChanges", [filter]) == .array([]))
    }

    @Test func evmRevertGivesFiltersTheDroppedBlocksLogs() throws {
        let (node, _) = try makeNode()
        let dev0 = node.devAccounts[0].address.lowercased
        let snapshot = try node.call("evm_snapshot")
        let filter = try node.call("eth_newFilter", [.object([("address", .string(Self.usdc))])])
        let transfer = Self.calldata("transfer(address,uint256)", [Self.address(Self.fresh), Self.word("64")])
        _ = try node.call("eth_sendTransaction", [Self.call(Self.usdc, transfer, from: dev0)])
        let delivered = try node.call("eth_getFilterChanges", [filter])
        #expect(delivered.arrayValue?.count == 1)
        #expect(try node.call("evm_revert", [snapshot]) == .bool(true))
        let changes = try node.call("eth_getFilterChanges", [filter])
        #expect(changes.arrayValue?.count == 1)
        #expect(changes.at(0)?["removed"] == .bool(true))
        #expect(changes.at(0)?["transactionHash"] == delivered.at(0)?["transactionHash"])
    }

    @Test func multicall3BatchesTokenReads() throws {
        let (node, _) = try makeNode()
        // getEthBalance and getChainId through eth_call.
        let dev = node.devAccounts[0].address.lowercased
        #expect(
            try node.call("eth_call", [Self.call(Self.multicall, Self.calldata("getChainId()", []))])
                == .string("0x" + Self.word("aa36a7")))
        let ether = try node.call(
            "eth_call", [Self.call(Self.multicall, Self.calldata("getEthBalance(address)", [Self.address(dev)]))])
        #expect(ether == .string("0x" + Self.word("21e19e0c9bab2400000")))
    }

    @Test func dealAllowanceAndStorageDevMethods() throws {
        let (node, _) = try makeNode()
        let supply = { try node.call("eth_call", [Self.call(Self.link, Self.calldata("totalSupply()", []))]) }
        let before = try supply()
        #expect(try node.call("anvil_dealERC20", [.string(Self.fresh), .string(Self.link), .string("0x3e8")]) == .null)
        let balance = try node.call(
            "eth_call", [Self.call(Self.link, Self.calldata("balanceOf(address)", [Self.address(Self.fresh)]))])
        #expect(balance == .string("0x" + Self.word("3e8")))
        let grown = UInt256(hexDigits: String(try #require(before.stringValue).dropFirst(2)))! + 1_000
        #expect(try supply() == .string("0x" + Self.word(grown.hexDigits)))
        // With emitTransfer, a real transfer from the faucet's reserve: a Transfer log in a real receipt.
        let hash = try node.call(
            "hardhat_dealERC20",
            [.string(Self.fresh), .string(Self.link), .string("0x7d0"), .object([("emitTransfer", .bool(true))])])
        let receipt = try node.call("eth_getTransactionReceipt", [hash])
        #expect(receipt["logs"]?.at(0)?["topics"]?.at(1) == .string("0x" + Self.address(node.faucetAddress.lowercased)))
        #expect(receipt["logs"]?.at(0)?["data"] == .string("0x" + Self.word("3e8")))
        _ = try node.call(
            "anvil_setERC20Allowance",
            [.string(Self.fresh), .string(Self.multicall), .string(Self.link), .string("0x5")])
        let allowance = try node.call(
            "eth_call",
            [
                Self.call(
                    Self.link,
                    Self.calldata(
                        "allowance(address,address)", [Self.address(Self.fresh), Self.address(Self.multicall)]))
            ])
        #expect(allowance == .string("0x" + Self.word("5")))
        #expect(
            try node.call("anvil_setStorageAt", [.string(Self.fresh), .string("0x1"), .string("0x" + Self.word("2a"))])
                == .bool(true))
        #expect(
            try node.call("eth_getStorageAt", [.string(Self.fresh), .string("0x1"), .string("latest")])
                == .string("0x" + Self.word("2a")))
        let unknown = try Self.response(
            node, "anvil_dealERC20", [.string(Self.fresh), .string(Self.fresh), .string("0x1")])
        #expect(unknown["error"]?["code"] == .number("-32602"))
    }

    @Test func faucetPaysTokens() throws {
        let (node, _) = try makeNode { $0.faucetCooldown = 60 }
        let hash = try node.call("sandnet_faucet", [.string(Self.fresh), .null, .string("usdc")])
        let receipt = try node.call("eth_getTransactionReceipt", [hash])
        #expect(receipt["to"] == .string(Self.usdc) && receipt["status"] == .string("0x1"))
        // 1,000 USDC = 10^9 units.
        #expect(receipt["logs"]?.at(0)?["data"] == .string("0x" + Self.word("3b9aca00")))
        // Each asset has its own cooldown: a second USDC claim waits, a LINK one goes through (the HTTP route's
        // answers: EthereumFaucetTests.tokenClaimsOverTheHTTPRoute in SandnetServerTests).
        let fresh = try Address(parsing: Self.fresh)
        #expect(throws: FaucetError.cooldown(retryAfter: 60)) {
            try node.faucet.claim(address: fresh, token: .usdc, clientIP: "10.0.0.9")
        }
        _ = try node.faucet.claim(address: fresh, token: .link, clientIP: "10.0.0.9")
    }
}

/// Selectors and hashes for the tests.
enum Keccak {
    static func hash(_ bytes: [UInt8]) -> [UInt8] { Keccak256.hash(bytes) }
    static func selector(_ signature: String) -> [UInt8] { Array(Keccak256.hash(utf8: signature)[0..<4]) }
}

extension JSON {
    /// Element `i` of an array.
    func at(_ i: Int) -> JSON? {
        guard let a = arrayValue, i < a.count else { return nil }
        return a[i]
    }
}

@Suite struct TokenGenesisGuardTests {
    /// A WETH9-profile token's genesis supply is backed by ETH: a supply that would overflow the chain's ETH supply
    /// is refused with the reason, not trapped on.
    @Test func wethBackingThatWouldOverflowIsRefused() throws {
        #expect(
            throws: LedgerError.valueOutOfRange("genesis balances and WBIG's ETH backing total more than 2^256-1 wei")
        ) {
            _ = try makeNode { config in
                let big = TokenDefinition(
                    address: try! Address(parsing: "0x000000000000000000000000000000000000b16b"), name: "Big",
                    symbol: "WBIG",
                    decimals: 0, profile: .weth9, holders: [.init(holder: .zero, amount: .max)])
                config.chain.nativeContracts = NativeContractRegistry(tokens: [big])
                config.devTokenBalance = 0
                config.faucetTokenReserve = 0
            }
        }
    }
}
