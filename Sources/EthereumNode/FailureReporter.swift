import Synchronization

/// A failure on a path no client waits on (the block timer, a scheduled reorg, the release of a held transaction):
/// nobody would see its error, so the node hands it to ``FailureReporter``'s handler (the server logs it).
public struct BackgroundFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the failure happened.
    public enum Path: String, Sendable, Equatable {
        /// Interval mining's block, or automine's empty block.
        case timerBlock = "timer block"
        /// A reorg scheduled by ``ChainConditions/reorgEvery``.
        case scheduledReorg = "scheduled reorg"
        /// A transaction held by ``ChainConditions/delayBlocks`` that the pool refused when its block came.
        case heldTransaction = "held transaction"
    }

    public var path: Path
    /// The underlying error's text (a storage failure names the store's message).
    public var message: String

    public init(path: Path, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path.rawValue) failed: \(message)" }
}

/// The node's background-failure sink: the handler the server (or a test) installs, and how many failures were
/// reported. A failure with no handler installed is counted only.
///
/// Lock: its one lock is taken alone; the handler runs after it is released.
public final class FailureReporter: Sendable {
    struct State {
        var handler: (@Sendable (BackgroundFailure) -> Void)?
        var reported: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Installs `handler` (replacing any earlier one); it is called on the thread that hit the failure.
    public func setHandler(_ handler: @escaping @Sendable (BackgroundFailure) -> Void) {
        state.withLock { $0.handler = handler }
    }

    /// Failures reported since the node started.
    public var reportedCount: UInt64 { state.withLock { $0.reported } }

    /// Hands `failure` to the handler.
    func report(_ failure: BackgroundFailure) {
        let handler = state.withLock { state -> (@Sendable (BackgroundFailure) -> Void)? in
            state.reported += 1
            return state.handler
        }
        handler?(failure)
    }

    /// Runs `body`, reporting its error on `path`; nil when it failed.
    func reporting<T>(_ path: BackgroundFailure.Path, _ body: () throws -> T) -> T? {
        do {
            return try body()
        } catch {
            report(BackgroundFailure(path: path, message: "\(error)"))
            return nil
        }
    }
}
