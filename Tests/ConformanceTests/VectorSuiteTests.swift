import Conformance
import TestSupport
import Testing

/// The official suites through the same runner as `sandnet vectors`. Expected counts are exact, so a case
/// that silently disappears fails the test as surely as one that fails.
@Suite struct VectorSuiteTests {
    @Test(arguments: [("rlp", 54), ("eip55", 8), ("bip39", 312), ("bip32", 33), ("keystore", 5)])
    func suitePasses(name: String, expectedPassed: Int) throws {
        let report = try TestVectors.run(name)
        #expect(report.failed == 0, "\(report.failures.prefix(5))")
        #expect(report.skipped == 0)
        #expect(report.passed == expectedPassed)
    }

    @Test func missingVectorsAreAnErrorNamingThePlaces() {
        #expect(throws: VectorStore.NotFound.self) { try VectorStore.locate(explicit: "/nonexistent/vectors") }
        let message = "\(VectorStore.NotFound(searched: ["a", "b"]))"
        #expect(message.contains("a, b"))
    }
}
