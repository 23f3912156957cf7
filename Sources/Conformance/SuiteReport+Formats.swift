import JSONCoding
import JUnitReporting

extension SuiteReport {
    /// One JSON line: `{"suite": "rlp", "passed": 54, "failed": 0, "skipped": 0}`, keys in that order, then
    /// `"implementation"` when one is named (an adapter) and `"failures"` (id, input, expected, actual, and
    /// `"known": true` for an expected disagreement) when a case failed.
    public func jsonLine(implementation: String? = nil) -> String {
        var line =
            "{\"suite\": \(JSON.string(suite).jsonText), \"passed\": \(passed), \"failed\": \(failed), "
            + "\"skipped\": \(skipped)"
        if let implementation { line += ", \"implementation\": \(JSON.string(implementation).jsonText)" }
        if !failures.isEmpty {
            let records = failures.map { failure -> JSON in
                var fields: [String: JSON] = [
                    "id": .string(failure.id), "input": .string(failure.input), "expected": .string(failure.expected),
                    "actual": .string(failure.actual),
                ]
                if expectedFailureIDs.contains(failure.id) { fields["known"] = .bool(true) }
                return .sortedObject(fields)
            }
            line += ", \"failures\": \(JSON.array(records).jsonText)"
        }
        return line + "}"
    }
}

/// JUnit XML for vector reports: one `<testsuite>` per suite and one `<testcase>` per vector case, failures with
/// a message and the input, expected and actual values, skips with their reason (written by ``JUnitDocument``).
public enum JUnitReport {
    /// Renders the reports of one implementation (`sandnet`, or an adapter's label).
    public static func render(_ reports: [SuiteReport], implementation: String) -> String {
        let prefix = implementation == "sandnet" ? "sandnet" : "adapter"
        let suites = reports.map { report in
            let classname = "\(prefix).\(report.suite)"
            var cases = report.passes.map { JUnitDocument.Case(name: $0, classname: classname, outcome: .passed) }
            for failure in report.failures {
                let known = report.expectedFailureIDs.contains(failure.id) ? " (known disagreement)" : ""
                let message = "expected \(failure.expected), got \(failure.actual)\(known)"
                let detail = "input:    \(failure.input)\nexpected: \(failure.expected)\nactual:   \(failure.actual)"
                cases.append(
                    .init(
                        name: failure.id, classname: classname,
                        outcome: .failed(message: String(message.prefix(500)), detail: detail)))
            }
            for skip in report.skips {
                cases.append(.init(name: skip.id, classname: classname, outcome: .skipped(reason: skip.reason)))
            }
            return JUnitDocument.Suite(
                name: report.suite, properties: [("implementation", implementation)], cases: cases)
        }
        return JUnitDocument(name: "sandnet vectors (\(implementation))", suites: suites).xml
    }
}
