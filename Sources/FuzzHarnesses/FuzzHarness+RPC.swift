import ByteCoding
import DevNetwork
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import ICPLedger
import ICPReplica
import JSONCoding
import JSONRPC
import Synchronization

/// The `rpc` target: a program of JSON-RPC calls run against a fresh in-process node (and its ICP replica)
/// through the dispatcher, with the clock in the program's hands.
///
/// After every call the node must have answered with a JSON-RPC response object that is not an internal error
/// (-32603: an unmapped error is a bug), and the node's invariants must hold: Σ balances + burned = supply, the
/// head is the last block and links to its parent with a later timestamp, the ICP ledger's clock never runs
/// backwards, and filters, snapshots and the pool stay within their limits.
///
/// The program is read byte by byte (missing bytes read as 0), one operation at a time:
///
/// | op (byte % 8) | operation |
/// |---|---|
/// | 0, 1, 2 | call a method of the node's table (u16 index), 0–4 generated parameters |
/// | 3 | call a method by name (length-prefixed, so also garbage names), 0–4 generated parameters |
/// | 4 | advance the clock by an interesting number of seconds |
/// | 5 | interval-mining tick (what the server's timer calls) |
/// | 6 | sign a transaction with a dev key from generated fields and send it raw |
/// | 7 | call a method by name with literal JSON parameters (u16-length-prefixed text): what seeds use |
///
/// Generated parameters (``RPCProgram/value(depth:)``) draw on the numbers that broke the node before: 0, 1,
/// 2^64 − 1, 2^64, 2^255, 2^256 − 1, negative and fractional numbers, huge strings and data, deep structures,
/// wrong types, the dev and faucet addresses, hashes and ids the node returned earlier.
extension FuzzHarness {
    /// Node limits for fuzzing: small, so that a short program reaches them.
    static func fuzzNodeConfiguration() -> NodeConfiguration {
        var config = NodeConfiguration()
        config.accountCount = 2
        config.maxBlocksPerRequest = 64
        config.filterLimit = 16
        config.filterCriteriaLimit = 4_096
        config.snapshotLimit = 8
        config.chain.poolLimitTotal = 48
        config.chain.poolLimitPerSender = 16
        // Small size limits, so that the boundaries are crossed with small (fast) payloads.
        config.chain.poolByteLimit = 32_768
        config.chain.maxTransactionSize = 4_096
        config.chain.maxInitCodeSize = 1_024
        config.faucetCooldown = 3_600
        return config
    }

    /// Most operations one input runs.
    static let rpcOperationLimit = 48

    @Sendable public static func rpc(_ data: [UInt8]) {
        let clock = FuzzClock()
        let replica: Replica
        let node: SandnetNode
        let dispatcher: RPCDispatcher
        do {
            var icp = DevelopmentNetwork.ICPConfiguration()
            icp.identities = 0
            icp.balance = Tokens(e8s: 0)
            let network = try DevelopmentNetwork(
                configuration: DevelopmentNetwork.Configuration(ethereum: fuzzNodeConfiguration(), icp: icp),
                store: nil,
                clock: { clock.seconds }, icpClock: { clock.nanoseconds })
            node = network.node
            dispatcher = network.dispatcher
            guard let icpPart = network.icp else { violated("rpc: the network has its ICP ledger", "") }
            replica = icpPart.replica
        } catch {
            violated("rpc: the node starts", "\(error)")
        }
        var program = RPCProgram(data, node: node, dispatcher: dispatcher)
        var lastICPTime = replica.ledgerNow
        var operations = 0
        while !program.atEnd && operations < rpcOperationLimit {
            operations += 1
            let op = program.byte() % 8
            switch op {
            case 0, 1, 2:
                let name = program.methodNames[Int(program.u16()) % program.methodNames.count]
                program.call(name, program.parameters())
            case 3:
                let name = program.text(maxLength: 64)
                program.call(name, program.parameters())
            case 4:
                clock.advance(RPCProgram.interestingUInt64(program.byte()))
            case 5:
                node.tick()
            case 6:
                program.sendTransaction()
            default:
                let name = program.text(maxLength: 64)
                let text = program.bytes(count: Int(program.u16()))
                let params: JSON
                if let parsed = try? JSON.parse(text) { params = parsed } else { params = .array([]) }
                program.call(name, params)
            }
            checkInvariants(node, config: fuzzNodeConfiguration(), after: program.lastCall)
            let icpTime = replica.ledgerNow
            check(icpTime >= lastICPTime, "rpc: the ICP ledger's clock never runs backwards", program.lastCall)
            lastICPTime = icpTime
        }
    }

