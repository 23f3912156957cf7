import ICPIdentity
import ICPLedger
import Testing

/// Queries and metadata.
@Suite struct QueryTests {
    typealias F = Fixture

    @Test func metadataAndStandards() {
        let ledger = F.ledger()
        #expect(ledger.symbol == "ICP" && ledger.name == "Internet Computer" && ledger.decimals == 8)
        #expect(ledger.transferFee == Tokens(e8s: 10_000))
        #expect(ledger.icrc1MintingAccount == F.minting)
        #expect(ledger.icrc1Metadata.map(\.key) == ["icrc1:decimals", "icrc1:name", "icrc1:symbol", "icrc1:fee"])
        #expect(ledger.icrc1Metadata.map(\.value) == [.nat(8), .text("Internet Computer"), .text("ICP"), .nat(10_000)])
        #expect(ledger.icrc1SupportedStandards.map(\.name) == ["ICRC-1", "ICRC-2"])
        #expect(ledger.accountIdentifier(F.account(F.alice)) == F.id(F.alice).bytes)
        #expect(Tokens(e8s: 123_450_000).description == "1.2345 ICP")
    }

    @Test func queryBlocksRanges() throws {
        var ledger = LedgerCanister(configuration: F.configuration, now: F.start)
        for index in 0..<2005 {
            try ledger.run { try $0.mint(to: F.id(F.alice), amount: 1, memo: UInt64(index), now: F.start) }
        }
        let all = ledger.queryBlocks(start: 0, length: 5000)
        #expect(
            all.chainLength == 2005 && all.blocks.count == 2000 && all.firstBlockIndex == 0 && all.certificate == nil)
        let tail = ledger.queryBlocks(start: 2003, length: 10)
        #expect(tail.blocks.map(\.transaction.memo) == [2003, 2004] && tail.firstBlockIndex == 2003)
        let past = ledger.queryBlocks(start: 9000, length: 10)
        #expect(past.blocks.isEmpty && past.firstBlockIndex == 2005)
        #expect(ledger.queryBlocks(start: 5, length: 0).blocks.isEmpty)
        for index in 1..<2005 { #expect(ledger.blocks[index].parentHash == ledger.blocks[index - 1].hash) }
    }
}
