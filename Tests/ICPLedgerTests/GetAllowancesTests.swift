import ICPIdentity
import ICPLedger
import Testing

/// `get_allowances`: live approvals of one account, ordered by spender, paginated by `prev_spender_id`/`take`.
@Suite struct GetAllowancesTests {
    typealias F = Fixture

    @Test func listsLiveApprovalsInSpenderOrderWithPagination() throws {
        var ledger = F.ledger()
        let spenders = [F.account(F.bob), F.account(F.carol), F.account(F.bob, 7)]
        for (offset, spender) in spenders.enumerated() {
            let args = ApproveArgs(spender: spender, amount: .exact(UInt64(100 + offset)))
            #expect(try ledger.run { try $0.icrc2Approve(caller: F.alice, args, now: F.start) }.success != nil)
        }
        // One that expires, and one from another account that must not show.
        let expiring = ApproveArgs(spender: F.account(F.carol, 1), amount: 5, expiresAt: F.start + 10 * F.second)
        #expect(try ledger.run { try $0.icrc2Approve(caller: F.alice, expiring, now: F.start) }.success != nil)
        #expect(
            try ledger.run {
                try $0.icrc2Approve(caller: F.bob, ApproveArgs(spender: F.account(F.carol), amount: 9), now: F.start)
            }
            .success != nil)

        let from = F.id(F.alice)
        let all = ledger.allowances(from: from, after: nil, take: nil, now: F.start)
        #expect(all.count == 4)
        #expect(all.map(\.spender) == all.map(\.spender).sorted())
        #expect(all.allSatisfy { $0.from == from })
        let bob = try #require(all.first { $0.spender == F.id(F.bob) })
        #expect(bob.allowance == Tokens(e8s: 100) && bob.expiresAt == nil)

        // After expiry the approval is gone; pagination starts strictly after prev_spender_id.
        let later = ledger.allowances(from: from, after: nil, take: nil, now: F.start + 10 * F.second)
        #expect(later.count == 3)
        let page = ledger.allowances(from: from, after: later[0].spender, take: 1, now: F.start + 10 * F.second)
        #expect(page == [later[1]])
        #expect(ledger.allowances(from: from, after: nil, take: 0, now: F.start).isEmpty)
        #expect(ledger.allowances(from: F.id(F.carol), after: nil, take: nil, now: F.start).isEmpty)
    }
}
