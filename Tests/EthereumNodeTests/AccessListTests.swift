import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTransactions
import EthereumTypes
import JSONCoding
import JSONRPC
import NativeContracts
import Testing

/// eth_createAccessList (EIP-2930) as geth answers it: the touched storage words of native contract calls, the gas
/// the call uses with that list (equal to what the mined transaction then uses), and failures in `error`.
@Suite struct AccessListTests {
    static let usdc = TokenDefinition.usdc.address

    static func transferData(to: Address, amount: UInt256) -> [UInt8] {
        [0xa9, 0x05, 0x9c, 0xbb] + [UInt8](repeating: 0, count: 12) + to.bytes + amount.bigEndianBytes
    }

    @Test func plainTransferHasAnEmptyListAndIntrinsicGas() throws {
        let (node, _) = try makeNode()
        var request = TransactionRequest(from: node.devAccounts[0].address, to: node.devAccounts[1].address)
        request.value = UInt256(5)
        let result = try node.chain.createAccessList(request)
        #expect(result.accessList.isEmpty && result.gasUsed == 21_000 && result.error == nil)
        // A given list keeps its other accounts (the sender, the target and precompiles are dropped) and is paid for.
        let other = Address([UInt8](repeating: 0x42, count: 20))!
        let precompile = Address([UInt8](repeating: 0, count: 19) + [1])!
        request.accessList = [
            AccessListEntry(address: other, storageKeys: [UInt256(1)]),
            AccessListEntry(address: node.devAccounts[0].address), AccessListEntry(address: precompile),
        ]
        let given = try node.chain.createAccessList(request)
        #expect(given.accessList == [AccessListEntry(address: other, storageKeys: [UInt256(1)])])
        #expect(given.gasUsed == 21_000 + 2_400 + 1_900)
    }

    /// A USDC transfer lists USDC's balance words of both holders; mined with that list, the transaction uses
    /// exactly the gas answered (geth's `gasUsed` is after the refund: as a gas limit it can fall short).
    @Test func tokenTransferListsTheTouchedSlotsAndItsGasIsTheMinedGas() throws {
        let (node, _) = try makeNode()
        let sender = node.devAccounts[0]
        let recipient = node.devAccounts[1].address
        let data = Self.transferData(to: recipient, amount: UInt256(1_000_000))
        var request = TransactionRequest(from: sender.address, to: Self.usdc, data: data)
        let result = try node.chain.createAccessList(request)
        #expect(result.error == nil)
        let layout = TokenProfile.fiatToken.layout
        let slots = [layout.balanceSlot(sender.address), layout.balanceSlot(recipient)].sorted()
        #expect(result.accessList.map(\.address) == [Self.usdc])
        #expect(slots.allSatisfy { result.accessList[0].storageKeys.contains($0) })
        #expect(result.accessList[0].storageKeys == result.accessList[0].storageKeys.sorted())

        let tx = Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: node.chainID, nonce: 0, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gas: 100_000, to: Self.usdc, value: .zero,
                data: data, accessList: result.accessList))
        let hash = try node.submit(raw: try tx.signed(privateKey: sender.privateKey).encoded)
        let receipt = try #require(node.chain.receipt(hash: hash))
        #expect(receipt.receipt.status)
        #expect(receipt.receipt.gasUsed == result.gasUsed)
        // Asked again with the list it gave, it gives the same answer.
        request.accessList = result.accessList
        request.nonce = 1
        #expect(try node.chain.createAccessList(request, at: .number(0)) == result)
    }

    /// A failing call is not an error: geth's VM error text comes back beside the list (no revert reason).
    @Test func revertIsReportedInError() throws {
        let (node, _) = try makeNode()
        let poor = Address([UInt8](repeating: 0x77, count: 20))!
        let request = TransactionRequest(
            from: poor, to: Self.usdc, data: Self.transferData(to: node.devAccounts[1].address, amount: UInt256(1)))
        let result = try node.chain.createAccessList(request)
        #expect(result.error == "execution reverted")
        #expect(result.accessList.first?.storageKeys.contains(TokenProfile.fiatToken.layout.balanceSlot(poor)) == true)
        #expect(result.gasUsed > 21_000)
    }

    @Test func rpcShapeMatchesGeth() throws {
        let (node, _) = try makeNode()
        let from = JSON.string(node.devAccounts[0].address.lowercased)
        let plain = try node.call(
            "eth_createAccessList",
            [
                .object([
                    ("from", from), ("to", .string(node.devAccounts[1].address.lowercased)), ("value", .string("0x1")),
                ])
            ])
        #expect(plain == .object([("accessList", .array([])), ("gasUsed", .string("0x5208"))]))
        let poor = JSON.string("0x" + String(repeating: "77", count: 20))
        let data = JSON.string(
            Hex.encodePrefixed(Self.transferData(to: node.devAccounts[1].address, amount: UInt256(1))))
        let failed = try node.call(
            "eth_createAccessList",
            [.object([("from", poor), ("to", .string(Self.usdc.lowercased)), ("data", data)]), .string("latest")])
        guard case .object(let fields) = failed else {
            Issue.record("not an object")
            return
        }
        #expect(fields.map(\.0) == ["accessList", "error", "gasUsed"])
        #expect(failed["error"] == .string("execution reverted"))
        #expect(failed["accessList"]?.arrayValue?.first?["address"] == .string(Self.usdc.lowercased))
        #expect(failed["accessList"]?.arrayValue?.first?["storageKeys"]?.arrayValue?.first?.stringValue?.count == 66)
        #expect(throws: RPCError(code: -32000, message: "header not found")) {
            try node.call("eth_createAccessList", [.object([("from", from)]), .string("0x99")])
        }
    }
}
