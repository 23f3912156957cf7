import Conformance
import Foundation

/// Locates the official vectors for tests, relative to the package root (found from this file's path)
/// so that `swift test` works from any directory. Missing vectors are an error, never a skip.
public enum TestVectors {
    public static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    public static func store() throws -> VectorStore {
        let root = packageRoot
        let fm = FileManager.default
        var candidates = [root + "/Vectors/official"]
        if let env = ProcessInfo.processInfo.environment["SANDNET_VECTORS"], !env.isEmpty { candidates.append(env) }
        candidates.append(root + "/../shared/vectors")
        for dir in candidates where fm.fileExists(atPath: dir + "/rlp/rlptest.json") {
            return VectorStore(root: dir)
        }
        throw VectorStore.NotFound(searched: candidates)
    }

    /// Runs one suite and returns its report.
    public static func run(_ suite: String) throws -> SuiteReport {
        let reports = VectorRunner.run([suite], store: try store())
        guard let report = reports.first else { throw VectorStore.NotFound(searched: ["suite \(suite)"]) }
        return report
    }
}