    static func checkInvariants(_ node: SandnetNode, config: NodeConfiguration, after call: String) {
        let chain = node.snapshotOfLedger
        let (total, overflow) = chain.world.sumOfBalances.addingReportingOverflow(chain.burned)
        check(!overflow && total == chain.totalSupply, "rpc: Σ balances + burned == supply", call)
        let head = chain.head
        check(chain.block(number: head.number)?.hash == head.hash, "rpc: the head is the last block", call)
        check(chain.block(number: head.number + 1) == nil, "rpc: nothing beyond the head", call)
        if head.number > 0, let parent = chain.block(number: head.number - 1) {
            check(head.header.parentHash == parent.hash, "rpc: the head links to its parent", call)
            check(head.header.timestamp > parent.header.timestamp, "rpc: timestamps increase", call)
        }
        check(node.filters.count <= config.filterLimit, "rpc: filters within their limit", call)
        check(chain.retainedChanges.snapshots <= config.snapshotLimit, "rpc: snapshots within their limit", call)
        // A reorg may requeue a whole block's transactions at once; the pool trims itself back afterwards.
        check(chain.pool.count <= config.chain.poolLimitTotal, "rpc: pool count within its limit", call)
        check(chain.pool.byteCount <= config.chain.poolByteLimit, "rpc: pool bytes within their limit", call)
    }
}

/// The fuzzer's clock: seconds for the node, nanoseconds for the ICP replica; it only moves forward.
final class FuzzClock: Sendable {
    private let time = Mutex<UInt64>(1_800_000_000)
    var seconds: UInt64 { time.withLock { $0 } }
    var nanoseconds: UInt64 {
        let (n, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : n
    }
    func advance(_ by: UInt64) {
        time.withLock {
            let (t, overflow) = $0.addingReportingOverflow(by)
            $0 = overflow ? .max : t
        }
    }
}

/// Reads a fuzz input as operations and generated JSON values, and runs the calls.
struct RPCProgram {
    let data: [UInt8]
    var offset = 0
    let node: SandnetNode
    let methodNames: [String]
    /// Hashes, addresses and ids seen in earlier answers, offered again as parameters.
    var seenHashes: [String] = []
    var seenIDs: [String] = []
    var requestID = 0
    /// A description of the call in progress, for violation messages.
    var lastCall = ""

    /// The network's method table (the node's and the replica's methods).
    let dispatcher: RPCDispatcher

    init(_ data: [UInt8], node: SandnetNode, dispatcher: RPCDispatcher) {
        self.dispatcher = dispatcher
        self.data = data
        self.node = node
        methodNames = dispatcher.methods.keys.sorted()
    }

    var atEnd: Bool { offset >= data.count }

    mutating func byte() -> UInt8 {
        guard offset < data.count else { return 0 }
        defer { offset += 1 }
        return data[offset]
    }

    mutating func u16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    mutating func bytes(count: Int) -> [UInt8] {
        let end = min(data.count, offset + count)
        defer { offset = max(offset, end) }
        return offset < end ? Array(data[offset..<end]) : []
    }

    mutating func text(maxLength: Int) -> String {
        String(decoding: bytes(count: Int(byte()) % (maxLength + 1)), as: UTF8.self)
    }

    // MARK: Calls

    mutating func parameters() -> JSON {
        let count = Int(byte() % 5)
        return .array((0..<count).map { _ in value(depth: 0) })
    }

