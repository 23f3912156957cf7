import ByteCoding
import EthereumTypes
import JSONCoding
import RLPCoding

/// ethereum/tests RLPTests: `rlptest.json` (encode, then decode back) and `invalidRLPTest.json` (must reject).
public struct RLPSuite: VectorSuite {
    public let name = "rlp"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        do {
            let valid = try store.json("rlp/rlptest.json")
            for (id, test) in (valid.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let input = test["in"], let out = test["out"]?.stringValue else {
                    report.fail(id, input: "?", expected: "in/out fields", actual: "missing")
                    continue
                }
                guard let item = Self.item(from: input) else {
                    report.fail(id, input: input.compactText, expected: "representable input", actual: "unsupported")
                    continue
                }
                let expected = out.lowercased()
                let encoded = Hex.encodePrefixed(RLP.encode(item))
                guard encoded == expected else {
                    report.fail(id, input: input.compactText, expected: expected, actual: encoded)
                    continue
                }
                do {
                    let decoded = try RLP.decode(try Hex.decode(out))
                    report.check(id, input: out, expected: "\(item)", actual: "\(decoded)")
                } catch {
                    report.fail(id, input: out, expected: "\(item)", actual: "error: \(error)")
                }
            }
            let invalid = try store.json("rlp/invalidRLPTest.json")
            for (id, test) in (invalid.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                let out = test["out"]?.stringValue ?? ""
                do {
                    let bytes = try Hex.decode(out)
                    let decoded = try RLP.decode(bytes)
                    report.fail(id, input: out, expected: "rejection", actual: "decoded \(decoded)")
                } catch {
                    report.pass(id)
                }
            }
        } catch {
            report.fail("load", input: store.root, expected: "readable vector files", actual: "\(error)")
        }
        return report
    }

    /// The RLP item a test input denotes: strings are byte strings of their code points, integers and
    /// `#`-prefixed decimal bigints are minimal big-endian byte strings, arrays are lists.
    static func item(from value: JSON) -> RLPItem? {
        switch value {
        case .string(let s):
            if s.hasPrefix("#") {
                guard let bytes = minimalBigEndian(decimal: s.dropFirst()) else { return nil }
                return .bytes(bytes)
            }
            var bytes: [UInt8] = []
            for scalar in s.unicodeScalars {
                guard scalar.value < 256 else { return nil }
                bytes.append(UInt8(scalar.value))
            }
            return .bytes(bytes)
        case .number(let n):
            guard let bytes = minimalBigEndian(decimal: Substring(n)) else { return nil }
            return .bytes(bytes)
        case .array(let a):
            var items: [RLPItem] = []
            for element in a {
                guard let item = item(from: element) else { return nil }
                items.append(item)
            }
            return .list(items)
        default:
            return nil
        }
    }

    /// Minimal big-endian bytes of an arbitrarily large decimal (the vectors go past 2^256).
    static func minimalBigEndian(decimal: Substring) -> [UInt8]? {
        var digits: [Int] = []
        for c in decimal.utf8 {
            guard c >= 48 && c <= 57 else { return nil }
            digits.append(Int(c) - 48)
        }
        guard !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        while digits.contains(where: { $0 != 0 }) {
            var remainder = 0
            var quotient: [Int] = []
            for d in digits {
                let current = remainder * 10 + d
                quotient.append(current / 256)
                remainder = current % 256
            }
            bytes.append(UInt8(remainder))
            digits = Array(quotient.drop { $0 == 0 })
        }
        return bytes.reversed()
    }
}
