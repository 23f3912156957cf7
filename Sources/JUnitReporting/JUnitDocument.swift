/// A JUnit XML report (the schema CI dashboards read: Jenkins, GitLab, GitHub test reporters): test suites of test
/// cases, each passed, failed with a message and detail, or skipped with a reason. The one JUnit writer of the
/// package: the vector report (`sandnet vectors --junit`) and the scenario report (`sandnet scenario run --junit`).
public struct JUnitDocument: Sendable, Equatable {
    public struct Suite: Sendable, Equatable {
        public var name: String
        /// `<properties>`: name and value pairs, in order.
        public var properties: [(name: String, value: String)]
        public var cases: [Case]
        /// Seconds, as written (`"1.250"`), or nil.
        public var time: String?

        public init(name: String, properties: [(name: String, value: String)] = [], cases: [Case], time: String? = nil)
        {
            self.name = name
            self.properties = properties
            self.cases = cases
            self.time = time
        }

        public var failures: Int { cases.count { if case .failed = $0.outcome { return true } else { return false } } }
        public var skipped: Int { cases.count { if case .skipped = $0.outcome { return true } else { return false } } }

        public static func == (a: Suite, b: Suite) -> Bool {
            a.name == b.name && a.cases == b.cases && a.time == b.time
                && a.properties.map(\.name) == b.properties.map(\.name)
                && a.properties.map(\.value) == b.properties.map(\.value)
        }
    }

    public struct Case: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            case passed
            /// `<failure message="…">detail</failure>`.
            case failed(message: String, detail: String)
            /// `<skipped message="…"/>`.
            case skipped(reason: String)
        }

        public var name: String
        public var classname: String
        public var time: String?
        public var outcome: Outcome

        public init(name: String, classname: String, time: String? = nil, outcome: Outcome) {
            self.name = name
            self.classname = classname
            self.time = time
            self.outcome = outcome
        }
    }

    public var name: String
    public var suites: [Suite]
    public var time: String?

    public init(name: String, suites: [Suite], time: String? = nil) {
        self.name = name
        self.suites = suites
        self.time = time
    }

    /// The document as XML 1.0 text.
    public var xml: String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let skipped = suites.reduce(0) { $0 + $1.skipped }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(Self.escape(name))\"" + Self.counts(tests, failures, skipped, time) + ">\n"
        for suite in suites {
            out += "  <testsuite name=\"\(Self.escape(suite.name))\""
            out += Self.counts(suite.cases.count, suite.failures, suite.skipped, suite.time) + ">\n"
            if !suite.properties.isEmpty {
                out += "    <properties>"
                for p in suite.properties {
                    out += "<property name=\"\(Self.escape(p.name))\" value=\"\(Self.escape(p.value))\"/>"
                }
                out += "</properties>\n"
            }
            for c in suite.cases {
                out += "    <testcase name=\"\(Self.escape(c.name))\" classname=\"\(Self.escape(c.classname))\""
                if let time = c.time { out += " time=\"\(time)\"" }
                switch c.outcome {
                case .passed:
                    out += "/>\n"
                case .failed(let message, let detail):
                    out += ">\n      <failure message=\"\(Self.escape(message))\">\(Self.escape(detail))</failure>\n"
                    out += "    </testcase>\n"
                case .skipped(let reason):
                    out += ">\n      <skipped message=\"\(Self.escape(reason))\"/>\n    </testcase>\n"
                }
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func counts(_ tests: Int, _ failures: Int, _ skipped: Int, _ time: String?) -> String {
        " tests=\"\(tests)\" failures=\"\(failures)\" skipped=\"\(skipped)\" errors=\"0\""
            + (time.map { " time=\"\($0)\"" } ?? "")
    }

    /// XML text and attribute escaping; characters XML 1.0 cannot carry become `\u{…}`.
    public static func escape(_ text: String) -> String {
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
