import CBORCoding
import Dispatch
import ICPIdentity
import ICPLedger
import Synchronization
import Testing

@testable import ICPReplica

/// Queries share the replica's state; only calls hold it exclusively (issue 17: queries serialised on the lock
/// calls take).
@Suite struct QueryConcurrencyTests {
    /// A query answers while another reader is inside the replica's state. With one mutex for everything it
    /// waited for that reader; the timeout is only a hang guard that a passing run never reaches.
    @Test func aQueryAnswersWhileAnotherReaderHoldsTheState() throws {
        let fixture = try ReplicaFixture()
        let replica = fixture.replica
        let ledgerID = fixture.ledgerID
        let body = try fixture.queryBody("icrc1_symbol", identity: nil)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let holderDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            replica.readService { _ in
                entered.signal()
                release.wait()
            }
            holderDone.signal()
        }
        entered.wait()
        let answered = DispatchSemaphore(value: 0)
        let result = Mutex<ReplicaResponse?>(nil)
        DispatchQueue.global().async {
            let response = replica.query(effectiveCanister: ledgerID, body: body)
            result.withLock { $0 = response }
            answered.signal()
        }
        let outcome = answered.wait(timeout: .now() + 300)
        release.signal()
        holderDone.wait()
        if outcome == .timedOut { answered.wait() }
        #expect(outcome == .success, "the query waited for another reader to leave the replica's state")
        let response = try #require(result.withLock { $0 })
        #expect(response.status == 200, "\(text(response))")
        let value = try CBORDecoder().decode(response.body)
        #expect(value["status"]?.textValue == "replied")
    }

    /// Reads under the shared side see what a change under the exclusive side wrote.
    @Test func readsSeeWhatExclusiveChangesWrote() throws {
        let fixture = try ReplicaFixture()
        let bob = AccountIdentifier(principal: fixture.bob.principal)
        #expect(fixture.replica.readService { $0.ledger.balance(of: bob).e8s } == 0)
        #expect(try fixture.replica.mint(to: bob, amount: Tokens(e8s: 12_345)) == 1)
        #expect(fixture.replica.readService { $0.ledger.balance(of: bob).e8s } == 12_345)
    }
}
