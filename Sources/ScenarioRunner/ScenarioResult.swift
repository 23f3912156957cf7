/// How a step or a scenario ended.
public enum ScenarioStatus: String, Sendable, Equatable {
    case passed, failed, skipped
    /// A step after a failure or a skip.
    case notRun = "not run"
}

/// What went wrong in a step, for people: where, expected against actual, and the transaction.
public struct StepFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var expected: String?
    public var actual: String?
    public var transactionHash: String?
    /// The assertion or field it is about, when more precise than the step.
    public var location: SourceLocation?

    public init(
        _ message: String, expected: String? = nil, actual: String? = nil, transactionHash: String? = nil,
        location: SourceLocation? = nil
    ) {
        self.message = message
        self.expected = expected
        self.actual = actual
        self.transactionHash = transactionHash
        self.location = location
    }

    /// Several lines: the message, then expected, actual and the transaction when known.
    public var description: String {
        var lines = [message]
        if let expected { lines.append("  expected: \(expected)") }
        if let actual { lines.append("  actual:   \(actual)") }
        if let transactionHash { lines.append("  tx:       \(transactionHash)") }
        return lines.joined(separator: "\n")
    }
}

/// A step that cannot run on this backend (a missing developer method, the ICP ledger).
public struct StepSkip: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// The outcome of one step.
public struct StepResult: Sendable {
    public var index: Int
    public var title: String
    public var location: SourceLocation
    public var status: ScenarioStatus
    /// Failures (a check step reports each failing assertion).
    public var failures: [StepFailure]
    public var skipReason: String?
    public var transactionHash: String?
    public var seconds: Double
}

/// The outcome of one scenario file.
public struct ScenarioResult: Sendable {
    public var name: String
    public var file: String
    public var status: ScenarioStatus
    public var steps: [StepResult]
    /// Why the whole scenario was skipped or could not start.
    public var message: String?
    public var seconds: Double
    public var backend: String

    /// The first failing step.
    public var failedStep: StepResult? { steps.first { $0.status == .failed } }
    /// The first skipped step.
    public var skippedStep: StepResult? { steps.first { $0.status == .skipped } }

    /// A readable account of a failure: the step, where, each failure with expected against actual.
    public var failureReport: String {
        var lines = ["FAIL \(name) (\(file))"]
        if let message { lines.append("  \(message)") }
        if let step = failedStep {
            lines.append("  \(step.title) at \(step.location)")
            for failure in step.failures {
                if let location = failure.location, location != step.location { lines.append("    at \(location)") }
                for line in failure.description.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append("    " + line)
                }
            }
        }
        return lines.joined(separator: "\n")
    }
}
