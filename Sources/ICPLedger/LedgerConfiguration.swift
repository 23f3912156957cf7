import ICPIdentity

/// The ledger's init arguments, as far as they change its behaviour (ledger.did `InitArgs`).
public struct LedgerConfiguration: Hashable, Sendable {
    /// `DEFAULT_TRANSFER_FEE` of the ICP ledger.
    public static let defaultFee: UInt64 = 10_000
    /// 24 hours: the default `transaction_window`.
    public static let defaultTransactionWindowNanos: UInt64 = 24 * 3600 * 1_000_000_000
    /// 60 seconds: `PERMITTED_DRIFT` (ic_limits).
    public static let defaultPermittedDriftNanos: UInt64 = 60 * 1_000_000_000
    /// `MAX_BLOCKS_PER_REQUEST`.
    public static let maxBlocksPerRequest: UInt64 = 2000
    /// `MEMO_SIZE_BYTES`: the longest ICRC-1 memo.
    public static let maxMemoBytes = 32

    /// The ICRC-1 minting account; its account identifier is the ledger's `minting_account`.
    public var mintingAccount: Account
    public var transferFee: Tokens
    public var transactionWindowNanos: UInt64
    public var permittedDriftNanos: UInt64
    public var tokenSymbol: String
    public var tokenName: String
    public var decimals: UInt8
    /// The ICP ledger's `can_send` refuses the anonymous principal; a mock may allow it.
    public var anonymousMaySend: Bool

    public init(
        mintingAccount: Account, transferFee: Tokens = Tokens(e8s: defaultFee),
        transactionWindowNanos: UInt64 = defaultTransactionWindowNanos,
        permittedDriftNanos: UInt64 = defaultPermittedDriftNanos, tokenSymbol: String = "ICP",
        tokenName: String = "Internet Computer", decimals: UInt8 = 8, anonymousMaySend: Bool = false
    ) {
        self.mintingAccount = mintingAccount
        self.transferFee = transferFee
        self.transactionWindowNanos = transactionWindowNanos
        self.permittedDriftNanos = permittedDriftNanos
        self.tokenSymbol = tokenSymbol
        self.tokenName = tokenName
        self.decimals = decimals
        self.anonymousMaySend = anonymousMaySend
    }

    public var mintingAccountIdentifier: AccountIdentifier { AccountIdentifier(mintingAccount) }
}
