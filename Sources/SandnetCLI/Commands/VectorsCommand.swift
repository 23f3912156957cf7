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

    @Option(name: .customLong("junit"), help: "Also write a JUnit XML report (one test case per vector case) to FILE.")
    var junitFile: String?

    @Option(
        help: "Check an external implementation: start CMD (via /bin/sh -c) and talk JSON lines (docs/adapters.md).")
    var adapter: String?

    @Option(help: "Seconds to wait for each adapter response.")
    var timeout: Double = 10

    @Option(
        name: .customLong("known-failures"),
        help:
            "File of case ids (one per line, # comments) the adapter is known to get wrong; exit 0 when exactly those fail."
    )
    var knownFailuresFile: String?

    @Option(
        help: "With --adapter: instead of the vectors, compare N random cases per operation with Sandnet's answers.")
    var differential: Int?

    @Option(help: "Seed for --differential (a case is reproduced by the seed and its index).")
    var seed: UInt64 = 1

    func validate() throws {
        let known = VectorRunner.suiteNames
        for name in suites where !known.contains(name) {
            throw ValidationError("unknown suite '\(name)'; known suites: \(known.joined(separator: ", "))")
        }
        if differential != nil, adapter == nil { throw ValidationError("--differential needs --adapter CMD") }
        if let differential, differential < 1 { throw ValidationError("--differential needs a positive count") }
        if knownFailuresFile != nil, adapter == nil { throw ValidationError("--known-failures needs --adapter CMD") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive") }
    }

    func run() throws {
        var known: Set<String> = []
        if let knownFailuresFile {
            guard let data = FileManager.default.contents(atPath: knownFailuresFile) else {
                throw CLIError("cannot read \(knownFailuresFile)")
            }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                let id = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    .trimmingCharacters(in: .whitespaces)
                if !id.isEmpty { known.insert(id) }
            }
        }
        var reports: [SuiteReport]
        let implementation: String
        var root = ""
        if let adapter {
            let process: AdapterProcess
            do { process = try AdapterProcess(command: adapter, timeout: timeout) } catch { throw CLIError("\(error)") }
            defer { process.stop() }
            implementation = process.label
            do {
                if let differential {
                    reports = try DifferentialCheck.run(suites, count: differential, seed: seed, endpoint: process)
                    root = "differential: \(differential) cases per operation, seed \(seed)"
                } else {
                    let store: VectorStore
                    do { store = try VectorStore.locate(explicit: directory) } catch { throw CLIError("\(error)") }
                    root = store.root
                    reports = try AdapterRunner.run(suites, store: store, endpoint: process)
                }
            } catch let error as AdapterError {
                throw CLIError("\(error)")
            }
        } else {
            let store: VectorStore
            do { store = try VectorStore.locate(explicit: directory) } catch { throw CLIError("\(error)") }
            root = store.root
            implementation = "sandnet"
            reports = VectorRunner.run(suites, store: store)
        }
        for index in reports.indices {
            reports[index].expectedFailureIDs = known.intersection(reports[index].failures.map(\.id))
        }
        let unexpectedPasses = known.subtracting(reports.flatMap { $0.failures.map(\.id) })
        if let junitFile {
            let xml = JUnitReport.render(reports, implementation: implementation)
            guard FileManager.default.createFile(atPath: junitFile, contents: Data(xml.utf8)) else {
                throw CLIError("cannot write \(junitFile)")
            }
        }
        if json {
            for report in reports {
                print(report.jsonLine(implementation: adapter == nil ? nil : implementation))
            }
        } else {
            print(
                VectorReportTable.render(
                    reports, root: root, implementation: implementation, verbose: verbose,
                    unexpectedPasses: unexpectedPasses.sorted()))
        }
        let unexpected =
            reports.contains { report in report.failures.contains { !known.contains($0.id) } }
            || reports.contains { $0.failed > $0.failures.count }
        if unexpected || (!known.isEmpty && !unexpectedPasses.isEmpty) { throw ExitCode(1) }
    }
}

enum VectorReportTable {
    static func render(
        _ reports: [SuiteReport], root: String, implementation: String = "sandnet", verbose: Bool,
        unexpectedPasses: [String] = []
    ) -> String {
        var lines = ["vectors: \(root)"]
        if implementation != "sandnet" { lines.append("implementation: \(implementation)") }
        lines.append("")
        let width = max(14, (reports.map(\.suite.count).max() ?? 0) + 2)
        let knownColumn = reports.contains { !$0.expectedFailureIDs.isEmpty }
        lines.append(
            pad("suite", width) + pad("passed", 8) + pad("failed", 8)
                + (knownColumn ? pad("skipped", 9) + "known" : "skipped"))
        for r in reports {
            lines.append(
                pad(r.suite, width) + pad(String(r.passed), 8) + pad(String(r.failed), 8)
                    + (knownColumn ? pad(String(r.skipped), 9) + String(r.expectedFailureIDs.count) : String(r.skipped))
            )
        }
        let total = reports.reduce(into: (0, 0, 0)) { $0 = ($0.0 + $1.passed, $0.1 + $1.failed, $0.2 + $1.skipped) }
        let totalKnown = reports.reduce(0) { $0 + $1.expectedFailureIDs.count }
        lines.append(
            pad("total", width) + pad(String(total.0), 8) + pad(String(total.1), 8)
                + (knownColumn ? pad(String(total.2), 9) + String(totalKnown) : String(total.2)))
        if !unexpectedPasses.isEmpty {
            lines.append("")
            lines.append("known failures that did not fail (remove them from the list): \(unexpectedPasses.count)")
            for id in unexpectedPasses { lines.append("  ✔ \(id)") }
        }
        for r in reports where r.failed > 0 {
            lines.append("")
            let knownCount = r.expectedFailureIDs.count
            lines.append("\(r.suite): \(r.failed) failed" + (knownCount > 0 ? " (\(knownCount) known)" : ""))
            for f in (verbose ? r.failures : Array(r.failures.prefix(10))) {
                lines.append("  ✘ \(f.id)" + (r.expectedFailureIDs.contains(f.id) ? " (known)" : ""))
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
            for (reason, count) in reasons.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                lines.append("  \(count)× \(reason)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
