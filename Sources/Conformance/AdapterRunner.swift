/// Runs the vector cases through an adapter and reports them like Sandnet's own suites.
public enum AdapterRunner {
    /// Runs the named suites' cases (all when empty) through `endpoint`.
    ///
    /// Operations the adapter does not list in `hello`, and requests it answers `unsupported`, are skipped.
    /// - Throws: `AdapterError` when the adapter breaks (crash, garbage, hang).
    public static func run(_ names: [String], store: VectorStore, endpoint: some AdapterEndpoint) throws(AdapterError)
        -> [SuiteReport]
    {
        try run(AdapterCases.build(names, store: store), endpoint: endpoint)
    }

    /// Runs prepared cases through `endpoint`.
    public static func run(_ suites: [AdapterCases.Suite], endpoint: some AdapterEndpoint) throws(AdapterError)
        -> [SuiteReport]
    {
        let supported = try endpoint.hello()
        var reports: [SuiteReport] = []
        for suite in suites {
            var report = SuiteReport(suite: suite.name)
            for failure in suite.loadFailures {
                report.fail(failure.id, input: failure.input, expected: failure.expected, actual: failure.actual)
            }
            for skip in suite.skips { report.skip(skip.id, reason: skip.reason) }
            for adapterCase in suite.cases {
                guard supported.contains(adapterCase.op) else {
                    report.skip(adapterCase.id, reason: "adapter does not support \(adapterCase.op)")
                    continue
                }
                let response = try endpoint.call(adapterCase.op, adapterCase.input)
                if case .unsupported(let reason) = response {
                    report.skip(adapterCase.id, reason: "\(adapterCase.op) unsupported: \(reason)")
                    continue
                }
                if let actual = adapterCase.judge(response) {
                    report.fail(
                        adapterCase.id, input: "\(adapterCase.op) \(adapterCase.input.jsonText)",
                        expected: adapterCase.expectedText, actual: actual)
                } else {
                    report.pass(adapterCase.id)
                }
            }
            reports.append(report)
        }
        return reports
    }
}
