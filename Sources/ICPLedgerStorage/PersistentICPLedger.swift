import ICPIdentity
import ICPLedger
import KeyValueStorage
import Synchronization

/// The owner of an ICP ``LedgerCanister`` (kept in a ``KeyValueStore`` or in memory only): it lets the ledger compute
/// a call, writes the ``LedgerChanges`` as one atomic batch, and only then commits them to the ledger in memory. When
/// the write fails nothing is committed and the caller gets ``ICPLedgerStorageError/storageFailure(_:)``, so memory
/// and disk always hold the same ledger. The ICP counterpart of the Ethereum side's `PersistentLedger`.
///
/// One lock, held for the computation, the write and the commit of one call (so calls are serialized), and for
/// the O(1) copy a reader takes. Lock order: a caller may hold the replica's state lock when it takes this one,
/// never the other way round.
public final class PersistentICPLedger: Sendable {
    let state: Mutex<LedgerCanister>
    let store: (any KeyValueStore)?
    let syncWrites: Bool

    /// A ledger in memory only.
    public init(_ ledger: LedgerCanister) {
        state = Mutex(ledger)
        store = nil
        syncWrites = false
    }

    init(ledger: LedgerCanister, store: any KeyValueStore, syncWrites: Bool) {
        state = Mutex(ledger)
        self.store = store
        self.syncWrites = syncWrites
    }

    /// The ledger kept in `store`: reopened from it when it holds one (blocks re-hashed and checked), otherwise
    /// created with `initialBalances` minted at `now`, all of them written as one batch.
    ///
    /// - Throws: ``ICPLedgerStorageError`` when the store cannot be read or written, holds an inconsistent ledger,
    ///   or the initial balances overflow the supply.
    public static func open(
        configuration: LedgerConfiguration, store: any KeyValueStore, syncWrites: Bool = false,
        initialBalances: [(AccountIdentifier, Tokens)] = [], now: TimestampNanos
    ) throws(ICPLedgerStorageError) -> PersistentICPLedger {
        let meta: [UInt8]?
        do { meta = try store.get(ICPLedgerRecords.metaKey) } catch { throw .storageFailure(error.message) }
        if let meta {
            let ledger = try ICPLedgerRecords.load(configuration: configuration, meta: meta, store: store, now: now)
            return PersistentICPLedger(ledger: ledger, store: store, syncWrites: syncWrites)
        }
        var ledger = LedgerCanister(configuration: configuration)
        let genesis: LedgerChanges
        do { genesis = try ledger.minting(initialBalances, now: now) } catch {
            throw .invalidInitialBalances(error.message)
        }
        do { try store.write(ICPLedgerRecords.batch(genesis), sync: syncWrites) } catch {
            throw .storageFailure(error.message)
        }
        ledger.commit(genesis)
        return PersistentICPLedger(ledger: ledger, store: store, syncWrites: syncWrites)
    }

    /// The ledger as last committed (an O(1) copy: reads run on it without holding the lock).
    public var ledger: LedgerCanister { state.withLock { $0 } }

    /// Whether the ledger is kept in a store.
    public var isPersistent: Bool { store != nil }

    /// Runs `body` on the ledger as last committed; writes the changes of its outcome (if any) as one batch, then
    /// commits them.
    ///
    /// - Returns: the outcome's answer.
    /// - Throws: ``ICPLedgerStorageError/storageFailure(_:)`` when the write fails; nothing is committed then.
    @discardableResult
    public func perform<Answer: Sendable>(
        _ body: (LedgerCanister) -> LedgerOutcome<Answer>
    ) throws(ICPLedgerStorageError) -> Answer {
        try state.withLock { ledger throws(ICPLedgerStorageError) -> Answer in
            let outcome = body(ledger)
            guard let changes = outcome.changes else { return outcome.answer }
            if let store {
                do throws(StorageError) {
                    try store.write(ICPLedgerRecords.batch(changes), sync: syncWrites)
                } catch {
                    throw .storageFailure(error.message)
                }
            }
            ledger.commit(changes)
            return outcome.answer
        }
    }

    /// Puts a ledger captured earlier back (a development network's snapshots). Only for a ledger in memory: one in
    /// a store would no longer match its disk, which is a programmer error.
    public func replace(with ledger: LedgerCanister) {
        precondition(store == nil, "a ledger kept in a store cannot be replaced in memory")
        state.withLock { $0 = ledger }
    }
}
