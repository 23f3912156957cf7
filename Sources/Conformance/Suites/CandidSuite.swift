/// The dfinity/candid official test suite (`candid/*.test.did`): all assertions of prim, construct,
/// reference, subtypes, spacebomb and overshoot through ``CandidTestSuite``.
public struct CandidSuite: VectorSuite {
    public let name = "candid"
    static let files = ["prim", "construct", "reference", "subtypes", "spacebomb", "overshoot"]

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        for file in Self.files {
            let relative = "candid/\(file).test.did"
            do {
                let outcome = try CandidTestSuite.run(source: try store.text(relative), name: relative)
                report.passed += outcome.passed
                report.passes += outcome.passes
                report.skipped += outcome.skipped
                for failure in outcome.failures {
                    report.fail(failure.id, input: failure.input, expected: failure.expected, actual: failure.actual)
                }
                // Failures the runner counted without detail still count.
                report.failed += max(0, outcome.failed - outcome.failures.count)
            } catch {
                report.fail(relative, input: store.path(relative), expected: "a readable test file", actual: "\(error)")
            }
        }
        return report
    }
}
