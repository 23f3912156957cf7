import ICPIdentity

/// What a block does to balances and allowances: ledger.did `Operation`, and the Rust enum
/// `ic_ledger::Operation` in this variant order (Burn, Mint, Transfer, Approve), which the transaction hash encodes.
public enum Operation: Hashable, Sendable {
    /// Removes `amount` from `from`; `spender` is set when an ICRC-2 spender burned on `from`'s behalf.
    case burn(from: AccountIdentifier, amount: Tokens, spender: AccountIdentifier?)
    /// Creates `amount` in `to`.
    case mint(to: AccountIdentifier, amount: Tokens)
    /// Moves `amount` from `from` to `to` and burns `fee`; `spender` is set for `icrc2_transfer_from`.
    case transfer(
        from: AccountIdentifier, to: AccountIdentifier, amount: Tokens, fee: Tokens, spender: AccountIdentifier?)
    /// Sets `spender`'s allowance on `from` to `allowance` and burns `fee` (ICRC-2 `icrc2_approve`).
    case approve(
        from: AccountIdentifier, spender: AccountIdentifier, allowance: Tokens, expectedAllowance: Tokens?,
        expiresAt: TimestampNanos?, fee: Tokens)

    /// The variant index serde gives it (the key of the one-entry map in the packed CBOR encoding).
    var variantIndex: UInt64 {
        switch self {
        case .burn: return 0
        case .mint: return 1
        case .transfer: return 2
        case .approve: return 3
        }
    }

    /// The ledger.did variant label.
    public var name: String {
        switch self {
        case .burn: return "Burn"
        case .mint: return "Mint"
        case .transfer: return "Transfer"
        case .approve: return "Approve"
        }
    }
}
