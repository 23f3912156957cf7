import CandidCoding
import Foundation

/// dfinity/candid's `.did` parser tests (`candid-parser/`, from `rust/candid_parser/tests/assets`): each top-level
/// input is loaded with its imports and checked; `ok/<name>.did` holds the expected pretty-printed program,
/// `ok/<name>.fail` the expected error text (both as the Rust test writes them, with a final newline).
public struct CandidParserSuite: VectorSuite {
    public let name = "candid-parser"
    static let directory = "candid-parser"

    public init() {}

    /// The input files, sorted.
    static func inputs(_ store: VectorStore) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: store.path(directory))) ?? []
        return entries.filter { $0.hasSuffix(".did") }.sorted()
    }

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        let inputs = Self.inputs(store)
        if inputs.isEmpty {
            report.fail(Self.directory, input: store.path(Self.directory), expected: "31 .did inputs", actual: "none")
        }
        for input in inputs {
            let stem = String(input.dropLast(4))
            let okPath = "\(Self.directory)/ok/\(stem).did"
            let failPath = "\(Self.directory)/ok/\(stem).fail"
            let expectsSuccess = FileManager.default.fileExists(atPath: store.path(okPath))
            let expected: String
            do { expected = try store.text(expectsSuccess ? okPath : failPath) } catch {
                report.fail(input, input: input, expected: "an expected outcome in ok/", actual: "\(error)")
                continue
            }
            let actual: String
            do {
                let program = try DIDProgram.load(path: store.path("\(Self.directory)/\(input)")) { path in
                    FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
                }
                actual = expectsSuccess ? program.candidText + "\n" : "parsed, but expected to fail"
            } catch {
                actual = expectsSuccess ? "error: \(error)" : error.candidToolText + "\n"
            }
            report.check(input, input: input, expected: expected, actual: actual)
        }
        return report
    }
}
