import ArgumentParser
import Conformance
import Foundation

struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Run the official conformance vectors and report passed/failed/skipped per suite.",
        discussion: """
            Vectors are read from --vectors DIR, else Vectors/official/, else $SANDNET_VECTORS, else \
            ../shared/vectors. Exit status is non-zero when any case fails or no vectors are found.
            """)

    @Option(name: .customLong("suite"), help: "Suite to run (repeatable); all when omitted.")
    var suites: [String] = []

    @Option(name: .customLong("vectors"), help: "Directory holding the vector files.")
    var directory: String?

    @Flag(help: "One JSON object per suite and line instead of a table.")
    var json = false

    @Flag(help: "Show every failure (the table shows the first 10 per suite).")
    var verbose = false

    func validate() throws {
        let known = VectorRunner.suiteNames
        for name in suites where !known.contains(name) {
            throw ValidationError("unknown suite '\(name)'; known suites: \(known.joined(separator: ", "))")
        }
    }

    func run() throws {
        let store: VectorStore
        do { store = try VectorStore.locate(explicit: directory) } catch { throw CLIError("\(error)") }
        let reports = VectorRunner.run(suites, store: store)
        if json {
            for report in reports {
                print(Self.jsonLine(report))
            }
        } else {
            print(VectorReportTable.render(reports, root: store.root, verbose: verbose))
        }
        if reports.contains(where: { $0.failed > 0 }) { throw ExitCode(1) }
    }

    /// `{"suite": "rlp", "passed": 54, "failed": 0, "skipped": 0}`, keys in that order.
    static func jsonLine(_ report: SuiteReport) -> String {
        "{\"suite\": \"\(report.suite)\", \"passed\": \(report.passed), \"failed\": \(report.failed), "
            + "\"skipped\": \(report.skipped)}"
    }
}

enum VectorReportTable {
    static func render(_ reports: [SuiteReport], root: String, verbose: Bool) -> String {
        var lines = ["vectors: \(root)", ""]
        lines.append(pad("suite", 14) + pad("passed", 8) + pad("failed", 8) + "skipped")
        for r in reports {
            lines.append(pad(r.suite, 14) + pad(String(r.passed), 8) + pad(String(r.failed), 8) + String(r.skipped))
        }
        let total = reports.reduce(into: (0, 0, 0)) { $0 = ($0.0 + $1.passed, $0.1 + $1.failed, $0.2 + $1.skipped) }
        lines.append(pad("total", 14) + pad(String(total.0), 8) + pad(String(total.1), 8) + String(total.2))
        for r in reports where r.failed > 0 {
            lines.append("")
            lines.append("\(r.suite): \(r.failed) failed")
            for f in (verbose ? r.failures : Array(r.failures.prefix(10))) {
                lines.append("  ✘ \(f.id)")
                lines.append("    input:    \(f.input)")
                lines.append("    expected: \(f.expected)")
                lines.append("    actual:   \(f.actual)")
            }
        }
        for r in reports where r.skipped > 0 {
            lines.append("")
            lines.append("\(r.suite): \(r.skipped) skipped")
            var reasons: [String: Int] = [:]
            for s in r.skips { reasons[s.reason, default: 0] += 1 }
            for (reason, count) in reasons.sorted(by: { $0.value > $1.value }) { lines.append("  \(count)× \(reason)") }
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
