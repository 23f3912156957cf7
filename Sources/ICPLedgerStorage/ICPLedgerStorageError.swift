/// Why the ICP ledger's store could not be read or written. Never a trap: the caller answers with an error that says
/// the storage failed, and the ledger in memory is as it was.
public enum ICPLedgerStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store refused a read or a write (disk full, I/O error), with its message.
    case storageFailure(String)
    /// The store holds ledger records that do not decode or do not fit together.
    case corruptStore(String)
    /// The initial balances cannot be minted (they overflow the supply).
    case invalidInitialBalances(String)

    public var description: String {
        switch self {
        case .storageFailure(let message): return "the ICP ledger's storage failed: \(message)"
        case .corruptStore(let message): return "the ICP ledger's storage is inconsistent: \(message)"
        case .invalidInitialBalances(let message): return "the ICP ledger's initial balances are invalid: \(message)"
        }
    }
}
