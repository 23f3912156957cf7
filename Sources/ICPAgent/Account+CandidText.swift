import CandidCoding
import ICPIdentity

extension Account {
    /// The ICRC-1 `Account` record in Candid text syntax, for building call arguments:
    /// `record { owner = principal "…"; subaccount = opt blob "…" }` (`subaccount = null` when there is none).
    public var candidText: String {
        "record { owner = principal \"\(owner.text)\"; subaccount = \(Subaccount.optionalCandidText(subaccount)) }"
    }
}

extension Subaccount {
    /// The subaccount as a Candid `blob` literal.
    public var candidText: String { CandidValue.blobLiteral(bytes) }

    /// An `opt Subaccount` argument in Candid text syntax: `opt blob "…"`, or `null` for nil.
    public static func optionalCandidText(_ subaccount: Subaccount?) -> String {
        subaccount.map { "opt " + $0.candidText } ?? "null"
    }
}
