import Conformance
import Testing

/// Runs each official dfinity/candid `.test.did` file and checks the exact assertion counts.
struct ConformanceSuiteTests {
    static let expectedCounts: [(file: String, count: Int)] = [
        ("prim", 168), ("construct", 164), ("reference", 50), ("subtypes", 58), ("spacebomb", 17), ("overshoot", 10),
    ]

    @Test(arguments: expectedCounts.map(\.file))
    func officialSuite(file: String) throws {
        guard let root = VectorDirectory.path else {
            Issue.record(Comment(rawValue: VectorDirectory.notFoundMessage))
            return
        }
        let expected = try #require(Self.expectedCounts.first { $0.file == file }?.count)
        let outcome = try CandidTestSuite.run(fileAt: "\(root)/candid/\(file).test.did")
        for failure in outcome.failures { Issue.record(Comment(rawValue: failure.description)) }
        #expect(outcome.failed == 0)
        #expect(outcome.skipped == 0)
        #expect(outcome.passed == expected)
    }

    @Test func headerCommentAssertsAreIgnored() throws {
        let source = """
            /* assert blob "DIDL" : (nat) "not a test"; */
            // assert blob "DIDL" : (nat);
            assert blob "DIDL\\00\\01\\7d\\2a" == "(42)" : (nat) "real";
            """
        let outcome = try CandidTestSuite.run(source: source, name: "inline")
        #expect(outcome.passed == 1)
        #expect(outcome.failed == 0)
    }

    @Test func failingAssertionIsReportedWithFileAndLine() throws {
        let source = """
            type T = nat;

            assert blob "DIDL\\00\\01\\7d\\2a" == "(43)" : (T) "wrong";
            """
        let outcome = try CandidTestSuite.run(source: source, name: "inline")
        #expect(outcome.failed == 1)
        #expect(outcome.failures.first?.id == "inline:3")
    }
}
