import ByteCoding
import EthereumNode
import EthereumTypes
import Foundation
import JSONCoding
import NativeContracts
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Etherscan's API over HTTP on 127.0.0.1: every action, paging edges, empty and error answers in Etherscan's
/// shapes (README, "Explorer APIs").
@Suite(.serialized) struct EtherscanAPITests {
    func get(_ node: RunningNode, _ query: String, path: String = "/api") async throws -> JSON {
        let url = URL(string: "http://127.0.0.1:\(node.port)\(path)?\(query)")!
        let (data, response) = try await URLSession.shared.data(from: url)
        #expect((response as! HTTPURLResponse).statusCode == 200)
        return try JSON.parse([UInt8](data))
    }

    func result(_ node: RunningNode, _ query: String, path: String = "/api") async throws -> JSON {
        let body = try await get(node, query, path: path)
        #expect(body["status"] == .string("1") && body["message"] == .string("OK"), "\(query): \(body.serialized)")
        return body["result"] ?? .null
    }

    func error(_ node: RunningNode, _ query: String, path: String = "/api") async throws -> String? {
        let body = try await get(node, query, path: path)
        #expect(body["status"] == .string("0") && body["message"] == .string("NOTOK"), "\(query): \(body.serialized)")
        return body["result"]?.stringValue
    }

    static let txlistFields = [
        "blockNumber", "timeStamp", "hash", "nonce", "blockHash", "transactionIndex", "from", "to", "value", "gas",
        "gasPrice", "isError", "txreceipt_status", "input", "contractAddress", "cumulativeGasUsed", "gasUsed",
        "confirmations", "methodId", "functionName",
    ]
    static let tokentxFields = [
        "blockNumber", "timeStamp", "hash", "nonce", "blockHash", "from", "contractAddress", "to", "value", "tokenName",
        "tokenSymbol", "tokenDecimal", "transactionIndex", "gas", "gasPrice", "gasUsed", "cumulativeGasUsed", "input",
        "methodId", "functionName", "confirmations",
    ]

    /// A fresh address (no history) for recipients.
    static func address(_ n: UInt8) -> Address { Address([UInt8](repeating: 0, count: 19) + [n])! }

    /// `count` transfers of 1…count wei from dev account 0 to `to`, one block each (automine).
    func transfers(_ node: RunningNode, count: Int, to: Address) throws -> [String] {
        let from = node.node.devAccounts[0].address
        return try (1...count).map {
            Hex.encodePrefixed(
                try node.node.sendUnsigned(
                    TransactionRequest(from: from, to: to, value: UInt256(UInt64($0))), from: from))
        }
    }