    /// Sends one request through the dispatcher as bytes (as the transports do) and checks the answer.
    mutating func call(_ method: String, _ params: JSON) {
        requestID += 1
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .int(requestID)), ("method", .string(method)), ("params", params),
        ])
        let body = request.bytes
        lastCall = "\(method) \(String(decoding: body.prefix(600), as: UTF8.self))"
        let client = RPCClient(address: byte() & 1 == 0 ? "10.0.0.\(byte() % 4)" : nil)
        guard let out = dispatcher.handle(body, client: client) else {
            FuzzHarness.violated("rpc: every request with an id is answered", lastCall)
        }
        guard let response = try? JSON.parse(out), case .object = response else {
            FuzzHarness.violated("rpc: the answer is a JSON object", lastCall)
        }
        FuzzHarness.check(response["jsonrpc"] == .string("2.0"), "rpc: the answer is JSON-RPC 2.0", lastCall)
        let result = response["result"]
        let error = response["error"]
        FuzzHarness.check((result == nil) != (error == nil), "rpc: exactly one of result and error", lastCall)
        if let error {
            guard case .number(let code)? = error["code"], let message = error["message"]?.stringValue else {
                FuzzHarness.violated("rpc: an error has a code and a message", lastCall)
            }
            FuzzHarness.check(
                code != "-32603", "rpc: no internal error (every error is mapped)", "\(message) after \(lastCall)")
            return
        }
        if let result { remember(result) }
    }

    mutating func remember(_ result: JSON) {
        switch result {
        case .string(let s) where s.utf8.count == 66:
            if seenHashes.count < 32 { seenHashes.append(s) }
        case .string(let s) where s.hasPrefix("0x") && s.utf8.count <= 18:
            if seenIDs.count < 32 { seenIDs.append(s) }
        case .object:
            for key in ["hash", "blockHash", "transactionHash"] {
                if let h = result[key]?.stringValue, h.utf8.count == 66, seenHashes.count < 32 { seenHashes.append(h) }
            }
        default: break
        }
    }

    /// Signs a transaction from generated fields with a dev key and sends it with eth_sendRawTransaction.
    mutating func sendTransaction() {
        let accounts = node.devAccounts
        guard !accounts.isEmpty else { return }
        let account = accounts[Int(byte()) % accounts.count]
        let chain = node.snapshotOfLedger
        let base = chain.pendingNonce(account.address)
        let nonceChoice = byte()
        let nonce: UInt64
        switch nonceChoice % 6 {
        case 0, 1, 2: nonce = base
        case 3: nonce = base &+ 1
        case 4: nonce = base == 0 ? 0 : base - 1
        default: nonce = Self.interestingUInt64(byte())
        }
        let gas: UInt64 = [21_000, 53_000, 100_000, 1 << 24, 3_000_000, 60_000_000, UInt64.max][Int(byte()) % 7]
        let tip = Self.interestingFee(byte())
        let feeCap = Self.interestingFee(byte())
        let value = Self.interestingFee(byte())
        let sizes = [0, 1, 32, 1_000, 1_024, 1_025, 3_900, 5_000]
        let size = sizes[Int(byte()) % sizes.count]
        let toChoice = byte() % 3
        let to: Address? =
            toChoice == 0 ? nil : toChoice == 1 ? accounts[0].address : Address([UInt8](repeating: byte(), count: 20))
        let payload = [UInt8](repeating: byte(), count: size)
        let chainID: UInt64? = byte() % 8 == 0 ? nil : 11_155_111
        let transaction: EthereumTransactions.Transaction
        switch byte() % 3 {
        case 0:
            transaction = .legacy(
                LegacyTransaction(
                    chainID: chainID, nonce: nonce, gasPrice: feeCap, gas: gas, to: to, value: value, data: payload))
        case 1:
            transaction = .accessList(
                AccessListTransaction(
                    chainID: chainID ?? 11_155_111, nonce: nonce, gasPrice: feeCap, gas: gas, to: to, value: value,
                    data: payload))
        default:
            transaction = .dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID ?? 11_155_111, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap,
                    gas: gas,
                    to: to, value: value, data: payload))
        }
        guard let signed = try? transaction.signed(privateKey: account.privateKey) else { return }
        call("eth_sendRawTransaction", .array([.string(Hex.encodePrefixed(signed.encoded))]))
    }

    // MARK: Values

    static let interestingUInt256: [UInt256] = [
        .zero, UInt256(1), UInt256(2), UInt256(21_000), UInt256(1_000_000_000 as UInt64), UInt256(UInt64.max),
        UInt256(limbs: (0, 1, 0, 0)), UInt256(1) << 128, UInt256(1) << 255, .max, .max - UInt256(1),
        UInt256(1_000_000_000_000_000_000 as UInt64), UInt256(900_000) * UInt256(1_000_000_000_000_000_000 as UInt64),
    ]

    static func interestingUInt64(_ b: UInt8) -> UInt64 {
        let values: [UInt64] = [
            0, 1, 2, 12, 300, 301, 3_600, 86_400, 31_536_000, 31_536_001, 100_000, 100_001, 1_000_000_000,
            253_402_300_799, 253_402_300_800, 1 << 32, 1 << 62, 1 << 63, UInt64.max - 1, UInt64.max,
        ]
        return values[Int(b) % values.count]
    }

    static func interestingFee(_ b: UInt8) -> UInt256 {
        let values: [UInt256] = [
            .zero, UInt256(1), UInt256(1_000_000_000 as UInt64), UInt256(2_000_000_000 as UInt64),
            UInt256(100_000_000_000 as UInt64), UInt256(1) << 128, UInt256(1) << 200, UInt256(1) << 255, .max,
        ]
        return values[Int(b) % values.count]
    }

    static let keys = [
        "from", "to", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "value", "data", "input", "nonce",
        "type", "accessList", "address", "topics", "fromBlock", "toBlock", "blockHash", "blocks", "timestamp",
        "accounts", "balance", "code", "storageKeys", "blockNumber", "chainId",
    ]

    /// A quantity text: minimal hex of an interesting number, or a malformed one.
    mutating func quantity() -> String {
        let b = byte()
        switch b % 8 {
        case 0: return "0x"
        case 1: return "0x00"
        case 2: return "0x1" + String(repeating: "0", count: 64)  // 2^256
        case 3: return "12"
        default: return Quantity.encode(Self.interestingUInt256[Int(byte()) % Self.interestingUInt256.count])
        }
    }

    mutating func address() -> JSON {
        let accounts = node.devAccounts
        switch byte() % 6 {
        case 0: return .string(node.faucetAddress.lowercased)
        case 1, 2:
            return .string(
                accounts.isEmpty ? Address.zero.lowercased : accounts[Int(byte()) % accounts.count].address.lowercased)
        case 3: return .string(Address([UInt8](repeating: byte(), count: 20))!.lowercased)
        case 4: return .string("0x1234")
        default: return .string(Address.zero.lowercased)
        }
    }

    mutating func dataText() -> String {
        let sizes = [0, 1, 31, 32, 33, 1_000, 1_024, 1_025, 4_096, 8_000]
        let size = sizes[Int(byte()) % sizes.count]
        let fill = byte()
        return Hex.encodePrefixed([UInt8](repeating: fill, count: size))
    }

    mutating func value(depth: Int) -> JSON {
        let kind = byte() % 22
        switch kind {
        case 0: return .null
        case 1: return .bool(byte() & 1 == 1)
        case 2:
            let numbers = [
                "0", "1", "-1", "1.5", "1e3", "1e400", "18446744073709551615", "18446744073709551616", "100001",
                "1000000000", "-9223372036854775808",
                "115792089237316195423570985008687907853269984665640564039457584007913129639935",
            ]
            return .number(numbers[Int(byte()) % numbers.count])
        case 3, 4: return .string(quantity())
        case 5: return address()
        case 6:
            if !seenHashes.isEmpty && byte() & 1 == 0 { return .string(seenHashes[Int(byte()) % seenHashes.count]) }
            return .string(Hex.encodePrefixed([UInt8](repeating: byte(), count: 32)))
        case 7:
            let tags = ["latest", "pending", "earliest", "safe", "finalized", "0x0", "0x1", "0xffffffffffffffff"]
            return .string(tags[Int(byte()) % tags.count])
        case 8: return .string(dataText())
        case 9: return .string(text(maxLength: 200))
        case 10: return .string(String(repeating: "a", count: [1_000, 20_000][Int(byte()) % 2]))
        case 11:
            guard depth < 4 else { return .null }
            return .array((0..<Int(byte() % 5)).map { _ in value(depth: depth + 1) })
        case 12:
            guard depth < 4 else { return .null }
            return .object(
                (0..<Int(byte() % 6)).map { _ in (Self.keys[Int(byte()) % Self.keys.count], value(depth: depth + 1)) })
        case 13:
            // Deep nesting around the JSON parser's limit of 256.
            let levels = [100, 255, 256, 257, 400][Int(byte()) % 5]
            var v = JSON.array([])
            for _ in 0..<levels { v = byte() & 1 == 0 ? .array([v]) : .object([("a", v)]) }
            return v
        case 14: return typedData()
        case 15:
            var members: [(String, JSON)] = []
            if byte() & 1 == 0 { members.append(("from", address())) }
            if byte() & 1 == 0 { members.append(("to", address())) }
            for key in ["gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "value", "nonce"]
            where byte() % 3 == 0 {
                members.append((key, .string(quantity())))
            }
            if byte() & 1 == 0 { members.append(("data", .string(dataText()))) }
            return .object(members)
        case 16:
            var members: [(String, JSON)] = []
            if byte() & 1 == 0 { members.append(("fromBlock", value(depth: 4))) }
            if byte() & 1 == 0 { members.append(("toBlock", value(depth: 4))) }
            if byte() & 1 == 0 { members.append(("address", depth < 3 ? value(depth: depth + 1) : address())) }
            if byte() & 1 == 0 { members.append(("topics", depth < 3 ? value(depth: depth + 1) : .array([]))) }
            return .object(members)
        case 17:
            // A state dump (anvil_loadState), hex of its JSON text.
            let balance = Self.interestingUInt256[Int(byte()) % Self.interestingUInt256.count]
            let dump = JSON.object([
                (
                    "accounts",
                    .object([
                        (
                            Address([UInt8](repeating: byte(), count: 20))!.lowercased,
                            .object([
                                ("balance", .string(Quantity.encode(balance))), ("nonce", .string(quantity())),
                            ])
                        )
                    ])
                )
            ])
            return .string(Hex.encodePrefixed(dump.bytes))
        case 18:
            if !seenIDs.isEmpty && byte() & 1 == 0 { return .string(seenIDs[Int(byte()) % seenIDs.count]) }
            return .string(Quantity.encode(UInt64(byte() % 20)))
        case 19:
            var members: [(String, JSON)] = []
            if byte() & 1 == 0 { members.append(("blocks", byte() & 1 == 0 ? .string(quantity()) : value(depth: 4))) }
            if byte() & 1 == 0 {
                members.append(("timestamp", .string(Quantity.encode(Self.interestingUInt64(byte())))))
            }
            return .object(members)
        case 20: return .string(Quantity.encode(Self.interestingUInt64(byte())))
        default: return .string(Hex.encodePrefixed(bytes(count: Int(byte()))))
        }
    }

    /// An EIP-712 document (as JSON text or as an object) whose types form a chain of generated length, some
    /// with an unknown or recursive member.
    mutating func typedData() -> JSON {
        // Up to one over TypedData.maxTypes (with the domain); long chains cost time in every call that carries them.
        let lengths = [1, 2, 10, 50, 1_000]
        let chain = lengths[Int(byte()) % lengths.count]
        var types: [(String, JSON)] = [
            ("EIP712Domain", .array([.object([("name", .string("name")), ("type", .string("string"))])]))
        ]
        let twist = byte() % 4
        for i in 0..<chain {
            var next = i + 1 < chain ? "T\(i + 1)" : "uint256"
            if i + 1 == chain && twist == 1 { next = "Missing" }
            if i + 1 == chain && twist == 2 { next = "T0[]" }
            types.append(("T\(i)", .array([.object([("name", .string("m")), ("type", .string(next))])])))
        }
        var message = JSON.string("1")
        // Shallow: each nested struct value costs a walk of its type graph.
        for _ in 0..<min(chain, 8) { message = .object([("m", message)]) }
        let document = JSON.object([
            ("types", .object(types)), ("primaryType", .string("T0")),
            ("domain", .object([("name", .string("fuzz"))])), ("message", message),
        ])
        return byte() & 1 == 0 ? .string(document.serialized) : document
    }
}
