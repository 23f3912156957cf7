import ICPIdentity

/// Legacy `transfer` arguments: ledger.did `TransferArgs` (the destination is the 32-byte account identifier blob).
public struct TransferArgs: Hashable, Sendable {
    public var memo: UInt64
    public var amount: Tokens
    public var fee: Tokens
    public var fromSubaccount: Subaccount?
    public var to: [UInt8]
    public var createdAtTime: TimestampNanos?

    public init(
        memo: UInt64 = 0, amount: Tokens, fee: Tokens = Tokens(e8s: LedgerConfiguration.defaultFee),
        fromSubaccount: Subaccount? = nil, to: [UInt8], createdAtTime: TimestampNanos? = nil
    ) {
        self.memo = memo
        self.amount = amount
        self.fee = fee
        self.fromSubaccount = fromSubaccount
        self.to = to
        self.createdAtTime = createdAtTime
    }
}

/// `icrc1_transfer` arguments: ICRC-1 `TransferArg`.
public struct ICRC1TransferArgs: Hashable, Sendable {
    public var fromSubaccount: Subaccount?
    public var to: Account
    public var amount: NatArgument
    public var fee: NatArgument?
    public var memo: [UInt8]?
    public var createdAtTime: TimestampNanos?

    public init(
        fromSubaccount: Subaccount? = nil, to: Account, amount: NatArgument, fee: NatArgument? = nil,
        memo: [UInt8]? = nil, createdAtTime: TimestampNanos? = nil
    ) {
        self.fromSubaccount = fromSubaccount
        self.to = to
        self.amount = amount
        self.fee = fee
        self.memo = memo
        self.createdAtTime = createdAtTime
    }
}

/// `icrc2_approve` arguments: ICRC-2 `ApproveArgs`.
public struct ApproveArgs: Hashable, Sendable {
    public var fromSubaccount: Subaccount?
    public var spender: Account
    public var amount: NatArgument
    public var expectedAllowance: NatArgument?
    public var expiresAt: TimestampNanos?
    public var fee: NatArgument?
    public var memo: [UInt8]?
    public var createdAtTime: TimestampNanos?

    public init(
        fromSubaccount: Subaccount? = nil, spender: Account, amount: NatArgument, expectedAllowance: NatArgument? = nil,
        expiresAt: TimestampNanos? = nil, fee: NatArgument? = nil, memo: [UInt8]? = nil,
        createdAtTime: TimestampNanos? = nil
    ) {
        self.fromSubaccount = fromSubaccount
        self.spender = spender
        self.amount = amount
        self.expectedAllowance = expectedAllowance
        self.expiresAt = expiresAt
        self.fee = fee
        self.memo = memo
        self.createdAtTime = createdAtTime
    }
}

/// `icrc2_transfer_from` arguments: ICRC-2 `TransferFromArgs`.
public struct TransferFromArgs: Hashable, Sendable {
    public var spenderSubaccount: Subaccount?
    public var from: Account
    public var to: Account
    public var amount: NatArgument
    public var fee: NatArgument?
    public var memo: [UInt8]?
    public var createdAtTime: TimestampNanos?

    public init(
        spenderSubaccount: Subaccount? = nil, from: Account, to: Account, amount: NatArgument,
        fee: NatArgument? = nil, memo: [UInt8]? = nil, createdAtTime: TimestampNanos? = nil
    ) {
        self.spenderSubaccount = spenderSubaccount
        self.from = from
        self.to = to
        self.amount = amount
        self.fee = fee
        self.memo = memo
        self.createdAtTime = createdAtTime
    }
}

/// `icrc2_allowance` result: ICRC-2 `Allowance`.
public struct Allowance: Hashable, Sendable {
    public var allowance: UInt64
    public var expiresAt: TimestampNanos?

    public init(allowance: UInt64, expiresAt: TimestampNanos?) {
        self.allowance = allowance
        self.expiresAt = expiresAt
    }
}

/// `query_blocks` result: ledger.did `QueryBlocksResponse` without archives (this ledger never archives, so
/// `archived_blocks` is always empty and `certificate` null).
public struct QueryBlocksResponse: Hashable, Sendable {
    public var chainLength: UInt64
    public var certificate: [UInt8]?
    public var blocks: [Block]
    public var firstBlockIndex: UInt64
}

/// A value of `icrc1_metadata`: ICRC-1 `MetadataValue`.
public enum MetadataValue: Hashable, Sendable {
    case nat(UInt64)
    case int(Int64)
    case text(String)
    case blob([UInt8])
}

/// An entry of `icrc1_supported_standards`.
public struct StandardRecord: Hashable, Sendable {
    public var name: String
    public var url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

/// An entry of `get_allowances`: one element of ledger.did `Allowances` (account identifiers, not accounts).
public struct AllowanceEntry: Hashable, Sendable {
    public var from: AccountIdentifier
    public var spender: AccountIdentifier
    public var allowance: Tokens
    public var expiresAt: TimestampNanos?

    public init(from: AccountIdentifier, spender: AccountIdentifier, allowance: Tokens, expiresAt: TimestampNanos?) {
        self.from = from
        self.spender = spender
        self.allowance = allowance
        self.expiresAt = expiresAt
    }
}
