/// One failed vector case, with enough context to reproduce it.
public struct CaseFailure: Sendable, Codable, Equatable {
    public var id: String
    public var input: String
    public var expected: String
    public var actual: String

    public init(id: String, input: String, expected: String, actual: String) {
        self.id = id
        self.input = input
        self.expected = expected
        self.actual = actual
    }
}

/// A case the runner did not check, and why.
public struct CaseSkip: Sendable, Codable, Equatable {
    public var id: String
    public var reason: String

    public init(id: String, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// The outcome of one suite.
public struct SuiteReport: Sendable, Codable, Equatable {
    public var suite: String
    public var passed = 0
    public var failed = 0
    public var skipped = 0
    /// Ids of the cases that passed, in run order (one JUnit test case each).
    public var passes: [String] = []
    public var failures: [CaseFailure] = []
    public var skips: [CaseSkip] = []
    /// Failures that a known-disagreements list expects (counted in `failed`, listed in `failures` too).
    public var expectedFailureIDs: Set<String> = []

    public init(suite: String) { self.suite = suite }

    public mutating func pass(_ id: String) {
        passed += 1
        passes.append(id)
    }

    public mutating func fail(_ id: String, input: String, expected: String, actual: String) {
        failed += 1
        failures.append(CaseFailure(id: id, input: input, expected: expected, actual: actual))
    }

    public mutating func skip(_ id: String, reason: String) {
        skipped += 1
        skips.append(CaseSkip(id: id, reason: reason))
    }

    /// Records a pass when `actual == expected`, otherwise a failure.
    public mutating func check(_ id: String, input: String, expected: String, actual: String) {
        if actual == expected { pass(id) } else { fail(id, input: input, expected: expected, actual: actual) }
    }

    public mutating func merge(_ other: SuiteReport) {
        passed += other.passed
        failed += other.failed
        skipped += other.skipped
        passes += other.passes
        failures += other.failures
        skips += other.skips
        expectedFailureIDs.formUnion(other.expectedFailureIDs)
    }
}

/// A named set of official vectors checked against Sandnet's modules.
public protocol VectorSuite: Sendable {
    /// The name used by `sandnet vectors --suite NAME`.
    var name: String { get }
    /// Runs every case. A file that cannot be loaded is reported as one failed case, never thrown away.
    func run(_ store: VectorStore) -> SuiteReport
}

/// The registry of suites and the entry point the CLI and the tests share.
public enum VectorRunner {
    /// Every suite, in report order.
    public static let suites: [any VectorSuite] = [
        RLPSuite(), EIP55Suite(), EIP155Suite(), BIP39Suite(), BIP32Suite(), KeystoreSuite(), TransactionSuite(),
        CandidSuite(), CandidParserSuite(), ICPSuite(),
    ]

    public static var suiteNames: [String] { suites.map(\.name) }

    /// Runs the named suites (all when `names` is empty). Unknown names are a programmer/user error the
    /// caller checks first with ``suiteNames``.
    public static func run(_ names: [String], store: VectorStore) -> [SuiteReport] {
        // Requested suites run in the order they were named; all suites in registry order otherwise.
        let selected = names.isEmpty ? suites : names.compactMap { name in suites.first { $0.name == name } }
        return selected.map { $0.run(store) }
    }
}
