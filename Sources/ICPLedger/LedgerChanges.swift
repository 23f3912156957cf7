import ICPIdentity

/// What a call changes in a ``LedgerCanister``, computed without changing it: the blocks it appends, the balances,
/// approvals and total supply they leave, and their deduplication entries. The ledger's owner writes them as one
/// batch and then hands them to ``LedgerCanister/commit(_:)``; a failed write leaves the ledger as it was.
public struct LedgerChanges: Sendable, Equatable {
    /// The index of the first block in ``blocks`` (the chain length the changes were computed at).
    public let firstIndex: UInt64
    /// The tip the changes were computed at (the first block's parent).
    public let parentHash: [UInt8]?
    /// The blocks appended, from ``firstIndex`` on.
    public internal(set) var blocks: [Block] = []
    /// The hash of the last block appended.
    public internal(set) var tipHash: [UInt8]?
    /// Balances the blocks changed, as they are after them (0: the account is gone).
    package internal(set) var balances: [AccountIdentifier: UInt64] = [:]
    /// Approvals the blocks changed, as they are after them (nil: the approval is gone).
    package internal(set) var approvals: [LedgerCanister.ApprovalKey: LedgerCanister.StoredApproval?] = [:]
    /// The total supply after the blocks.
    public internal(set) var totalSupply: UInt64
    /// The ledger time of the call (deduplication entries older than the window are dropped on commit).
    public let now: TimestampNanos
    /// Transactions with a `created_at_time`: the deduplication entries the blocks add.
    var recentTransactions: [RecentEntry] = []

    struct RecentEntry: Sendable, Equatable {
        var hash: [UInt8]
        var index: UInt64
        var createdAtTime: TimestampNanos
    }

    /// No changes yet, on top of `ledger`.
    init(on ledger: LedgerCanister, now: TimestampNanos) {
        firstIndex = ledger.chainLength
        parentHash = ledger.tipHash
        tipHash = ledger.tipHash
        totalSupply = ledger.totalSupply
        self.now = now
    }

    /// The chain length after the changes.
    public var chainLength: UInt64 { firstIndex + UInt64(blocks.count) }
}

/// A call's answer with the changes it makes: nil when it made no block (a query, a rejected transfer).
public struct LedgerOutcome<Answer> {
    public var answer: Answer
    public var changes: LedgerChanges?

    public init(_ answer: Answer, changes: LedgerChanges? = nil) {
        self.answer = answer
        self.changes = changes
    }

    /// The same changes with the answer transformed.
    public func map<NewAnswer>(_ transform: (Answer) throws -> NewAnswer) rethrows -> LedgerOutcome<NewAnswer> {
        LedgerOutcome<NewAnswer>(try transform(answer), changes: changes)
    }

    /// An `Err` answer, which makes no block.
    static func failure<Success, Failure>(_ error: Failure) -> LedgerOutcome
    where Answer == Result<Success, Failure> {
        LedgerOutcome(.failure(error))
    }
}

extension LedgerOutcome: Sendable where Answer: Sendable {}
extension LedgerOutcome: Equatable where Answer: Equatable {}

extension LedgerOutcome {
    /// The same changes with the `Err` of a `Result` answer transformed.
    func mapFailure<Success, Failure, NewFailure>(
        _ transform: (Failure) -> NewFailure
    ) -> LedgerOutcome<Result<Success, NewFailure>> where Answer == Result<Success, Failure> {
        LedgerOutcome<Result<Success, NewFailure>>(answer.mapError(transform), changes: changes)
    }
}
