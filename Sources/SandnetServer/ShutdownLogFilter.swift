import Logging
import ServiceLifecycle
import Synchronization

/// The log handler given to Hummingbird: it passes everything through, except the two lines Hummingbird logs as
/// errors when a stop it was asked for races its own listener closing ("Server shutdown error: Already closed",
/// "Waiting on child channel: CancellationError()"). Once ``stopping`` is set those are what a clean stop looks like,
/// so they go out at debug level; before it, they are real errors and stay so.
struct ShutdownLogFilter: LogHandler {
    /// Set when ``NodeServer/run(handleSignals:)`` has been asked to stop (signal or task cancellation).
    final class Stopping: Sendable {
        let value = Atomic<Bool>(false)
    }

    var wrapped: any LogHandler
    let stopping: Stopping

    static let stopNoise: Set<String> = [
        "Server shutdown error: Already closed", "Waiting on child channel: CancellationError()",
    ]

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level >= .error, stopping.value.load(ordering: .relaxed),
            Self.stopNoise.contains(event.message.description)
        {
            guard wrapped.logLevel <= .debug else { return }
            event.level = .debug
        }
        wrapped.log(event: event)
    }
}

/// Raises ``ShutdownLogFilter/Stopping`` as soon as a graceful shutdown begins (listed last in the service group, so
/// it hears the shutdown before the HTTP server does).
struct StopFlagService: Service {
    let stopping: ShutdownLogFilter.Stopping

    func run() async throws {
        try? await gracefulShutdown()
        stopping.value.store(true, ordering: .relaxed)
    }
}
