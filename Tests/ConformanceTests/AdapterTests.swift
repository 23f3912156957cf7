import Conformance
import Foundation
import JSONCoding
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Counts the elements of an XML document; parsing fails on anything that is not well-formed.
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var failureMessages: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        counts[name, default: 0] += 1
        if name == "failure" { failureMessages.append(attributes["message"] ?? "") }
    }

    static func count(_ xml: String) throws -> ElementCounter {
        let counter = ElementCounter()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = counter
        guard parser.parse() else { throw AdapterError("not well-formed: \(String(describing: parser.parserError))") }
        return counter
    }
}

@Suite struct ReportFormatTests {
    @Test func junitHasOneTestCasePerVectorCase() throws {
        let reports = VectorRunner.run(["rlp", "bip32", "transactions"], store: try TestVectors.store())
        let xml = JUnitReport.render(reports, implementation: "sandnet")
        let counter = try ElementCounter.count(xml)
        let total = reports.reduce(0) { $0 + $1.passed + $1.failed + $1.skipped }
        #expect(total == 54 + 33 + 139)
        #expect(counter.counts["testcase"] == total)
        #expect(counter.counts["testsuite"] == 3)
        #expect(counter.counts["skipped"] == 2)
        #expect(counter.counts["failure"] == nil)
    }

    @Test func junitCarriesFailuresWithTheirDetailAndEscapesXML() throws {
        var report = SuiteReport(suite: "rlp")
        report.pass("ok")
        report.fail("bad <case> & \"quotes\"", input: "\u{0}\u{1}<in>", expected: "0x80", actual: "0x00")
        report.skip("later", reason: "not modelled")
        let counter = try ElementCounter.count(JUnitReport.render([report], implementation: "adapter: x"))
        #expect(counter.counts["testcase"] == 3)
        #expect(counter.failureMessages == ["expected 0x80, got 0x00"])
    }

    @Test func jsonLineKeepsItsShapeAndAddsFailures() throws {
        var report = SuiteReport(suite: "rlp")
        report.pass("a")
        #expect(report.jsonLine() == "{\"suite\": \"rlp\", \"passed\": 1, \"failed\": 0, \"skipped\": 0}")
        report.fail("b", input: "in\"put", expected: "x", actual: "y")
        let parsed = try JSON.parse(report.jsonLine(implementation: "adapter: cmd"))
        #expect(parsed["implementation"] == .string("adapter: cmd"))
        // Members compared as a set (sorted keys): the report writes an object's keys in sorted order.
        #expect(
            parsed["failures"]?.sortedKeysText
                == JSON.array([
                    .object([
                        ("id", .string("b")), ("input", .string("in\"put")), ("expected", .string("x")),
                        ("actual", .string("y")),
                    ])
                ]).sortedKeysText)
    }
}

@Suite struct AdapterRunnerTests {
    /// Every adapter case built from the vectors, answered by Sandnet itself: the case builder and the native
    /// operations agree with the vectors (so a failure with a real adapter is the adapter's).
    @Test func sandnetPassesEveryAdapterCase() throws {
        let reports = try AdapterRunner.run([], store: try TestVectors.store(), endpoint: NativeAdapter())
        for report in reports {
            #expect(report.failed == 0, "\(report.suite): \(report.failures.prefix(3))")
        }
        let counts = Dictionary(uniqueKeysWithValues: reports.map { ($0.suite, [$0.passed, $0.skipped]) })
        #expect(counts["rlp"] == [82, 0])
        #expect(counts["eip55"] == [8, 0])
        #expect(counts["eip155"] == [3, 0])
        // Russian and Turkish are not official lists: the native operation knows only the ten official ones.
        #expect(counts["bip39"] == [888, 48])
        #expect(counts["bip32"] == [17, 16])
        #expect(counts["keystore"] == [5, 0])
        #expect(counts["icp"] == [18, 15])
        #expect((counts["transactions"]?[0] ?? 0) > 100)
        #expect((counts["candid"]?[0] ?? 0) > 200)
    }

