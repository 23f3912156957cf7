import ByteCoding
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// Bounds on what clients can make the node hold or scan: filters, pool size, init code, log criteria and
/// typed-data type graphs (issue 15).
@Suite struct NodeLimitTests {
    let guards = NodeGuardTests()

    func signed(
        _ node: SandnetNode, account: Int = 0, nonce: UInt64 = 0, to: Address?, data: [UInt8], gas: UInt64,
        tip: UInt64 = 1_000_000_000
    ) throws -> String {
        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: 11_155_111, nonce: nonce, maxPriorityFeePerGas: UInt256(tip),
                maxFeePerGas: UInt256(3_000_000_000 as UInt64), gas: gas, to: to, value: .zero, data: data))
        return Hex.encodePrefixed(try tx.signed(privateKey: node.devAccounts[account].privateKey).encoded)
    }

    // MARK: Pool admission

    @Test func oversizedTransactionsAreRefused() throws {
        let (node, _) = try makeNode()
        let raw = try signed(
            node, to: node.devAccounts[1].address, data: [UInt8](repeating: 1, count: 131_072), gas: 6_000_000)
        let size = (raw.utf8.count - 2) / 2
        guards.expectError(
            node, "eth_sendRawTransaction", [.string(raw)], code: -32000,
            message: "oversized data: transaction size \(size), limit 131072")
        // What eth_sendTransaction signs: nonce 0, tip 1 gwei, 2 × base fee + tip (signatures are deterministic).
        let big = [UInt8](repeating: 1, count: 140_000)
        let filled = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: 11_155_111, nonce: 0, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(3_000_000_000 as UInt64), gas: 8_000_000, to: node.devAccounts[1].address,
                value: .zero, data: big))
        let filledSize = try filled.signed(privateKey: node.devAccounts[0].privateKey).encoded.count
        guards.expectError(
            node, "eth_sendTransaction",
            [
                .object([
                    ("from", .string(node.devAccounts[0].address.lowercased)),
                    ("to", .string(node.devAccounts[1].address.lowercased)), ("gas", .string("0x7a1200")),
                    ("data", .string(Hex.encodePrefixed(big))),
                ])
            ],
            code: -32000, message: "oversized data: transaction size \(filledSize), limit 131072")
        #expect(node.snapshotOfLedger.pool.count == 0)
        #expect(try node.call("eth_blockNumber") == .string("0x0"))
    }

    @Test func poolBytesAreBoundedByEviction() throws {
        let (node, _) = try makeNode {
            $0.miningMode = .manual
            $0.chain.poolByteLimit = 300_000
        }
        let to = node.devAccounts[9].address
        let data = [UInt8](repeating: 1, count: 120_000)
        for (account, tip) in [(0, 2_000_000_000), (1, 1_000_000_000), (2, 3_000_000_000)] as [(Int, UInt64)] {
            _ = try node.call(
                "eth_sendRawTransaction",
                [.string(try signed(node, account: account, to: to, data: data, gas: 5_000_000, tip: tip))])
        }
        let pool = node.snapshotOfLedger.pool
        #expect(pool.count == 2)
        #expect(pool.byteCount <= 300_000)
        // The cheapest (1 gwei, from account 1) was evicted; a cheaper newcomer is refused.
        #expect(pool.all.map(\.sender) == [node.devAccounts[0].address, node.devAccounts[2].address])
        guards.expectError(
            node, "eth_sendRawTransaction",
            [.string(try signed(node, account: 3, to: to, data: data, gas: 5_000_000, tip: 500_000_000))],
            code: -32000, message: "txpool is full")
    }

    @Test func initCodeOverTheEIP3860LimitIsRefusedEverywhere() throws {
        let (node, _) = try makeNode()
        let from = node.devAccounts[0].address.lowercased
        let tooLong = [UInt8](repeating: 0, count: 49_153)
        let message = "max initcode size exceeded: code size 49153 limit 49152"
        guards.expectError(
            node, "eth_sendRawTransaction", [.string(try signed(node, to: nil, data: tooLong, gas: 1_000_000))],
            code: -32000, message: message)
        let request = JSON.object([("from", .string(from)), ("data", .string(Hex.encodePrefixed(tooLong)))])
        guards.expectError(node, "eth_sendTransaction", [request], code: -32000, message: message)
        guards.expectError(node, "eth_estimateGas", [request], code: -32000, message: message)
        guards.expectError(node, "eth_call", [request], code: -32000, message: message)
        #expect(try node.call("eth_blockNumber") == .string("0x0"))
        // 49,152 bytes are fine and the creation is mined.
        let hash = try node.call(
            "eth_sendRawTransaction",
            [.string(try signed(node, to: nil, data: [UInt8](repeating: 0, count: 49_152), gas: 1_000_000))])
        let receipt = try node.call("eth_getTransactionReceipt", [hash])
        #expect(receipt["status"] == .string("0x1"))
        #expect(receipt["contractAddress"]?.stringValue?.count == 42)
    }

    // MARK: eth_getLogs criteria

    @Test func wrongTypedLogCriteriaAreInvalidParams() throws {
        let (node, _) = try makeNode()
        let cases: [(JSON, String)] = [
            (.object([("address", .bool(true))]), "invalid argument 0: invalid addresses in query"),
            (.object([("address", .number("1"))]), "invalid argument 0: invalid addresses in query"),
            (.object([("address", .object([]))]), "invalid argument 0: invalid addresses in query"),
            (.object([("address", .array([.number("1")]))]), "invalid argument 0: non-string address at index 0"),
            (
                .object([("address", .string("0x12"))]),
                "invalid argument 0: invalid address: hex string has length 2, want 40 for common.Address"
            ),
            (.object([("topics", .array([.bool(true)]))]), "invalid argument 0: invalid topic(s)"),
            (.object([("topics", .array([.array([.number("1")])]))]), "invalid argument 0: invalid topic(s)"),
            (.object([("topics", .array([.object([])]))]), "invalid argument 0: invalid topic(s)"),
            (
                .object([("topics", .bool(true))]),
                "invalid argument 0: json: cannot unmarshal bool into Go struct field input.topics of type []interface {}"
            ),
            (.object([("topics", .array(Array(repeating: .null, count: 5)))]), "invalid argument 0: exceed max topics"),
        ]
        for (filter, message) in cases {
            guards.expectError(node, "eth_getLogs", [filter], code: -32602, message: message)
            guards.expectError(node, "eth_newFilter", [filter], code: -32602, message: message)
        }
        let many = JSON.array((0...1_000).map { _ in .string(node.devAccounts[0].address.lowercased) })
        guards.expectError(
            node, "eth_getLogs", [.object([("address", many)])], code: -32000,
            message: "exceed max addresses or topics per search position")
        // Well-typed criteria, nulls included, are accepted.
        let topic = JSON.string(Hex.encodePrefixed([UInt8](repeating: 7, count: 32)))
        #expect(
            try node.call(
                "eth_getLogs",
                [
                    .object([
                        ("address", .array([.string(node.devAccounts[0].address.lowercased)])),
                        ("topics", .array([.null, topic, .array([topic, .null])])),
                    ])
                ]) == .array([]))
    }

    // MARK: Filters

    @Test func filterCountIsCappedAndExpiredFiltersFreeTheirSlots() throws {
        let (node, clock) = try makeNode { $0.filterLimit = 3 }
        for _ in 0..<3 { _ = try node.call("eth_newBlockFilter") }
        guards.expectError(
            node, "eth_newPendingTransactionFilter", [], code: -32005,
            message:
                "too many filters: limit is 3 (a filter expires 5 minutes after its last poll; eth_uninstallFilter "
                + "removes one)")
        #expect(try node.call("eth_uninstallFilter", [.string("0x1")]) == .bool(true))
        _ = try node.call("eth_newFilter", [.object([])])
        clock.advance(300)
        _ = try node.call("eth_getFilterChanges", [.string("0x2")])  // polled: lives on
        clock.advance(1)
        // 0x3 and 0x4 were last polled 301 s ago: gone, and their slots are free again.
        guards.expectError(node, "eth_getFilterChanges", [.string("0x3")], code: -32000, message: "filter not found")
        guards.expectError(node, "eth_getFilterLogs", [.string("0x4")], code: -32000, message: "filter not found")
        _ = try node.call("eth_newBlockFilter")
        _ = try node.call("eth_newBlockFilter")
        #expect(node.filters.count == 3)
    }

    @Test func filterCriteriaAreBoundedInAll() throws {
        let (node, _) = try makeNode { $0.filterCriteriaLimit = 5 }
        let address = JSON.string(node.devAccounts[0].address.lowercased)
        _ = try node.call("eth_newFilter", [.object([("address", .array(Array(repeating: address, count: 4)))])])
        guards.expectError(
            node, "eth_newFilter", [.object([("address", .array([address, address]))])], code: -32005,
            message: "too many filter criteria: installed log filters may hold 5 addresses and topics in all")
        _ = try node.call("eth_newFilter", [.object([("address", address)])])
    }

    @Test func blockAndPendingFiltersReadFromSharedRings() throws {
        let (node, _) = try makeNode { $0.miningMode = .manual }
        let blocks = try node.call("eth_newBlockFilter")
        let pending = try node.call("eth_newPendingTransactionFilter")
        _ = try node.call("anvil_mine", [.string("0x3")])
        let raw = try signed(node, to: node.devAccounts[1].address, data: [], gas: 21_000)
        let hash = try node.call("eth_sendRawTransaction", [.string(raw)])
        let chain = node.snapshotOfLedger
        let expected = (1...3).map { JSON.string(Hex.encodePrefixed(chain.block(number: $0)!.hash)) }
        #expect(try node.call("eth_getFilterChanges", [blocks]) == .array(expected))
        #expect(try node.call("eth_getFilterChanges", [blocks]) == .array([]))
        #expect(try node.call("eth_getFilterChanges", [pending]) == .array([hash]))
        // A filter installed later sees only what comes after it.
        let late = try node.call("eth_newBlockFilter")
        _ = try node.call("evm_mine")
        #expect(
            try node.call("eth_getFilterChanges", [late])
                == .array([.string(Hex.encodePrefixed(node.snapshotOfLedger.head.hash))]))
    }

    /// The rings hold hashes only while a filter of their kind is installed, and never more than their capacity.
    @Test func filterRingsHoldHashesOnlyForInstalledFilters() throws {
        let (node, _) = try makeNode { $0.miningMode = .manual }
        func held() -> (blocks: Int, pending: Int) {
            let registry = node.filters.registry
            return (registry.blocks.count, registry.pending.count)
        }
        _ = try node.call("anvil_mine", [.string("0x5")])
        let first = try signed(node, nonce: 0, to: node.devAccounts[1].address, data: [], gas: 21_000)
        _ = try node.call("eth_sendRawTransaction", [.string(first)])
        #expect(held() == (0, 0))  // nobody polls: nothing kept
        let pending = try node.call("eth_newPendingTransactionFilter")
        let hash = try node.call(
            "eth_sendRawTransaction",
            [.string(try signed(node, nonce: 1, to: node.devAccounts[1].address, data: [], gas: 21_000))])
        _ = try node.call("anvil_mine", [.string("0x2")])
        #expect(held() == (0, 1))
        #expect(try node.call("eth_getFilterChanges", [pending]) == .array([hash]))
        let blocks = try node.call("eth_newBlockFilter")
        _ = try node.call("anvil_mine", [.string("0x3")])
        #expect(held() == (3, 1))
        #expect(try node.call("eth_getFilterChanges", [blocks]).arrayValue?.count == 3)
        // Once the last filter of a kind is gone, its ring lets go at the next event and counts on.
        _ = try node.call("eth_uninstallFilter", [blocks])
        _ = try node.call("anvil_mine", [.string("0x1")])
        #expect(held() == (0, 1))
        #expect(node.filters.registry.blocks.next == 11)
        // Full: the capacity bounds what a ring holds.
        var registry = FilterRegistry()
        _ = try registry.install(.pending, head: 0, now: 0)
        for i in 0..<(EventRing.defaultCapacity + 5) { registry.record(pending: [UInt8(truncatingIfNeeded: i)]) }
        #expect(registry.pending.count == EventRing.defaultCapacity)
        #expect(registry.pending.next == UInt64(EventRing.defaultCapacity + 5))
    }

    @Test func eventRingKeepsTheLastEvents() {
        var ring = EventRing(capacity: 3)
        #expect(ring.since(0).isEmpty)
        for i in 0..<5 { ring.append([UInt8(i)]) }
        #expect(ring.next == 5)
        #expect(ring.since(0) == [[2], [3], [4]])
        #expect(ring.since(3) == [[3], [4]])
        #expect(ring.since(5).isEmpty)
    }

    // MARK: EIP-712

    /// Types `T0 … T(n−1)`, each referring to the next through an array member (so the message stays flat).
    static func typedChain(_ n: Int) -> String {
        var types = ["\"EIP712Domain\":[{\"name\":\"name\",\"type\":\"string\"}]"]
        for i in 0..<n {
            let next = i + 1 < n ? "T\(i + 1)[]" : "uint256"
            types.append("\"T\(i)\":[{\"name\":\"m\",\"type\":\"\(next)\"}]")
        }
        let message = n == 1 ? "{\"m\":\"1\"}" : "{\"m\":[]}"
        return
            "{\"types\":{\(types.joined(separator: ","))},\"primaryType\":\"T0\",\"domain\":{\"name\":\"x\"},\"message\":\(message)}"
    }

    @Test func deeplyNestedTypedDataTextIsRefusedCleanly() throws {
        // As a string parameter the document escapes the JSON-RPC parser's nesting limit of 256.
        let (node, _) = try makeNode()
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let document =
            "{\"types\":{\"EIP712Domain\":[]},\"primaryType\":\"EIP712Domain\",\"domain\":{},\"message\":\(deep)}"
        guards.expectError(
            node, "eth_signTypedData_v4", [.string(node.devAccounts[0].address.lowercased), .string(document)],
            code: -32602, message: "invalid argument 1: invalid typed data: not valid JSON")
    }

    @Test func typedDataWithTenThousandTypesIsRefusedCleanly() throws {
        let (node, _) = try makeNode()
        let address = JSON.string(node.devAccounts[0].address.lowercased)
        let document = Self.typedChain(10_001)
        #expect(document.utf8.count > 390_000)
        guards.expectError(
            node, "eth_signTypedData_v4", [address, .string(document)], code: -32602,
            message: "invalid argument 1: invalid typed data: 10002 types declared, at most 1000 are supported")
        // 999 chained types (1,000 with the domain) sign, and the signature recovers.
        let signature = try node.call("eth_signTypedData_v4", [address, .string(Self.typedChain(999))])
        let typed = try TypedData(json: Array(Self.typedChain(999).utf8))
        let recovered = try typed.recover(
            signature: try EthereumSignature(bytes: Quantity.parseData(signature.stringValue!)))
        #expect(recovered == node.devAccounts[0].address)
    }
}
