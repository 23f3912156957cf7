import EthereumNode
import Foundation
import JSONCoding
import JSONRPC

/// How a suite runs.
public struct ScenarioRunOptions: Sendable {
    /// An external JSON-RPC endpoint; nil runs each scenario on its own fresh in-process node.
    public var rpcURL: URL?
    /// Scenarios run at once (in-process only; an external node is shared, so its scenarios run one by one).
    public var jobs: Int
    /// Seed for random accounts, keystore salts and ids.
    public var seed: UInt64

    public init(rpcURL: URL? = nil, jobs: Int = 1, seed: UInt64 = 0) {
        self.rpcURL = rpcURL
        self.jobs = max(1, jobs)
        self.seed = seed
    }
}

/// Progress of a suite, for live displays.
public enum ScenarioEvent: Sendable {
    case started(index: Int, name: String)
    case finished(index: Int, result: ScenarioResult)
}

/// Loads and runs scenario files.
public enum ScenarioSuite {
    /// The scenario files under `paths`: files as given, directories searched recursively for `.yaml` and
    /// `.yml`, sorted.
    public static func files(in paths: [String]) throws(ScenarioFormatError) -> [String] {
        var out: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ScenarioFormatError(
                    "no such file or directory", at: SourceLocation(file: path, line: 1, column: 1))
            }
            if !isDirectory.boolValue {
                out.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted()
                .map { base + "/" + $0 }
            out += found
        }
        return out
    }

    /// Parses every file; all format errors are collected so one run shows them all.
    public static func load(_ files: [String]) -> (scenarios: [Scenario], errors: [ScenarioFormatError]) {
        var scenarios: [Scenario] = []
        var errors: [ScenarioFormatError] = []
        for file in files {
            do {
                scenarios.append(try ScenarioParser.parse(file: file))
            } catch {
                errors.append(error)
            }
        }
        return (scenarios, errors)
    }

    /// Runs scenarios, `options.jobs` at a time in-process, reporting progress; results keep input order.
    public static func run(
        _ scenarios: [Scenario], options: ScenarioRunOptions,
        progress: @escaping @Sendable (ScenarioEvent) -> Void = { _ in }
    ) async -> [ScenarioResult] {
        let jobs = options.rpcURL == nil ? options.jobs : 1
        let shared: (any ScenarioBackend)? = options.rpcURL.map { HTTPBackend(url: $0) }
        return await withTaskGroup(of: (Int, ScenarioResult).self) { group in
            var results = [ScenarioResult?](repeating: nil, count: scenarios.count)
            var next = 0
            func start(_ group: inout TaskGroup<(Int, ScenarioResult)>) {
                let index = next
                let scenario = scenarios[index]
                next += 1
                group.addTask {
                    progress(.started(index: index, name: scenario.name))
                    let result = await run(scenario, options: options, shared: shared)
                    progress(.finished(index: index, result: result))
                    return (index, result)
                }
            }
            while next < min(jobs, scenarios.count) { start(&group) }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < scenarios.count { start(&group) }
            }
            return results.map { $0! }
        }
    }

    /// Runs one scenario: on a fresh in-process node, or on `shared`, a node other scenarios use too (inside a
    /// snapshot when it has `evm_snapshot`).
    public static func run(
        _ scenario: Scenario, options: ScenarioRunOptions, shared: (any ScenarioBackend)? = nil
    ) async -> ScenarioResult {
        let started = DispatchTime.now().uptimeNanoseconds
        func finish(_ status: ScenarioStatus, _ steps: [StepResult], _ message: String?, _ label: String)
            -> ScenarioResult
        {
            ScenarioResult(
                name: scenario.name, file: scenario.file, status: status, steps: steps, message: message,
                seconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, backend: label)
        }
        let backend: any ScenarioBackend
        if let shared {
            backend = shared
        } else {
            do {
                backend = try InProcessBackend(configuration: .forScenario(scenario.node))
            } catch {
                return finish(.failed, [], "cannot start the in-process node: \(error)", "in-process")
            }
        }
        // On a shared node, keep each scenario's changes to itself: the chains inside a snapshot (on Sandnet the
        // ICP ledger too), and the mining settings, which snapshots do not hold, read before and put back after,
        // whether the scenario passed or failed.
        guard shared != nil else {
            return await execute(scenario, on: backend, shared: false, options: options, finish: finish)
        }
        let mining = await MiningSettings.read(from: backend)
        let snapshot = try? await backend.call("evm_snapshot", [])
        var result = await execute(scenario, on: backend, shared: true, options: options, finish: finish)
        var problems: [String] = []
        if let snapshot {
            do {
                let reverted = try await backend.call("evm_revert", [snapshot])
                if reverted.boolValue != true {
                    problems.append("evm_revert(\(snapshot.serialized)) returned \(reverted.serialized)")
                }
            } catch {
                problems.append("evm_revert(\(snapshot.serialized)) failed: \(ScenarioExecution.describe(error))")
            }
        }
        if let mining {
            do { try await mining.restore(on: backend) } catch {
                problems.append("cannot restore the mining settings (\(mining)): \(ScenarioExecution.describe(error))")
            }
        }
        if !problems.isEmpty {
            // Later scenarios would see this one's changes: a failure of this scenario, not of theirs.
            result.status = .failed
            let text = "isolation on \(backend.label) failed: " + problems.joined(separator: "; ")
            result.message = result.message.map { $0 + "; " + text } ?? text
        }
        return result
    }

    static func execute(
        _ scenario: Scenario, on backend: any ScenarioBackend, shared: Bool, options: ScenarioRunOptions,
        finish: (ScenarioStatus, [StepResult], String?, String) -> ScenarioResult
    ) async -> ScenarioResult {
        let execution = ScenarioExecution(scenario: scenario, backend: backend, seed: options.seed)
        do {
            if shared, let mismatch = try await execution.unmetNodeSettings() {
                return finish(.skipped, [], mismatch, backend.label)
            }
            try await execution.prepare()
            try await execution.recordBaselines(before: nil)
        } catch let skip as StepSkip {
            return finish(.skipped, [], skip.reason, backend.label)
        } catch {
            return finish(
                .failed, [], "setting up accounts failed: \(ScenarioExecution.describe(error))", backend.label)
        }
        let steps = await execution.run()
        let status: ScenarioStatus =
            steps.contains { $0.status == .failed }
            ? .failed : steps.contains { $0.status == .skipped } ? .skipped : .passed
        let message = steps.first { $0.status == .skipped }?.skipReason
        return finish(status, steps, message, backend.label)
    }
}

