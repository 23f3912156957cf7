import ByteCoding
import JSONCoding
import JSONRPC

extension FuzzSeeds {
    /// Programs for the `rpc` target (``FuzzHarness/rpc(_:)``), one per way a client once crashed, froze or
    /// bloated the node (issue 15), written with the literal-parameters operation so they survive changes to
    /// the method table.
    @Sendable static func rpc() -> [[UInt8]] {
        let dev0 = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        let dev1 = "0x70997970c51812dc3a010c7d01b50e0f04d30792"
        let fresh = "0x000000000000000000000000000000000000dead"
        let max256 = "0x" + String(repeating: "f", count: 64)
        let max64 = "0xffffffffffffffff"
        let programs: [[RPCSeedOperation]] = [
            [
                .call(
                    "eth_sendTransaction",
                    "[{\"from\":\"\(dev0)\",\"to\":\"\(dev1)\",\"maxPriorityFeePerGas\":\"\(max256)\"}]")
            ],
            [.call("sandnet_faucet", "[\"\(fresh)\",\"\(max256)\"]"), .call("sandnet_faucet", "[\"\(fresh)\"]")],
            [
                .call("anvil_setNextBlockBaseFeePerGas", "[\"\(max256)\"]"), .call("eth_gasPrice", "[]"),
                .call("evm_mine", "[]"),
            ],
            [
                .call("anvil_setNextBlockBaseFeePerGas", "[\"0x8\(String(repeating: "0", count: 63))\"]"),
                .call("sandnet_faucet", "[\"\(fresh)\"]"), .call("anvil_mine", "[\"0x3\"]"),
            ],
            [
                .call("anvil_setBalance", "[\"\(fresh)\",\"\(max256)\"]"),
                .call("anvil_setBalance", "[\"\(dev0)\",\"\(max256)\"]"),
            ],
            [
                .call("evm_mine", "[{\"blocks\":\"\(max64)\"}]"), .call("evm_mine", "[{\"blocks\":1000000000}]"),
                .call("evm_mine", "[{\"blocks\":64}]"),
            ],
            [
                .call("anvil_mine", "[\"0x2\"]"), .call("anvil_reorg", "[\"\(max64)\"]"),
                .call("anvil_reorg", "[\"0x1\", true]"),
            ],
            [.call("anvil_mine", "[\"0x2\",\"\(max64)\"]")],
            [.call("evm_increaseTime", "[\"\(max64)\"]"), .call("evm_mine", "[]"), .call("evm_mine", "[]")],
            [.call("evm_setNextBlockTimestamp", "[\"\(max64)\"]"), .call("evm_mine", "[]"), .call("evm_mine", "[]")],
            [
                .call("evm_setIntervalMining", "[\"\(max64)\"]"), .advance(255), .tick,
                .call("evm_setIntervalMining", "[1]"),
                .advance(2), .tick,
            ],
            Array(repeating: .call("eth_newBlockFilter", "[]"), count: 20)
                + [
                    .call("evm_mine", "[]"), .call("eth_getFilterChanges", "[\"0x1\"]"), .advance(5),
                    .call("eth_newFilter", "[{}]"),
                ],
            [
                .call("eth_getLogs", "[{\"address\":true}]"), .call("eth_getLogs", "[{\"topics\":[1]}]"),
                .call("eth_newFilter", "[{\"topics\":[[true]]}]"), .call("eth_newFilter", "[{\"address\":[{}]}]"),
            ],
            Array(repeating: .call("sandnet_icpIncreaseTime", "[315360000]"), count: 40),
            Array(repeating: .call("evm_snapshot", "[]"), count: 10) + [.call("evm_revert", "[\"0x1\"]")],
            // Creations with 1,025 and 1,024 bytes of init code, over and at the fuzzing limit (fields: see
            // RPCProgram.sendTransaction).
            [.transaction([0, 0, 4, 2, 3, 0, 5, 0, 0, 1, 2]), .transaction([0, 0, 4, 2, 3, 0, 4, 0, 0, 1, 2])],
            [
                .call(
                    "eth_signTypedData_v4",
                    "[\"\(dev0)\",\"{\\\"types\\\":{\\\"EIP712Domain\\\":[]},\\\"primaryType\\\":\\\"EIP712Domain\\\",\\\"domain\\\":{},\\\"message\\\":{}}\"]"
                )
            ],
            // A plain transfer and a 5,000-byte one (oversized data at the fuzzing limit of 4,096).
            [
                .transaction(Array(repeating: 0, count: 16)), .transaction([1, 0, 4, 2, 3, 0, 7, 1, 1, 1, 2]),
                .call("txpool_content", "[]"), .call("txpool_inspect", "[]"),
            ],
        ]
        return programs.map { $0.flatMap(\.bytes) }
    }
}

/// One operation of an `rpc` seed program, in the encoding ``FuzzHarness/rpc(_:)`` reads.
enum RPCSeedOperation {
    case call(String, String)
    case advance(UInt8)
    case tick
    case transaction([UInt8])

    var bytes: [UInt8] {
        switch self {
        case .call(let method, let params):
            let name = Array(method.utf8)
            let text = Array(params.utf8)
            precondition(name.count < 256 && text.count < 65_536, "seed operation too long")
            return [7, UInt8(name.count)] + name + [UInt8(text.count >> 8), UInt8(text.count & 0xff)] + text
        case .advance(let choice): return [4, choice]
        case .tick: return [5]
        case .transaction(let fields): return [6] + fields
        }
    }
}