    @Test func txlistRowsAndPaging() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let to = Self.address(0x51)
        let hashes = try transfers(node, count: 5, to: to)
        let all = try await result(node, "module=account&action=txlist&address=\(to.lowercased)&apikey=anything")
        let rows = all.arrayValue ?? []
        #expect(rows.count == 5)
        #expect(rows.first?.members?.map(\.0) == Self.txlistFields)
        #expect(rows.map { $0["hash"]?.stringValue } == hashes)
        let first = rows[0]
        #expect(first["to"] == .string(to.lowercased))
        #expect(first["from"] == .string(node.node.devAccounts[0].address.lowercased))
        #expect(first["value"] == .string("1"))
        #expect(first["isError"] == .string("0") && first["txreceipt_status"] == .string("1"))
        #expect(
            first["methodId"] == .string("0x") && first["functionName"] == .string("")
                && first["input"] == .string("0x"))
        #expect(first["gasUsed"] == .string("21000") && first["contractAddress"] == .string(""))
        #expect(first["confirmations"] == .string("5"))
        #expect(first.members?.allSatisfy { $0.1.stringValue != nil } == true)
        // Pages: asc and desc, the last short page, past the end empty.
        let page2 = try await result(node, "module=account&action=txlist&address=\(to.lowercased)&page=2&offset=2")
        #expect(page2.arrayValue?.map { $0["value"]?.stringValue } == ["3", "4"])
        let page3 = try await result(node, "module=account&action=txlist&address=\(to.lowercased)&page=3&offset=2")
        #expect(page3.arrayValue?.map { $0["value"]?.stringValue } == ["5"])
        let desc = try await result(
            node, "module=account&action=txlist&address=\(to.lowercased)&page=1&offset=2&sort=desc")
        #expect(desc.arrayValue?.map { $0["value"]?.stringValue } == ["5", "4"])
        let past = try await get(node, "module=account&action=txlist&address=\(to.lowercased)&page=4&offset=2")
        #expect(past.serialized == #"{"status":"0","message":"No transactions found","result":[]}"#)
        // Block range.
        let block = rows[1]["blockNumber"]!.stringValue!
        let ranged = try await result(
            node, "module=account&action=txlist&address=\(to.lowercased)&startblock=\(block)&endblock=\(block)")
        #expect(ranged.arrayValue?.map { $0["value"]?.stringValue } == ["2"])
        let far = try await result(
            node, "module=account&action=txlist&address=\(to.lowercased)&startblock=0&endblock=18446744073709551615")
        #expect(far.arrayValue?.count == 5)
        // An address with no history: the empty answer, status 0.
        let none = try await get(node, "module=account&action=txlist&address=\(Self.address(0x52).lowercased)")
        #expect(none.serialized == #"{"status":"0","message":"No transactions found","result":[]}"#)
        // Checksummed (mixed case) input is accepted as well.
        #expect(try await result(node, "module=account&action=txlist&address=\(to.checksummed)").arrayValue?.count == 5)
    }

    @Test(
        arguments: [
            (
                "page=101&offset=100",
                "Result window is too large, PageNo x Offset size must be less than or equal to 10000"
            ),
            ("offset=10001", "Result window is too large, PageNo x Offset size must be less than or equal to 10000"),
            (
                "page=18446744073709551615&offset=1",
                "Result window is too large, PageNo x Offset size must be less than or equal to 10000"
            ),
            (
                "page=115792089237316195423570985008687907853269984665640564039457584007913129639935&offset=10",
                "Result window is too large, PageNo x Offset size must be less than or equal to 10000"
            ),
            ("page=2", "Result window is too large, PageNo x Offset size must be less than or equal to 10000"),
            ("page=-1", "Error! Invalid page: a whole number from 1 to 10000"),
            ("offset=ten", "Error! Invalid offset: a whole number from 1 to 10000"),
            ("sort=up", "Error! Invalid sort order: asc or desc"),
            (
                "startblock=18446744073709551616",
                "Error! Invalid startblock: a block number from 0 to 18446744073709551615"
            ),
            ("endblock=0x10", "Error! Invalid endblock: a block number from 0 to 18446744073709551615"),
        ] as [(String, String)])
    func pagingErrors(parameters: String, text: String) async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let address = Self.address(0x53).lowercased
        #expect(try await error(node, "module=account&action=txlist&address=\(address)&\(parameters)") == text)
        #expect(try await error(node, "module=account&action=tokentx&address=\(address)&\(parameters)") == text)
    }

    @Test func badRequests() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let a = Self.address(0x54).lowercased
        #expect(try await error(node, "action=txlist&address=\(a)") == "Error! Missing Or invalid Module name")
        #expect(try await error(node, "module=nope&action=txlist") == "Error! Missing Or invalid Module name")
        #expect(try await error(node, "module=account&action=nope") == "Error! Missing Or invalid Action name")
        #expect(try await error(node, "module=account&action=txlist") == "Error! Invalid address format")
        #expect(try await error(node, "module=account&action=txlist&address=0x1234") == "Error! Invalid address format")
        #expect(try await error(node, "module=account&action=balance&address=xyz") == "Error! Invalid address format")
        #expect(try await error(node, "module=account&action=tokentx") == "Error! Invalid address format")
        let many = (0..<21).map { Self.address(UInt8($0)).lowercased }.joined(separator: ",")
        #expect(
            try await error(node, "module=account&action=balancemulti&address=\(many)")
                == "Error! Maximum of 20 addresses per call")
        #expect(
            try await error(node, "module=account&action=txlistinternal&txhash=0x12")
                == "Error! Invalid transaction hash format")
        // v2: chainid required and checked.
        let unsupported =
            "Missing or unsupported chainid parameter (required for v2 api), please see chainlist for the list of supported chainids"
        #expect(try await error(node, "module=account&action=balance&address=\(a)", path: "/v2/api") == unsupported)
        #expect(
            try await error(node, "chainid=1&module=account&action=balance&address=\(a)", path: "/v2/api")
                == unsupported)
        #expect(
            try await error(
                node, "chainid=18446744073709551616&module=account&action=balance&address=\(a)", path: "/v2/api")
                == unsupported)
        #expect(
            try await result(node, "chainid=11155111&module=account&action=balance&address=\(a)", path: "/v2/api")
                == .string("0"))
    }

    @Test func balancesSupplyAndBlocks() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev = node.node.devAccounts[0].address
        let expected = try node.node.chain.balance(of: dev).description
        #expect(
            try await result(node, "module=account&action=balance&address=\(dev.lowercased)&tag=latest")
                == .string(expected))
        let multi = try await result(
            node, "module=account&action=balancemulti&address=\(dev.lowercased),\(Self.address(9).lowercased)")
        #expect(
            multi.serialized
                == #"[{"account":"\#(dev.lowercased)","balance":"\#(expected)"},{"account":"\#(Self.address(9).lowercased)","balance":"0"}]"#
        )
        let supply = try await result(node, "module=stats&action=ethsupply").stringValue ?? ""
        let ledger = node.node.snapshotOfLedger
        #expect(supply == (ledger.totalSupply - ledger.burned).description)
        let price = try await result(node, "module=stats&action=ethprice")
        #expect(price.members?.map(\.0) == ["ethbtc", "ethbtc_timestamp", "ethusd", "ethusd_timestamp"])
        #expect(Double(price["ethusd"]?.stringValue ?? "") ?? 0 > 0)
        // getblocknobytime over three blocks.
        _ = try transfers(node, count: 3, to: Self.address(0x55))
        let chain = node.node.snapshotOfLedger
        let time2 = chain.block(number: 2)!.header.timestamp
        let before = try await result(node, "module=block&action=getblocknobytime&timestamp=\(time2)&closest=before")
        let after = try await result(node, "module=block&action=getblocknobytime&timestamp=\(time2)&closest=after")
        #expect(UInt64(before.stringValue ?? "") ?? 0 >= 2)
        #expect(UInt64(after.stringValue ?? "") ?? 99 <= 2)
        #expect(
            try await error(node, "module=block&action=getblocknobytime&timestamp=0&closest=before")
                == "Error! No closest block found")
        #expect(
            try await error(node, "module=block&action=getblocknobytime&timestamp=\(UInt64.max)&closest=after")
                == "Error! No closest block found")
        #expect(
            try await error(node, "module=block&action=getblocknobytime&timestamp=x&closest=after")
                == "Error! Invalid timestamp: Unix seconds from 0 to 18446744073709551615")
        #expect(
            try await error(node, "module=block&action=getblocknobytime&timestamp=1&closest=near")
                == "Error! Invalid closest: before or after")
        // gasoracle: strings, gwei.
        let oracle = try await result(node, "module=gastracker&action=gasoracle")
        #expect(
            oracle.members?.map(\.0) == [
                "LastBlock", "SafeGasPrice", "ProposeGasPrice", "FastGasPrice", "suggestBaseFee", "gasUsedRatio",
            ])
        #expect(oracle["LastBlock"] == .string(String(chain.blockNumber)))
        #expect(Double(oracle["ProposeGasPrice"]?.stringValue ?? "") ?? 0 > 0)
    }

    @Test func tokenTransfersInternalTransfersAndContracts() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let dev = node.node.devAccounts[0].address
        let ledger = node.node.snapshotOfLedger
        let usdc = ledger.nativeContracts.tokens.first { $0.symbol == "USDC" }!
        let weth = ledger.nativeContracts.tokens.first { $0.profile == .weth9 }!
        let to = Self.address(0x61)
        // transfer(to, 1234) on USDC.
        let data =
            try Hex.decode("a9059cbb") + [UInt8](repeating: 0, count: 12) + to.bytes
            + UInt256(1234 as UInt64).bigEndianBytes
        let hash = try node.node.sendUnsigned(TransactionRequest(from: dev, to: usdc.address, data: data), from: dev)
        let rows = try await result(node, "module=account&action=tokentx&address=\(to.lowercased)").arrayValue ?? []
        #expect(rows.count == 1)
        #expect(rows.first?.members?.map(\.0) == Self.tokentxFields)
        #expect(rows.first?["hash"] == .string(Hex.encodePrefixed(hash)))
        #expect(rows.first?["value"] == .string("1234"))
        #expect(rows.first?["tokenSymbol"] == .string("USDC") && rows.first?["tokenDecimal"] == .string("6"))
        #expect(rows.first?["contractAddress"] == .string(usdc.address.lowercased))
        #expect(rows.first?["methodId"] == .string("0xa9059cbb"))
        #expect(rows.first?["functionName"] == .string("transfer(address to, uint256 value)"))
        #expect(rows.first?["input"] == .string("deprecated"))
        // The same transaction in the sender's txlist, decoded.
        let sent = try await result(
            node, "module=account&action=txlist&address=\(dev.lowercased)&sort=desc&offset=1&page=1")
        #expect(sent.arrayValue?.first?["functionName"] == .string("transfer(address to, uint256 value)"))
        // By contract only; another token's filter finds nothing.
        #expect(
            try await result(node, "module=account&action=tokentx&contractaddress=\(usdc.address.lowercased)&sort=desc")
                .arrayValue?.first?["hash"] == .string(Hex.encodePrefixed(hash)))
        let other = try await get(
            node, "module=account&action=tokentx&address=\(to.lowercased)&contractaddress=\(weth.address.lowercased)")
        #expect(other["message"] == .string("No transactions found"))
        #expect(
            try await result(
                node,
                "module=account&action=tokenbalance&contractaddress=\(usdc.address.lowercased)&address=\(to.lowercased)&tag=latest"
            ) == .string("1234"))
        // NFTs: none yet, the empty answer.
        for action in ["tokennfttx", "token1155tx"] {
            let empty = try await get(node, "module=account&action=\(action)&address=\(to.lowercased)")
            #expect(empty.serialized == #"{"status":"0","message":"No transactions found","result":[]}"#)
        }
        // WETH: deposit 1,000 wei, withdraw 400: the payout is an internal transaction from WETH to the sender.
        _ = try node.node.sendUnsigned(
            TransactionRequest(
                from: dev, to: weth.address, value: UInt256(1_000 as UInt64), data: try Hex.decode("d0e30db0")),
            from: dev)
        let withdraw = try node.node.sendUnsigned(
            TransactionRequest(
                from: dev, to: weth.address, data: try Hex.decode("2e1a7d4d") + UInt256(400 as UInt64).bigEndianBytes),
            from: dev)
        let internals = try await result(node, "module=account&action=txlistinternal&address=\(dev.lowercased)")
        let row = internals.arrayValue?.last
        #expect(row?["hash"] == .string(Hex.encodePrefixed(withdraw)))
        #expect(row?["from"] == .string(weth.address.lowercased) && row?["to"] == .string(dev.lowercased))
        #expect(row?["value"] == .string("400") && row?["traceId"] == .string("0") && row?["type"] == .string("call"))
        let byHash = try await result(
            node, "module=account&action=txlistinternal&txhash=\(Hex.encodePrefixed(withdraw))")
        #expect(byHash.arrayValue?.count == 1 && byHash.arrayValue?.first?["hash"] == nil)
        // Contract module: native ABIs, honest source; anything else is not verified.
        let abiText = try await result(node, "module=contract&action=getabi&address=\(weth.address.lowercased)")
        let abi = try JSON.parse(abiText.stringValue ?? "")
        let names = abi.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("withdraw") && names.contains("Withdrawal") && names.contains("transfer"))
        let multicall = try await result(
            node, "module=contract&action=getabi&address=0xca11bde05977b3631167028862be2a173976ca11")
        #expect((try JSON.parse(multicall.stringValue ?? "")).arrayValue?.count == 16)
        #expect(
            try await error(node, "module=contract&action=getabi&address=\(to.lowercased)")
                == "Contract source code not verified")
        let source = try await result(node, "module=contract&action=getsourcecode&address=\(usdc.address.lowercased)")
        #expect(source.arrayValue?.first?["ContractName"] == .string("USDC"))
        #expect(source.arrayValue?.first?["SourceCode"]?.stringValue?.contains("native contract") == true)
        let unknown = try await result(node, "module=contract&action=getsourcecode&address=\(to.lowercased)")
        #expect(unknown.arrayValue?.first?["ABI"] == .string("Contract source code not verified"))
    }

    @Test func proxyPostAndFaults() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let hash = try transfers(node, count: 1, to: Self.address(0x71))[0]
        let number = try await get(node, "module=proxy&action=eth_blockNumber&id=7")
        #expect(number.serialized == #"{"jsonrpc":"2.0","id":7,"result":"0x1"}"#)
        let tx = try await get(node, "module=proxy&action=eth_getTransactionByHash&txhash=\(hash)")
        #expect(tx["result"]?["hash"] == .string(hash))
        let block = try await get(node, "module=proxy&action=eth_getBlockByNumber&tag=0x1&boolean=true")
        #expect(block["result"]?["transactions"]?.arrayValue?.first?["hash"] == .string(hash))
        #expect(try await error(node, "module=proxy&action=eth_sign") == "Error! Missing Or invalid Action name")
        #expect(try await error(node, "module=proxy&action=eth_getTransactionByHash") == "Error! Missing txhash")
        // POST with a form body, on v1 and v2.
        let dev = node.node.devAccounts[0].address.lowercased
        for (path, extra) in [("/api", ""), ("/v2/api", "&chainid=11155111")] {
            let (status, _, data) = try await node.post(
                path, body: Data("module=account&action=txlist&address=\(dev)\(extra)".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(status == 200)
            let body = try JSON.parse([UInt8](data))
            #expect(body["status"] == .string("1") && body["result"]?.arrayValue?.count == 1)
        }
        // Etherscan's rate-limit answers as provider faults, on its paths only.
        let set = try await node.rpc(
            "sandnet_setFaults",
            [try JSON.parse(#"{"rules":[{"shape":"etherscan-calls-per-second","methods":["account.txlist"]}]}"#)])
        #expect(set["result"] == .bool(true))
        let limited = try await get(node, "module=account&action=txlist&address=\(dev)")
        #expect(
            limited.serialized
                == #"{"status":"0","message":"NOTOK","result":"Max calls per sec rate limit reached (5/sec)"}"#)
        #expect(try await result(node, "module=account&action=balance&address=\(dev)").stringValue != nil)
        #expect(try await node.rpc("eth_blockNumber")["result"] == .string("0x1"))
        _ = try await node.rpc(
            "sandnet_setFaults", [try JSON.parse(#"{"rules":[{"shape":"etherscan-rate-limit","paths":["/v2/api"]}]}"#)])
        #expect(
            try await error(node, "chainid=11155111&module=stats&action=ethsupply", path: "/v2/api")
                == "Max rate limit reached, please use API Key for higher rate limit")
        #expect(try await result(node, "module=stats&action=ethsupply").stringValue != nil)
    }
}