    /// A deliberately wrong expectation fails with the case id, the request, the expectation and the answer.
    @Test func failureRecordsCarryIdInputExpectedAndActual() throws {
        let wrong = AdapterCase(
            id: "wrong-on-purpose", op: "rlp.encode", input: .object([("item", .string("0x01"))]),
            expectation: .fields(["encoded": .string("0x8101")]))
        let error = AdapterCase(
            id: "must-fail", op: "rlp.decode", input: .object([("encoded", .string("0x8100"))]),
            expectation: .fields([:])
        )
        let reports = try AdapterRunner.run(
            [AdapterCases.Suite(name: "rlp", cases: [wrong, error])], endpoint: NativeAdapter())
        #expect(reports[0].failed == 2)
        let first = try #require(reports[0].failures.first)
        #expect(first.id == "wrong-on-purpose")
        #expect(first.input == "rlp.encode {\"item\":\"0x01\"}")
        #expect(first.expected == "{\"encoded\":\"0x8101\"}")
        #expect(first.actual == "{\"encoded\":\"0x01\"}")
        #expect(reports[0].failures[1].actual.hasPrefix("error: "))
    }

    @Test func unsupportedOperationsAreSkipped() throws {
        let script = """
            read line; echo '{"id":1,"result":{"ops":["rlp.encode"]}}'
            while read line; do id=$(echo "$line" | sed 's/.*"id":\\([0-9]*\\).*/\\1/'); echo "{\\"id\\":$id,\\"unsupported\\":true}"; done
            """
        let adapter = try AdapterProcess(command: script, timeout: 300)
        defer { adapter.stop() }
        let reports = try AdapterRunner.run(["eip55", "rlp"], store: try TestVectors.store(), endpoint: adapter)
        #expect(reports[0].skipped == 8 && reports[0].passed == 0)
        #expect(reports[1].skipped == 82 && reports[1].failed == 0)
    }

    @Test func crashingAdapterIsAClearError() throws {
        let adapter = try AdapterProcess(command: "read line; exit 3", timeout: 300)
        defer { adapter.stop() }
        #expect {
            _ = try adapter.hello()
        } throws: { error in
            "\(error)".contains("adapter exited before answering request 1 (hello) (exit status 3)")
        }
    }

    @Test func garbageLineIsAClearError() throws {
        let adapter = try AdapterProcess(
            command: "read line; echo 'Traceback (most recent call last):'; exec sleep 600", timeout: 300)
        defer { adapter.stop() }
        #expect {
            _ = try adapter.hello()
        } throws: { error in
            "\(error)".contains("got a line that is not JSON: Traceback")
        }
    }

    @Test func hangingAdapterTimesOut() throws {
        // The timeout itself is what this test is about: the adapter never answers, so the outcome cannot depend on
        // the machine's speed. (No elapsed-time assertion: a verdict must not depend on load.)
        let adapter = try AdapterProcess(command: "exec sleep 600", timeout: 0.5)
        #expect {
            _ = try adapter.hello()
        } throws: { error in
            "\(error)".contains("no response to request 1 (hello) within 0.5 s")
        }
        adapter.stop()
    }

    @Test func wrongIdIsAClearError() throws {
        let adapter = try AdapterProcess(
            command: "read line; echo '{\"id\":9,\"result\":{}}'; exec sleep 600", timeout: 300)
        defer { adapter.stop() }
        #expect(throws: AdapterError.self) { _ = try adapter.hello() }
    }
}

@Suite struct DifferentialCheckTests {
    /// Sandnet against itself: the generators make valid cases and the comparison holds.
    @Test func sandnetAgreesWithItself() throws {
        let reports = try DifferentialCheck.run([], count: 60, seed: 42, endpoint: NativeAdapter())
        #expect(reports.count == 9)
        for report in reports {
            #expect(report.failed == 0, "\(report.suite): \(report.failures.prefix(2))")
            #expect(report.passed == 60)
        }
    }

    /// A case is reproduced by the seed and its index, whatever the count.
    @Test func casesAreReproducible() throws {
        let recorder = RecordingAdapter()
        _ = try DifferentialCheck.run(["rlp"], count: 5, seed: 7, endpoint: recorder)
        let first = recorder.requests
        recorder.requests = []
        _ = try DifferentialCheck.run(["rlp"], count: 3, seed: 7, endpoint: recorder)
        #expect(Array(first.prefix(3)) == recorder.requests.prefix(3).map { $0 })
        #expect(first.count == 10)
    }
}

final class RecordingAdapter: AdapterEndpoint {
    let label = "recorder"
    var requests: [JSON] = []
    let native = NativeAdapter()
    func hello() -> Set<String> { Set(AdapterOperation.all) }
    func call(_ op: String, _ input: JSON) -> AdapterResponse {
        requests.append(input)
        return native.call(op, input)
    }
}
