import Synchronization

/// The faucet's rate limits per address and per client IP (chainflag/eth-faucet's TTL cache): a claim is checked and
/// recorded in one critical section (``reserve(_:now:cooldown:)``), so concurrent claims from one client cannot all
/// pass; a claim that then fails gives its reservation back (``cancel(_:)``).
///
/// Lock: its one lock is taken alone.
final class FaucetLimiter: Sendable {
    /// The limiter's table: last claim time per key. Entries older than the cooldown are pruned as the table grows,
    /// so it holds about one entry per key claimed within a cooldown.
    struct State: Sendable {
        var lastClaim: [String: UInt64] = [:]
        private var pruneAt = 1_024

        /// What a reservation asks for.
        enum Action: Equatable {
            /// Every key is free: the claim is recorded (with what the keys held before, to give it back).
            case reserved(Reservation)
            /// A cooldown runs: seconds to wait.
            case wait(UInt64)
        }

        /// Seconds still to wait for any of `keys`, or 0.
        func remaining(_ keys: [String], now: UInt64, cooldown: UInt64) -> UInt64 {
            guard cooldown > 0 else { return 0 }
            var wait: UInt64 = 0
            for key in keys {
                guard let last = lastClaim[key] else { continue }
                guard now >= last else {
                    wait = max(wait, cooldown)
                    continue
                }
                let elapsed = now - last
                if elapsed < cooldown { wait = max(wait, cooldown - elapsed) }
            }
            return wait
        }

        /// Checks `keys` and, when none waits, records the claim at `now`.
        mutating func reserve(_ keys: [String], now: UInt64, cooldown: UInt64) -> Action {
            let wait = remaining(keys, now: now, cooldown: cooldown)
            guard wait == 0 else { return .wait(wait) }
            guard cooldown > 0 else { return .reserved(Reservation(now: now, previous: [])) }
            let previous = keys.map { ($0, lastClaim[$0]) }
            for key in keys { lastClaim[key] = now }
            if lastClaim.count >= pruneAt {
                lastClaim = lastClaim.filter { now < $0.value || now - $0.value < cooldown }
                pruneAt = max(1_024, 2 * lastClaim.count)
            }
            return .reserved(Reservation(now: now, previous: previous))
        }

        /// Gives a failed claim's reservation back: each key holds what it held before, unless a later claim
        /// recorded it since.
        mutating func cancel(_ reservation: Reservation) {
            for (key, before) in reservation.previous where lastClaim[key] == reservation.now {
                lastClaim[key] = before
            }
        }
    }

    /// A recorded claim, to give back if its transfer fails.
    struct Reservation: Equatable {
        var now: UInt64
        var previous: [(String, UInt64?)]

        static func == (a: Self, b: Self) -> Bool {
            a.now == b.now && a.previous.elementsEqual(b.previous) { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }

    private let state = Mutex(State())

    /// Checks and records a claim on `keys` in one critical section.
    ///
    /// - Throws: ``FaucetError/cooldown(retryAfter:)`` while any key's cooldown runs.
    func reserve(_ keys: [String], now: UInt64, cooldown: UInt64) throws(FaucetError) -> Reservation {
        switch state.withLock({ $0.reserve(keys, now: now, cooldown: cooldown) }) {
        case .reserved(let reservation): return reservation
        case .wait(let seconds): throw .cooldown(retryAfter: seconds)
        }
    }

    func cancel(_ reservation: Reservation) { state.withLock { $0.cancel(reservation) } }
}
