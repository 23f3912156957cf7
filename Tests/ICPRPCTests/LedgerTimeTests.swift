import ICPReplica
import JSONCoding
import JSONRPC
import Testing

/// `sandnet_icpIncreaseTime` offsets add up; the ledger's clock must never wrap past 2^64 − 1 ns and run backwards.
@Suite struct LedgerTimeTests {
    @Test func increasesThatWouldWrapTheClockAreRefused() throws {
        let fixture = try FaucetFixture()
        let replica = fixture.replica
        let handler = try #require(fixture.methods["sandnet_icpIncreaseTime"])
        let tenYears = JSON.number("315360000")
        var last = replica.ledgerNow
        var accepted = 0
        var refusal: RPCError?
        for _ in 0..<70 {
            do {
                _ = try handler(RPCParams([tenYears]))
                accepted += 1
            } catch let error as RPCError {
                refusal = error
                break
            }
            #expect(replica.ledgerNow >= last)
            last = replica.ledgerNow
        }
        // From 2023-11-14 (the fixture's clock), 2^64 ns leaves room for 53 increases of ten years.
        #expect(accepted == 53)
        #expect(refusal?.code == -32602)
        #expect(
            refusal?.message
                == "cannot increase the ledger time by 315360000 seconds: its clock may not pass 2^64-1 ns after the "
                + "epoch (2554-07-21T23:34:33Z)")
        #expect(replica.ledgerNow == last)
        // The wall clock moving on saturates the ledger clock instead of wrapping it.
        fixture.time.nanos.withLock { $0 += 315_360_000 * 1_000_000_000 }
        #expect(replica.ledgerNow >= last)
    }
}
