import Conformance
import TestSupport
import Testing

/// The official suites through the same runner as `sandnet vectors`. Expected counts are exact, so a case
/// that silently disappears fails the test as surely as one that fails.
@Suite struct VectorSuiteTests {
    /// `transactions`: 139 tests, one (test, newest modelled fork) case each; the two ttSignature element-count
    /// tests carry results only up to London and are skipped.
    @Test(arguments: [
        ("rlp", 54, 0), ("eip55", 8, 0), ("bip39", 312, 0), ("bip32", 33, 0), ("keystore", 5, 0),
        ("transactions", 137, 2), ("eip155", 6, 0), ("candid", 467, 0), ("candid-parser", 31, 0), ("icp", 26, 0),
    ])
    func suitePasses(name: String, expectedPassed: Int, expectedSkipped: Int) throws {
        let report = try TestVectors.run(name)
        #expect(report.failed == 0, "\(report.failures.prefix(5))")
        #expect(report.skipped == expectedSkipped, "\(report.skips)")
        #expect(report.passed == expectedPassed)
    }

    @Test func missingVectorsAreAnErrorNamingThePlaces() {
        #expect(throws: VectorStore.NotFound.self) { try VectorStore.locate(explicit: "/nonexistent/vectors") }
        let message = "\(VectorStore.NotFound(searched: ["a", "b"]))"
        #expect(message.contains("a, b"))
    }
}
