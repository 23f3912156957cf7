#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The replica's state behind a reader-writer lock: queries (and other reads) hold the shared side and run
/// concurrently with each other; calls, faucet mints and clock changes hold the exclusive side. A
/// `Mutex` made every query wait for every other query.
///
/// On Linux the lock prefers writers (`PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP`), so a steady stream of
/// queries cannot starve calls. Sections are short and never await or do I/O. Not reentrant: a body must not
/// take the lock again.
///
/// `@unchecked Sendable`: `value` is read only while the shared or the exclusive side is held and written only
/// while the exclusive side is held; the pthread lock lives at a stable heap address owned by this object.
final class ReplicaStateLock<Value>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        #if os(Linux)
            pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        #endif
        let status = pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with shared access: other readers may run at the same time, writers wait.
    func withReadLock<T, E: Error>(_ body: (borrowing Value) throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Runs `body` with exclusive access.
    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
