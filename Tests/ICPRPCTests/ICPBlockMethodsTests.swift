import ICPRPC
import JSONCoding
import JSONRPC
import Testing

/// `sandnet_icpBlocks`: the ledger's blocks as JSON for the explorer page.
@Suite struct ICPBlockMethodsTests {
    @Test func blocksComeBackInOrderWithTheirOperation() throws {
        let fixture = try FaucetFixture()
        _ = try fixture.call("sandnet_icpFaucet", [.string("2vxsx-fae"), .string("5")])
        _ = try fixture.call("sandnet_icpFaucet", [.string("2vxsx-fae"), .string("7")])
        let answer = try fixture.call("sandnet_icpBlocks", [.number("0"), .number("10")])
        #expect(answer["chainLength"] == .number("2"))
        let blocks = try #require(answer["blocks"]?.arrayValue)
        #expect(blocks.count == 2)
        #expect(blocks.map { $0["index"] } == [.number("0"), .number("1")])
        #expect(blocks[0]["operation"] == .string("Mint"))
        #expect(blocks[0]["to"] == .string(anonymousAccount))
        #expect(blocks[0]["from"] == .null)
        #expect(blocks[1]["amount"] == .string("7"))
        #expect(blocks[1]["parentHash"] == blocks[0]["hash"])
        #expect(blocks[0]["timestamp"] == .string(String(FaucetFixture.start)))
        // A range past the tip is empty, not an error; one block from index 1 is the second block.
        #expect(try fixture.call("sandnet_icpBlocks", [.string("5"), .string("3")])["blocks"] == .array([]))
        let one = try fixture.call("sandnet_icpBlocks", [.string("1"), .string("1")])["blocks"]?.arrayValue
        #expect(one?.map { $0["index"] } == [.number("1")])
    }

    @Test func aLengthOverTheLimitOrNotANumberIsRefusedNamingIt() throws {
        let fixture = try FaucetFixture()
        let bad: [([JSON], String)] = [
            ([.number("0"), .number("101")], "length 101 is over the limit of 100 blocks a call"),
            ([.number("-1"), .number("1")], "start must be a whole number"),
            ([.string("0")], "missing value for required argument 1"),
            ([.number("0"), .number("1"), .null], "too many arguments, want at most 2"),
        ]
        for (params, fragment) in bad {
            do {
                _ = try fixture.call("sandnet_icpBlocks", params)
                Issue.record("\(params) was accepted")
            } catch let error as RPCError {
                #expect(error.code == -32602)
                #expect(error.message.contains(fragment), "\(error.message)")
            }
        }
    }
}
