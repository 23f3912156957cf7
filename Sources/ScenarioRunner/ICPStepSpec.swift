/// An ICP ledger step (see `docs/scenarios.md`, "ICP steps"): which ledger call, and its fields as written.
///
/// Account fields (`from`, `to`, `spender`, `of`, `owner`) name a scenario account (its secp256k1 key is also
/// its ICP identity) or give a principal, an ICRC-1 account text or, where the call takes one, a 64-hex-digit
/// account identifier. Amounts (`amount`, `fee`, `expectedAllowance`) are expressions in `ICP` or `e8s`.
public struct ICPStepSpec: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case faucet = "icpFaucet"
        case accountID = "icpAccountId"
        case transfer = "icpTransfer"
        case icrc1Transfer
        case approve = "icrc2Approve"
        case transferFrom = "icrc2TransferFrom"
        case call = "icpCall"
        case advanceTime = "icpAdvanceTime"
    }

    public var kind: Kind
    /// The calling account (the signer).
    public var caller: String?
    /// Account fields by key (`to`, `spender`, `from` of transfer_from, `of`), as templates.
    public var accounts: [String: Template]
    /// Subaccount numbers by key (`fromSubaccount`, `toSubaccount`, `spenderSubaccount`, `subaccount`).
    public var subaccounts: [String: UInt64]
    /// `amount`, `fee`, `expectedAllowance`.
    public var amounts: [String: AmountExpression]
    /// `memo`, `createdAtTime`, `expiresAt`, `method`, `args`, `types`, `equals`.
    public var texts: [String: Template]
    /// `icpCall`: a query call.
    public var query: Bool
    /// `icpAdvanceTime`: seconds.
    public var seconds: UInt64

    /// The keys each kind accepts, and the required ones.
    static func keys(_ kind: Kind) -> (allowed: [String], required: [String]) {
        let common = ["memo", "fee", "createdAtTime"]
        switch kind {
        case .faucet: return (["to", "toSubaccount", "amount"], ["to"])
        case .accountID: return (["of", "subaccount", "equals"], ["of"])
        case .transfer:
            return (["from", "fromSubaccount", "to", "toSubaccount", "amount"] + common, ["from", "to", "amount"])
        case .icrc1Transfer:
            return (["from", "fromSubaccount", "to", "toSubaccount", "amount"] + common, ["from", "to", "amount"])
        case .approve:
            return (
                ["from", "fromSubaccount", "spender", "spenderSubaccount", "amount", "expectedAllowance", "expiresAt"]
                    + common, ["from", "spender", "amount"]
            )
        case .transferFrom:
            return (
                ["spender", "spenderSubaccount", "from", "fromSubaccount", "to", "toSubaccount", "amount"] + common,
                ["spender", "from", "to", "amount"]
            )
        case .call: return (["from", "method", "args", "types", "query"], ["method"])
        case .advanceTime: return ([], [])
        }
    }

    /// Results stored under the step id.
    static func resultFields(_ kind: Kind) -> [String] {
        switch kind {
        case .faucet: return ["blockIndex", "account"]
        case .accountID: return ["accountId", "principal", "account"]
        case .transfer, .icrc1Transfer, .approve, .transferFrom: return ["blockIndex", "createdAtTime", "reply"]
        case .call: return ["reply"]
        case .advanceTime: return ["ledgerTime"]
        }
    }
}
