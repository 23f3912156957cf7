import Foundation
import JSONCoding
import JSONRPC
import EthereumNode

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
            if let key = scenario.node.inProcessOnly.first {
                let at = scenario.node.locations[key].map { " (\($0))" } ?? ""
                return finish(
                    .skipped, [], "needs the in-process node: node.\(key)\(at) cannot be set on \(shared.label)",
                    shared.label)
            }
            backend = shared
        } else {
            do {
                backend = try InProcessBackend(configuration: .forScenario(scenario.node))
            } catch {
                return finish(.failed, [], "cannot start the in-process node: \(error)", "in-process")
            }
        }
        // On a shared node, keep each scenario's changes to itself when the node can snapshot.
        let snapshot = shared == nil ? nil : try? await backend.call("evm_snapshot", [])
        let result = await execute(scenario, on: backend, shared: shared != nil, options: options, finish: finish)
        if let snapshot { _ = try? await backend.call("evm_revert", [snapshot]) }
        return result
    }

    static func execute(
        _ scenario: Scenario, on backend: any ScenarioBackend, shared: Bool, options: ScenarioRunOptions,
        finish: (ScenarioStatus, [StepResult], String?, String) -> ScenarioResult
    ) async -> ScenarioResult {
        let execution = ScenarioExecution(scenario: scenario, backend: backend, seed: options.seed)
        do {
            if let wanted = scenario.node.chainID, shared {
                let actual = try await execution.chainID()
                if actual != wanted {
                    return finish(
                        .skipped, [], "needs chain id \(wanted); \(backend.label) has \(actual)", backend.label)
                }
            }
            try await execution.prepare()
            try await execution.recordBaselines(before: nil)
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
