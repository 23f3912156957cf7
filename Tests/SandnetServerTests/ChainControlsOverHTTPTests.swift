import JSONCoding
import Testing

/// The chain-control developer methods over real HTTP on 127.0.0.1: Anvil's names, aliases and answers.
@Suite(.serialized) struct ChainControlsOverHTTPTests {
    static let other = "0xcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcbcb"

    @Test func parametersTimeRollbackMetadataAndReset() async throws {
        let node = try await RunningNode.start(clock: { 1_800_000_000 })
        defer { node.stop() }
        #expect(try await node.rpc("anvil_setChainId", [.string("0x539")])["result"] == .null)
        #expect(try await node.rpc("eth_chainId")["result"] == .string("0x539"))
        #expect(try await node.rpc("net_version")["result"] == .string("1337"))
        #expect(try await node.rpc("anvil_setCoinbase", [.string(Self.other)])["result"] == .null)
        #expect(try await node.rpc("eth_coinbase")["result"] == .string(Self.other))
        #expect(try await node.rpc("evm_setBlockGasLimit", [.string("0x1c9c380")])["result"] == .bool(true))
        #expect(try await node.rpc("anvil_setTime", [.number("1800000500")])["result"] == .number("500"))
        _ = try await node.rpc("anvil_mine")
        #expect(try await node.rpc("anvil_setBlockTimestampInterval", [.number("12")])["result"] == .null)
        _ = try await node.rpc("anvil_mine", [.string("0x2")])
        let head = try await node.rpc("eth_getBlockByNumber", [.string("latest"), .bool(false)])["result"]
        #expect(head?["miner"] == .string(Self.other))
        #expect(head?["gasLimit"] == .string("0x1c9c380"))
        // The first block follows the set clock; the next two are 12 s apart.
        #expect(head?["timestamp"] == .string("0x" + String(1_800_000_500 + 24, radix: 16)))
        #expect(try await node.rpc("anvil_removeBlockTimestampInterval")["result"] == .bool(true))
        #expect(try await node.rpc("anvil_rollback", [.number("2")])["result"] == .null)
        #expect(try await node.rpc("eth_blockNumber")["result"] == .string("0x1"))
        let metadata = try await node.rpc("anvil_metadata")["result"]
        #expect(metadata?["chainId"] == .number("1337"))
        #expect(metadata?["latestBlockNumber"] == .number("1"))
        #expect(metadata?["snapshots"] == .object([]))
        let forking = try await node.rpc("hardhat_reset", [.object([("forking", .object([]))])])["error"]
        #expect(forking?["code"] == .number("-32602"))
        #expect(try await node.rpc("anvil_reset")["result"] == .null)
        #expect(try await node.rpc("eth_chainId")["result"] == .string("0xaa36a7"))
        #expect(try await node.rpc("eth_blockNumber")["result"] == .string("0x0"))
        #expect(try await node.rpc("anvil_metadata")["result"]?["instanceId"] != metadata?["instanceId"])
        let tooLong = try await node.rpc(
            "anvil_setCode", [.string(Self.other), .string("0x" + String(repeating: "00", count: 131_073))])["error"]
        #expect(
            tooLong?["message"]
                == .string(
                    "code is 131073 bytes long: at most 131072 bytes (the pool's transaction size limit) may be set"))
        let badLimit = try await node.rpc("anvil_setBlockGasLimit", [.string("0x0")])["error"]
        #expect(badLimit?["code"] == .number("-32602"))
    }
}
