import JSONCoding

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
/// a message and the input, expected and actual values, skips with their reason.
public enum JUnitReport {
    /// Renders the reports of one implementation (`sandnet`, or an adapter's label).
    public static func render(_ reports: [SuiteReport], implementation: String) -> String {
        var body: [String] = []
        var totals = (tests: 0, failures: 0, skipped: 0)
        let prefix = implementation == "sandnet" ? "sandnet" : "adapter"
        for report in reports {
            let tests = report.passes.count + report.failures.count + report.skips.count
            totals.tests += tests
            totals.failures += report.failures.count
            totals.skipped += report.skips.count
            body.append(
                "  <testsuite name=\"\(escape(report.suite))\" tests=\"\(tests)\" failures=\"\(report.failures.count)\" "
                    + "errors=\"0\" skipped=\"\(report.skips.count)\">")
            body.append(
                "    <properties><property name=\"implementation\" value=\"\(escape(implementation))\"/></properties>")
            let classname = escape("\(prefix).\(report.suite)")
            for id in report.passes {
                body.append("    <testcase classname=\"\(classname)\" name=\"\(escape(id))\"/>")
            }
            for failure in report.failures {
                let known = report.expectedFailureIDs.contains(failure.id) ? " (known disagreement)" : ""
                let message = "expected \(failure.expected), got \(failure.actual)\(known)"
                body.append("    <testcase classname=\"\(classname)\" name=\"\(escape(failure.id))\">")
                body.append(
                    "      <failure message=\"\(escape(String(message.prefix(500))))\">"
                        + escape(
                            "input:    \(failure.input)\nexpected: \(failure.expected)\nactual:   \(failure.actual)")
                        + "</failure>")
                body.append("    </testcase>")
            }
            for skip in report.skips {
                body.append("    <testcase classname=\"\(classname)\" name=\"\(escape(skip.id))\">")
                body.append("      <skipped message=\"\(escape(skip.reason))\"/>")
                body.append("    </testcase>")
            }
            body.append("  </testsuite>")
        }
        let head = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"\(escape("sandnet vectors (\(implementation))"))\" tests=\"\(totals.tests)\" "
                + "failures=\"\(totals.failures)\" errors=\"0\" skipped=\"\(totals.skipped)\">",
        ]
        return (head + body + ["</testsuites>", ""]).joined(separator: "\n")
    }

    /// XML text and attribute escaping; characters XML 1.0 cannot carry become `\u{…}`.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