/// A node's mining settings, which `evm_snapshot` does not hold (on Anvil and Sandnet alike): automine on or off,
/// or interval mining every `interval` seconds.
struct MiningSettings: Sendable, CustomStringConvertible {
    var automine: Bool
    /// Seconds between blocks when interval mining (`anvil_getIntervalMining`), else nil.
    var interval: UInt64?

    /// The node's settings, or nil when it cannot tell (no `anvil_getAutomine`: then no step can change them either,
    /// as every mining step needs the `evm_`/`anvil_` methods).
    static func read(from backend: any ScenarioBackend) async -> MiningSettings? {
        guard let automine = (try? await backend.call("anvil_getAutomine", []))?.boolValue else { return nil }
        var interval: UInt64?
        if let value = try? await backend.call("anvil_getIntervalMining", []) {
            let seconds: UInt64?
            switch value {
            case .string(let text) where text.hasPrefix("0x"): seconds = UInt64(text.dropFirst(2), radix: 16)
            case .number(let text): seconds = UInt64(text)
            default: seconds = nil
            }
            if let seconds, seconds > 0 { interval = seconds }
        }
        return MiningSettings(automine: automine, interval: interval)
    }

    func restore(on backend: any ScenarioBackend) async throws {
        if let interval {
            _ = try await backend.call("evm_setIntervalMining", [.string("0x" + String(interval, radix: 16))])
        } else {
            _ = try await backend.call("evm_setAutomine", [.bool(automine)])
        }
    }

    var description: String {
        interval.map { "interval mining every \($0) s" } ?? (automine ? "automine on" : "automine off")
    }
}
