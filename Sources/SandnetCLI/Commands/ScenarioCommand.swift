import ArgumentParser
import Foundation
import ScenarioRunner
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `sandnet scenario`: YAML wallet scenarios.
struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenario",
        abstract: "YAML wallet scenarios: end-to-end wallet flows, in-process or against any JSON-RPC node.",
        discussion: "The file format is documented in docs/scenarios.md.",
        subcommands: [Run.self])

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run scenario files (directories are searched for .yaml and .yml).",
            discussion: """
                Each scenario runs on its own fresh in-process chain, deterministic for a seed, unless --rpc-url \
                names an external node (Sandnet, Anvil, Hardhat, geth); there scenarios run one at a time, each \
                inside evm_snapshot/evm_revert when the node has them, and steps needing developer methods the \
                node lacks are reported as skipped. Exit status: 0 when nothing failed, 1 when a scenario \
                failed, 2 when a file is malformed (nothing runs then).
                """)

        @Argument(help: "Scenario files or directories.")
        var paths: [String]

        @Option(help: "Run against this JSON-RPC endpoint instead of in-process nodes.")
        var rpcUrl: String?

        @Option(help: "Scenarios run at once (in-process only).")
        var jobs = 1

        @Option(help: "Write a JUnit XML report to this file.")
        var junit: String?

        @Option(help: "Write a JSON report to this file.")
        var json: String?

        @Option(help: "Seed for random accounts and keystore salts.")
        var seed: UInt64 = 0

        @Option(
            help: ArgumentHelp(
                "Run only shard i of n (1-based): the i-th, (i+n)-th, … file in sorted order; for a CI matrix.",
                valueName: "i/n"))
        var shard: String?

        func validate() throws {
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
            if let shard {
                do { _ = try ScenarioShard(parsing: shard) } catch { throw ValidationError("--shard: \(error)") }
            }
        }

        func run() async throws {
            var url: URL?
            if let rpcUrl {
                guard let parsed = URL(string: rpcUrl), ["http", "https"].contains(parsed.scheme ?? "") else {
                    throw CLIError("--rpc-url must be an http:// or https:// URL, got '\(rpcUrl)'")
                }
                url = parsed
            }
            var files: [String]
            do { files = try ScenarioSuite.files(in: paths) } catch { throw CLIError("\(error)") }
            guard !files.isEmpty else {
                throw CLIError("no .yaml scenario files under \(paths.joined(separator: ", "))")
            }
            var shardNote = ""
            if let shard {
                let spec = try ScenarioShard(parsing: shard)
                files = spec.select(files)
                shardNote = ", shard \(spec)"
            }
            let (scenarios, errors) = ScenarioSuite.load(files)
            if !errors.isEmpty {
                for error in errors { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
                FileHandle.standardError.write(
                    Data("\(errors.count) malformed scenario file(s); nothing was run\n".utf8))
                throw ExitCode(2)
            }
            let options = ScenarioRunOptions(rpcURL: url, jobs: jobs, seed: seed)
            let display = ProgressDisplay(total: scenarios.count, live: isatty(STDOUT_FILENO) == 1)
            let started = DispatchTime.now().uptimeNanoseconds
            let results = await ScenarioSuite.run(scenarios, options: options) { display.handle($0) }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let report = ScenarioReport(results: results, seed: seed, seconds: seconds)
            display.finish()
            if let junit { try write(report.junitXML, to: junit) }
            if let json { try write(report.json.serialized + "\n", to: json) }
            let backend = url?.absoluteString ?? "in-process"
            print(
                "\(report.summary) (\(scenarios.count) scenarios\(shardNote), \(backend), seed \(seed), \(ScenarioReportFormat.seconds(seconds)) s)"
            )
            if report.failed > 0 { throw ExitCode(1) }
        }

        func write(_ text: String, to path: String) throws {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch {
                throw CLIError("cannot write \(path): \(error.localizedDescription)")
            }
        }
    }
}

enum ScenarioReportFormat {
    static func seconds(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// Prints progress: on a terminal a live status line (failures scroll above it), otherwise one plain line
/// per scenario.
final class ProgressDisplay: Sendable {
    struct State {
        var done = 0
        var passed = 0
        var failed = 0
        var skipped = 0
        var running: [Int: String] = [:]
    }

    let total: Int
    let live: Bool
    let state = Mutex(State())

    init(total: Int, live: Bool) {
        self.total = total
        self.live = live
    }

    func handle(_ event: ScenarioEvent) {
        state.withLock { state in
            switch event {
            case .started(let index, let name):
                state.running[index] = name
            case .finished(let index, let result):
                state.running[index] = nil
                state.done += 1
                switch result.status {
                case .passed: state.passed += 1
                case .failed: state.failed += 1
                case .skipped, .notRun: state.skipped += 1
                }
                if live { emit("\r\u{1B}[2K") }
                emit(Self.line(result))
            }
            if live {
                let running = state.running.values.sorted().first.map { " · \($0)" } ?? ""
                emit(
                    "\r\u{1B}[2K[\(state.done)/\(total)] \(state.passed) passed, \(state.failed) failed, \(state.skipped) skipped\(running)"
                )
            }
        }
    }

    func finish() {
        if live { emit("\r\u{1B}[2K") }
    }

    /// One scenario's line; failures add the report below it.
    static func line(_ result: ScenarioResult) -> String {
        let time = ScenarioReportFormat.seconds(result.seconds)
        switch result.status {
        case .passed:
            return "PASS \(result.file) — \(result.name) (\(result.steps.count) steps, \(time) s)\n"
        case .skipped, .notRun:
            let at = result.skippedStep.map { " at \($0.title)" } ?? ""
            return "SKIP \(result.file) — \(result.name)\(at): \(result.message ?? "skipped")\n"
        case .failed:
            return result.failureReport + "\n"
        }
    }

    private func emit(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
