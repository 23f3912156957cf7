import Testing

@testable import ICPReplica

/// The ledger's clock shifts saturate instead of wrapping (the RPC method that moves it: ICPRPCTests/LedgerTimeTests).
@Suite struct LedgerTimeTests {
    @Test func shiftedSaturates() {
        #expect(Replica.shifted(.max - 1, by: 5) == .max)
        #expect(Replica.shifted(10, by: 5) == 15)
    }
}
