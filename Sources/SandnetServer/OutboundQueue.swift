import Synchronization

/// The bounded outbound queue of one WebSocket connection: replies and subscription notifications in the order
/// they were produced, written by one writer task.
///
/// Nothing is ever dropped silently:
/// - a reply waits for room (``pushReply(_:)`` suspends, so the session stops reading that socket and TCP pushes
///   back on the client) while `replyLimit` replies or `replyByteLimit` bytes of replies are queued;
/// - a notification that finds `notificationLimit` notifications queued cannot wait (the publisher is the
///   node), so the queue starts closing: what is queued is still written, then a close frame naming the limit,
///   and no more replies or notifications are accepted.
final class OutboundQueue: Sendable {
    /// What the writer does next.
    enum Next: Sendable, Equatable {
        case message(String)
        /// Write a close frame (policy violation) with this reason, then stop.
        case close(reason: String)
        /// The connection is over: stop.
        case finished
    }

    struct Limits: Sendable {
        var replyLimit: Int
        var replyByteLimit: Int
        var notificationLimit: Int
    }

    private struct Entry {
        var text: String
        var isReply: Bool
    }

    private struct State {
        var entries: [Entry] = []
        var head = 0
        var replies = 0
        var replyBytes = 0
        var notifications = 0
        var closeReason: String?
        var finished = false
        /// The writer, waiting for an entry.
        var writer: CheckedContinuation<Next, Never>?
        /// A reply waiting for room, and its reader.
        var parked: (text: String, reader: CheckedContinuation<Bool, Never>)?

        var isEmpty: Bool { head == entries.count }

        mutating func append(_ text: String, isReply: Bool) {
            entries.append(Entry(text: text, isReply: isReply))
            if isReply {
                replies += 1
                replyBytes += text.utf8.count
            } else {
                notifications += 1
            }
        }

        mutating func popFirst() -> Entry? {
            guard head < entries.count else { return nil }
            let entry = entries[head]
            head += 1
            if head == entries.count {
                entries.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 1_024 && head * 2 >= entries.count {
                entries.removeFirst(head)
                head = 0
            }
            if entry.isReply {
                replies -= 1
                replyBytes -= entry.text.utf8.count
            } else {
                notifications -= 1
            }
            return entry
        }
    }

    /// Continuations to resume once the lock is released.
    private struct Wake {
        var writer: (CheckedContinuation<Next, Never>, Next)?
        var reader: (CheckedContinuation<Bool, Never>, Bool)?

        func run() {
            if let (continuation, value) = writer { continuation.resume(returning: value) }
            if let (continuation, value) = reader { continuation.resume(returning: value) }
        }
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits) { self.limits = limits }

    /// Whether the queue has started closing because notifications passed their limit.
    var isClosing: Bool { state.withLock { $0.closeReason != nil } }

    /// Queues a reply, waiting while the queue holds its limit of replies. Returns false (the reply is not
    /// queued) once the connection is closing or over.
    func pushReply(_ text: String) async -> Bool {
        await withCheckedContinuation { (reader: CheckedContinuation<Bool, Never>) in
            let wake = state.withLock { s -> Wake in
                var wake = Wake()
                if s.closeReason != nil || s.finished {
                    wake.reader = (reader, false)
                } else if s.replies == 0 || (s.replies < limits.replyLimit && s.replyBytes < limits.replyByteLimit) {
                    s.append(text, isReply: true)
                    wake.reader = (reader, true)
                    wake.writer = Self.feedWriter(&s)
                } else {
                    s.parked = (text, reader)
                }
                return wake
            }
            wake.run()
        }
    }

    /// Queues a notification without waiting; past the limit the queue starts closing with `closeReason`.
    func pushNotification(_ text: String, closeReason: @autoclosure () -> String) {
        let wake = state.withLock { s -> Wake in
            var wake = Wake()
            guard s.closeReason == nil, !s.finished else { return wake }
            if s.notifications >= limits.notificationLimit {
                s.closeReason = closeReason()
                if let parked = s.parked.take() { wake.reader = (parked.reader, false) }
            } else {
                s.append(text, isReply: false)
            }
            wake.writer = Self.feedWriter(&s)
            return wake
        }
        wake.run()
    }

    /// The writer's next step, waiting for one.
    func next() async -> Next {
        await withCheckedContinuation { (writer: CheckedContinuation<Next, Never>) in
            let wake = state.withLock { s -> Wake in
                precondition(s.writer == nil, "one writer per queue")
                s.writer = writer
                return Wake(writer: Self.feedWriter(&s), reader: Self.admitParked(&s, limits))
            }
            wake.run()
        }
    }

    /// Ends the queue: the writer stops, a waiting reply is not queued.
    func finish() {
        let wake = state.withLock { s -> Wake in
            s.finished = true
            var wake = Wake(writer: Self.feedWriter(&s))
            if let parked = s.parked.take() { wake.reader = (parked.reader, false) }
            return wake
        }
        wake.run()
    }

    /// Hands the waiting writer its next step, if there is one.
    private static func feedWriter(_ s: inout State) -> (CheckedContinuation<Next, Never>, Next)? {
        guard let writer = s.writer else { return nil }
        let next: Next
        if s.finished {
            next = .finished
        } else if let entry = s.popFirst() {
            next = .message(entry.text)
        } else if let reason = s.closeReason {
            next = .close(reason: reason)
        } else {
            return nil
        }
        s.writer = nil
        return (writer, next)
    }

    /// Moves a waiting reply into the queue once there is room again.
    private static func admitParked(_ s: inout State, _ limits: Limits) -> (CheckedContinuation<Bool, Never>, Bool)? {
        guard s.parked != nil, s.replies < limits.replyLimit, s.replyBytes < limits.replyByteLimit else { return nil }
        let parked = s.parked.take()!
        s.append(parked.text, isReply: true)
        return (parked.reader, true)
    }
}
