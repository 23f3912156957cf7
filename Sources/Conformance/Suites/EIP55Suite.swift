import EthereumTypes

/// ERC-55 test cases: checksum from lowercase, and the checksummed form parses back to the same address.
public struct EIP55Suite: VectorSuite {
    public let name = "eip55"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        do {
            let file = try store.json("eip55/eip55_checksum_examples.json")
            for (index, test) in (file["cases"]?.arrayValue ?? []).enumerated() {
                let id = "\(test["category"]?.stringValue ?? "case") #\(index)"
                guard let lower = test["input_lowercase"]?.stringValue, let expected = test["checksummed"]?.stringValue
                else {
                    report.fail(id, input: test.compactText, expected: "input_lowercase/checksummed", actual: "missing")
                    continue
                }
                do {
                    let address = try Address(parsing: lower)
                    let reparsed = try Address(parsing: expected)
                    guard reparsed == address else {
                        report.fail(id, input: expected, expected: lower, actual: reparsed.lowercased)
                        continue
                    }
                    report.check(id, input: lower, expected: expected, actual: address.checksummed)
                } catch {
                    report.fail(id, input: lower, expected: expected, actual: "error: \(error)")
                }
            }
        } catch {
            report.fail("load", input: store.root, expected: "readable vector files", actual: "\(error)")
        }
        return report
    }
}
