import JSONCoding
import JSONRPC
import JUnitReporting

/// Reports of a suite run: counts, JUnit XML for CI dashboards, JSON for tools.
public struct ScenarioReport: Sendable {
    public var results: [ScenarioResult]
    public var seed: UInt64
    public var seconds: Double

    public init(results: [ScenarioResult], seed: UInt64, seconds: Double) {
        self.results = results
        self.seed = seed
        self.seconds = seconds
    }

    public var passed: Int { results.count { $0.status == .passed } }
    public var failed: Int { results.count { $0.status == .failed } }
    public var skipped: Int { results.count { $0.status == .skipped } }

    /// "N passed, N failed, N skipped" (the closing line CI reads).
    public var summary: String { "\(passed) passed, \(failed) failed, \(skipped) skipped" }

    /// JUnit XML: one `<testcase>` per scenario, `<failure>` with the step, expected and actual,
    /// `<skipped>` with the reason (written by ``JUnitDocument``).
    public var junitXML: String {
        let cases = results.map { result in
            let outcome: JUnitDocument.Case.Outcome
            switch result.status {
            case .passed, .notRun: outcome = .passed
            case .failed:
                let step = result.failedStep
                let headline =
                    step.map { "\($0.title): \($0.failures.first?.message ?? "failed")" } ?? result.message ?? "failed"
                outcome = .failed(message: headline, detail: result.failureReport)
            case .skipped: outcome = .skipped(reason: result.message ?? "skipped")
            }
            return JUnitDocument.Case(
                name: result.name, classname: result.file, time: Self.seconds(result.seconds), outcome: outcome)
        }
        let time = Self.seconds(seconds)
        let suite = JUnitDocument.Suite(
            name: "scenarios", properties: [("seed", String(seed))], cases: cases, time: time)
        return JUnitDocument(name: "sandnet scenarios", suites: [suite], time: time).xml
    }

    /// The whole run as JSON.
    public var json: JSON {
        .object([
            ("seed", .int(seed)), ("passed", .int(passed)), ("failed", .int(failed)), ("skipped", .int(skipped)),
            ("seconds", .number(Self.seconds(seconds))),
            ("scenarios", .array(results.map(Self.json))),
        ])
    }

    static func json(_ result: ScenarioResult) -> JSON {
        var members: [(String, JSON)] = [
            ("name", .string(result.name)), ("file", .string(result.file)), ("status", .string(result.status.rawValue)),
            ("backend", .string(result.backend)), ("seconds", .number(seconds(result.seconds))),
        ]
        if let message = result.message { members.append(("message", .string(message))) }
        members.append(
            (
                "steps",
                .array(
                    result.steps.map { step in
                        var s: [(String, JSON)] = [
                            ("index", .int(step.index + 1)), ("title", .string(step.title)),
                            ("location", .string(step.location.description)), ("status", .string(step.status.rawValue)),
                            ("seconds", .number(seconds(step.seconds))),
                        ]
                        if let hash = step.transactionHash { s.append(("transactionHash", .string(hash))) }
                        if let reason = step.skipReason { s.append(("skipReason", .string(reason))) }
                        if !step.failures.isEmpty {
                            s.append(
                                (
                                    "failures",
                                    .array(
                                        step.failures.map { f in
                                            var m: [(String, JSON)] = [("message", .string(f.message))]
                                            if let e = f.expected { m.append(("expected", .string(e))) }
                                            if let a = f.actual { m.append(("actual", .string(a))) }
                                            if let t = f.transactionHash { m.append(("transactionHash", .string(t))) }
                                            if let l = f.location { m.append(("location", .string(l.description))) }
                                            return .object(m)
                                        })
                                ))
                        }
                        return .object(s)
                    })
            ))
        return .object(members)
    }

    static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
