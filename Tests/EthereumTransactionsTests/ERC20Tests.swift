import ABICoding
import ByteCoding
import EthereumTransactions
import EthereumTypes
import Testing

@Suite struct ERC20Tests {
    let alice = TestKeys.sender
    let bob = TestKeys.recipient

    @Test(arguments: [
        ("transfer(address,uint256)", "a9059cbb"), ("transferFrom(address,address,uint256)", "23b872dd"),
        ("approve(address,uint256)", "095ea7b3"), ("balanceOf(address)", "70a08231"),
        ("allowance(address,address)", "dd62ed3e"), ("totalSupply()", "18160ddd"), ("decimals()", "313ce567"),
        ("symbol()", "95d89b41"), ("name()", "06fdde03"),
    ])
    func selectors(signature: String, selector: String) throws {
        let calls: [ERC20Call] = [
            .transfer(to: bob, amount: 1), .transferFrom(from: alice, to: bob, amount: 1),
            .approve(spender: bob, amount: 1), .balanceOf(owner: alice), .allowance(owner: alice, spender: bob),
            .totalSupply, .decimals, .symbol, .name,
        ]
        let call = try #require(calls.first { $0.signature == signature })
        #expect(Hex.encode(call.selector) == selector)
        #expect(try ERC20Call(calldata: call.encoded()) == call)
    }

    @Test func transferCalldata() throws {
        let call = ERC20Call.transfer(to: bob, amount: UInt256(1_000_000 as UInt64))
        #expect(
            Hex.encode(call.encoded())
                == "a9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000f4240"
        )
        #expect(call.encoded().count == 68)
    }

    @Test func calldataIsDecodedStrictly() {
        let good = ERC20Call.transfer(to: bob, amount: 5).encoded()
        #expect(throws: ABIDecodingError(.wrongLength(expected: 68, actual: 67), at: 0)) {
            try ERC20Call(calldata: Array(good.dropLast()))
        }
        #expect(throws: ABIDecodingError(.wrongLength(expected: 68, actual: 69), at: 0)) {
            try ERC20Call(calldata: good + [0])
        }
        var dirty = good
        dirty[4] = 1
        #expect(throws: ABIDecodingError(.dirtyWord, at: 4)) { try ERC20Call(calldata: dirty) }
        #expect(throws: ABIDecodingError(.unknownSelector([1, 2, 3, 4]), at: 0)) {
            try ERC20Call(calldata: [1, 2, 3, 4])
        }
        #expect(throws: ABIDecodingError(.wrongLength(expected: 4, actual: 2), at: 0)) {
            try ERC20Call(calldata: [1, 2])
        }
    }

    @Test func returnValues() throws {
        #expect(try ERC20ReturnValue.decodeUInt256(ERC20ReturnValue.encode(uint256: .max)) == .max)
        #expect(try ERC20ReturnValue.decodeUInt8(ERC20ReturnValue.encode(uint8: 18)) == 18)
        #expect(try ERC20ReturnValue.decodeBool(ERC20ReturnValue.encode(bool: true)))
        #expect(throws: ABIDecodingError(.dirtyWord, at: 0)) {
            try ERC20ReturnValue.decodeBool(ERC20ReturnValue.encode(uint256: 2))
        }
        #expect(throws: ABIDecodingError(.dirtyWord, at: 0)) {
            try ERC20ReturnValue.decodeUInt8(ERC20ReturnValue.encode(uint256: 256))
        }
        // eth_abi.encode(['string'], ['Tether USD'])
        let usdt = ERC20ReturnValue.encode(string: "Tether USD")
        #expect(
            Hex.encode(usdt)
                == "0000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000a5465746865722055534400000000000000000000000000000000000000000000"
        )
        #expect(try ERC20ReturnValue.decodeString(usdt) == "Tether USD")
        #expect(try ERC20ReturnValue.decodeString(ERC20ReturnValue.encode(string: "")) == "")
        var badLength = usdt
        badLength[63] = 0x40
        #expect(throws: ABIDecodingError(.lengthOutOfRange, at: 32)) { try ERC20ReturnValue.decodeString(badLength) }
        #expect(throws: ABIDecodingError.self) { try ERC20ReturnValue.decodeString([UInt8](repeating: 0, count: 32)) }
    }

    @Test func events() throws {
        #expect(
            Hex.encode(ERC20Event.transferTopic) == "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
        #expect(
            Hex.encode(ERC20Event.approvalTopic) == "8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925")
        let transfer = ERC20Event.transfer(from: .zero, to: bob, value: 42)
        #expect(transfer.topics.count == 3)
        #expect(Hex.encode(transfer.topics[2]) == "00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8")
        #expect(transfer.data == UInt256(42).bigEndianBytes)
        #expect(try ERC20Event(topics: transfer.topics, data: transfer.data) == transfer)
        let approval = ERC20Event.approval(owner: alice, spender: bob, value: .max)
        #expect(try ERC20Event(topics: approval.topics, data: approval.data) == approval)
        #expect(throws: ABIDecodingError(.wrongEvent, at: 0)) {
            try ERC20Event(
                topics: [[UInt8](repeating: 0, count: 32)] + transfer.topics.dropFirst(), data: transfer.data)
        }
        #expect(throws: ABIDecodingError(.wrongEvent, at: 0)) {
            try ERC20Event(topics: Array(transfer.topics.prefix(2)), data: transfer.data)
        }
    }
}
