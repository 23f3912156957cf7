import ByteCoding
import CandidCoding
import EthereumTypes
import JSONCoding
import RLPCoding
import SeededRandom

/// A small deterministic generator (SplitMix64), so every differential case is reproducible from the seed and
/// its index alone.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    var splitMix: SplitMix64

    public init(seed: UInt64) { splitMix = SplitMix64(seed: seed) }

    public mutating func next() -> UInt64 { splitMix.next() }

    /// The generator of case `index` of check `check` under `seed`.
    static func forCase(seed: UInt64, check: String, index: Int) -> SeededGenerator {
        var mixed = seed
        for byte in check.utf8 { mixed = (mixed ^ UInt64(byte)) &* 0x100_0000_01B3 }
        var generator = SeededGenerator(seed: mixed ^ (UInt64(index) &* 0xD6E8_FEB8_6659_FD93))
        _ = generator.next()
        return generator
    }
}

/// Differential checks: random, seeded cases computed by Sandnet (``NativeAdapter``) and by an adapter, compared
/// field by field. Each check yields one report per operation; a disagreement records the seed, the case index,
/// the request and both answers.
public enum DifferentialCheck {
    /// The checks, by the vector suite names they belong to, with their operations.
    public static let checks: [(suite: String, ops: [String])] = [
        ("rlp", ["rlp.encode", "rlp.decode"]),
        ("transactions", ["tx.sign", "tx.recover", "tx.decode"]),
        ("bip39", ["bip39.from_entropy", "bip39.seed"]),
        ("candid", ["candid.encode", "candid.decode"]),
    ]

    /// Runs `count` cases per operation of the selected checks (all when `suites` is empty).
    ///
    /// - Throws: `AdapterError` when the adapter breaks.
    public static func run(
        _ suites: [String], count: Int, seed: UInt64, endpoint: some AdapterEndpoint
    ) throws(AdapterError) -> [SuiteReport] {
        let supported = try endpoint.hello()
        let native = NativeAdapter()
        var reports: [SuiteReport] = []
        for check in checks where suites.isEmpty || suites.contains(check.suite) {
            for op in check.ops {
                var report = SuiteReport(suite: "differential \(op)")
                guard supported.contains(op) else {
                    report.skip("\(op) × \(count)", reason: "adapter does not support \(op)")
                    reports.append(report)
                    continue
                }
                for index in 0..<count {
                    var random = SeededGenerator.forCase(seed: seed, check: op, index: index)
                    let id = "seed \(seed) case \(index)"
                    let (input, ours) = makeCase(op, &random, native: native)
                    let theirs = try endpoint.call(op, input)
                    if case .unsupported(let reason) = theirs {
                        report.skip(id, reason: reason)
                        continue
                    }
                    if let problem = compare(op, input: input, ours: ours, theirs: theirs) {
                        report.fail(id, input: "\(op) \(input.jsonText)", expected: ours.text, actual: problem)
                    } else {
                        report.pass(id)
                    }
                }
                reports.append(report)
            }
        }
        return reports
    }

    /// Returns the request and Sandnet's answer for case `random` of `op`.
    static func makeCase(_ op: String, _ random: inout SeededGenerator, native: NativeAdapter) -> (
        JSON, AdapterResponse
    ) {
        let input: JSON
        switch op {
        case "rlp.encode":
            input = .object([("item", NativeAdapter.json(randomRLP(&random, depth: 0)))])
        case "rlp.decode":
            input = .object([("encoded", .string(Hex.encodePrefixed(RLP.encode(randomRLP(&random, depth: 0)))))])
        case "tx.sign":
            input = .object([("tx", randomTransaction(&random)), ("private_key", .string(randomKey(&random)))])
        case "tx.recover", "tx.decode":
            let signing: JSON = .object([
                ("tx", randomTransaction(&random)), ("private_key", .string(randomKey(&random))),
            ])
            let raw = native.call("tx.sign", signing)
            guard case .result(let signed) = raw, let hex = signed["raw"] else { return (signing, raw) }
            input = .object([("raw", hex)])
        case "bip39.from_entropy":
            let length = [16, 20, 24, 28, 32].randomElement(using: &random)!
            let language = MnemonicLanguages.all.randomElement(using: &random)!
            input = .object([
                ("entropy", .string(Hex.encodePrefixed(bytes(length, &random)))), ("language", .string(language)),
            ])
        case "bip39.seed":
            let length = [16, 20, 24, 28, 32].randomElement(using: &random)!
            let language = MnemonicLanguages.all.randomElement(using: &random)!
            let made = native.call(
                "bip39.from_entropy",
                .object([
                    ("entropy", .string(Hex.encodePrefixed(bytes(length, &random)))), ("language", .string(language)),
                ])
            )
            guard case .result(let words) = made, let mnemonic = words["mnemonic"] else { return (.null, made) }
            input = .object([("mnemonic", mnemonic), ("passphrase", .string(randomPassphrase(&random)))])
        case "candid.encode", "candid.decode":
            let count = Int.random(in: 1...3, using: &random)
            var types: [CandidType] = []
            var values: [JSON] = []
            for _ in 0..<count {
                let type = randomCandidType(&random, depth: 0)
                types.append(type)
                values.append(randomCandidValue(type, &random))
            }
            let typesJSON = JSON.array(types.map { (try? CandidJSON.json($0, environment: .init())) ?? .null })
            if op == "candid.encode" {
                input = .object([("types", typesJSON), ("values", .array(values))])
                return (input, .result(.object([("values", .array(values))])))
            }
            let encoded = native.call("candid.encode", .object([("types", typesJSON), ("values", .array(values))]))
            guard case .result(let message) = encoded, let hex = message["encoded"] else { return (.null, encoded) }
            input = .object([("encoded", hex), ("types", typesJSON)])
        default:
            input = .null
        }
        return (input, native.call(op, input))
    }

    /// Nil when the adapter agrees with Sandnet; otherwise the adapter's answer (and why it differs).
    static func compare(_ op: String, input: JSON, ours: AdapterResponse, theirs: AdapterResponse) -> String? {
        if op == "candid.encode" {
            // Encodings need not be byte-identical (type-table order is free): Sandnet decodes the adapter's
            // message at the same types and must get the input values back.
            guard case .result(let result) = theirs else { return theirs.text }
            let decoded = NativeAdapter().call(
                "candid.decode", .object([("encoded", result["encoded"] ?? .null), ("types", input["types"] ?? .null)]))
            guard case .result(let values) = decoded else {
                return "\(theirs.text); Sandnet cannot decode it: \(decoded.text)"
            }
            guard case .result(let wanted) = ours, AdapterCase.same(wanted, values) else {
                return "\(theirs.text) decodes to \(values.jsonText)"
            }
            return nil
        }
        switch (ours, theirs) {
        case (.result(let a), .result(let b)):
            return AdapterCase.same(a, b) ? nil : b.jsonText
        case (.error, .error):
            return nil
        default:
            return theirs.text
        }
    }

    // MARK: Generators

    static func bytes(_ count: Int, _ random: inout SeededGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// Byte strings at the encoding's boundaries (empty, single bytes below and above 0x80, 55/56 bytes, long) and
    /// lists nested up to four deep.
    static func randomRLP(_ random: inout SeededGenerator, depth: Int) -> RLPItem {
        if depth < 4, Int.random(in: 0..<3, using: &random) == 0 {
            let count = Int.random(in: 0...(depth == 0 ? 8 : 4), using: &random)
            return .list((0..<count).map { _ in randomRLP(&random, depth: depth + 1) })
        }
        let length: Int
        switch Int.random(in: 0..<10, using: &random) {
        case 0: length = 0
        case 1, 2, 3: length = 1
        case 4: length = [55, 56, 57].randomElement(using: &random)!
        case 5: length = Int.random(in: 200...1100, using: &random)
        default: length = Int.random(in: 2...60, using: &random)
        }
        return .bytes(bytes(length, &random))
    }

    static func randomKey(_ random: inout SeededGenerator) -> String {
        var key = bytes(32, &random)
        key[0] = min(key[0], 0xFE)  // below the group order
        if key.allSatisfy({ $0 == 0 }) { key[31] = 1 }
        return Hex.encodePrefixed(key)
    }

    /// A quantity of a random bit width, biased to 0 and small values.
    static func quantity(_ random: inout SeededGenerator, maxBytes: Int) -> String {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return "0"
        case 1: return String(UInt64.random(in: 1...1_000_000, using: &random))
        default:
            let width = Int.random(in: 1...maxBytes, using: &random)
            return UInt256(bigEndian: bytes(width, &random))!.description
        }
    }

    static func randomTransaction(_ random: inout SeededGenerator) -> JSON {
        let type = Int.random(in: 0...2, using: &random)
        var fields: [String: JSON] = [
            "type": .integer(type),
            "nonce": .string(quantity(&random, maxBytes: 8)),
            "gas": .string(quantity(&random, maxBytes: 8)),
            "value": .string(quantity(&random, maxBytes: 32)),
            "data": .string(
                Hex.encodePrefixed(
                    bytes(
                        Int.random(in: 0...3, using: &random) == 0 ? 0 : Int.random(in: 1...120, using: &random),
                        &random))),
            "to": Int.random(in: 0..<8, using: &random) == 0 ? .null : .string(Hex.encodePrefixed(bytes(20, &random))),
        ]
        let chainID: String? =
            type == 0 && Bool.random(using: &random)
            ? nil : [1, 11_155_111, 5, 137, 31337].randomElement(using: &random).map(String.init)
        fields["chain_id"] = chainID.map { .string($0) } ?? .null
        if type == 2 {
            fields["max_fee_per_gas"] = .string(quantity(&random, maxBytes: 32))
            fields["max_priority_fee_per_gas"] = .string(quantity(&random, maxBytes: 32))
        } else {
            fields["gas_price"] = .string(quantity(&random, maxBytes: 32))
        }
        if type > 0 {
            let entries = Int.random(in: 0...2, using: &random)
            fields["access_list"] = .array(
                (0..<entries).map { _ in
                    .object([
                        ("address", .string(Hex.encodePrefixed(bytes(20, &random)))),
                        (
                            "storage_keys",
                            .array(
                                (0..<Int.random(in: 0...2, using: &random)).map { _ in
                                    .string(Hex.encodePrefixed(bytes(32, &random)))
                                })
                        ),
                    ])
                })
        }
        return .sortedObject(fields)
    }

    static func randomPassphrase(_ random: inout SeededGenerator) -> String {
        let pieces = ["", "TREZOR", "a", "pass word", "é", "e\u{301}", "Ñandú", "日本語", "パスワード", "ﬁ", "Ω", "🔑"]
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static let primitiveTypes: [CandidType] = [
        .null, .bool, .nat, .int, .nat8, .nat16, .nat32, .nat64, .int8, .int16, .int32, .int64, .float64, .text,
        .principal, .reserved,
    ]
    static let labelNames = ["a", "b", "c", "foo", "bar", "name", "amount", "to", "memo"]

    static func randomCandidType(_ random: inout SeededGenerator, depth: Int) -> CandidType {
        guard depth < 3, Int.random(in: 0..<3, using: &random) == 0 else {
            return primitiveTypes.randomElement(using: &random)!
        }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return .opt(randomCandidType(&random, depth: depth + 1))
        case 1: return .vec(randomCandidType(&random, depth: depth + 1))
        case 2: return .blob
        default:
            var used = Set<UInt32>()
            var fields: [CandidFieldType] = []
            let tuple = Bool.random(using: &random)
            for index in 0..<Int.random(in: 1...4, using: &random) {
                let label =
                    tuple ? CandidLabel(id: UInt32(index)) : CandidLabel(labelNames.randomElement(using: &random)!)
                guard used.insert(label.id).inserted else { continue }
                fields.append(CandidFieldType(label, randomCandidType(&random, depth: depth + 1)))
            }
            return Bool.random(using: &random) ? .record(fields) : .variant(fields)
        }
    }

    static func randomCandidValue(_ type: CandidType, _ random: inout SeededGenerator) -> JSON {
        switch type {
        case .null, .reserved: return .null
        case .bool: return .bool(Bool.random(using: &random))
        case .nat: return .string(quantity(&random, maxBytes: 24))
        case .int:
            let magnitude = quantity(&random, maxBytes: 24)
            return .string(magnitude != "0" && Bool.random(using: &random) ? "-" + magnitude : magnitude)
        case .nat8: return .integer(UInt8.random(in: .min ... .max, using: &random))
        case .nat16: return .integer(UInt16.random(in: .min ... .max, using: &random))
        case .nat32: return .integer(UInt32.random(in: .min ... .max, using: &random))
        case .nat64: return .string(String(UInt64.random(in: .min ... .max, using: &random)))
        case .int8: return .integer(Int8.random(in: .min ... .max, using: &random))
        case .int16: return .integer(Int16.random(in: .min ... .max, using: &random))
        case .int32: return .integer(Int32.random(in: .min ... .max, using: &random))
        case .int64: return .string(String(Int64.random(in: .min ... .max, using: &random)))
        case .float64:
            let choices = [
                0, 1.5, -2.25, 1e300, Double.leastNonzeroMagnitude, Double.random(in: -1e6...1e6, using: &random),
            ]
            return CandidJSON.float(choices.randomElement(using: &random)!)
        case .text:
            let pieces = ["", "a", "hello", "é", "日本", "🦀", "\"q\"", "\\", "\n", "DIDL"]
            return .string(
                (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        case .principal:
            return .string(CandidPrincipal(bytes: bytes(Int.random(in: 0...29, using: &random), &random)).text)
        case .opt(let inner):
            return Bool.random(using: &random) ? .array([]) : .array([randomCandidValue(inner, &random)])
        case .vec(.nat8):
            return .array(bytes(Int.random(in: 0...40, using: &random), &random).map { .integer($0) })
        case .vec(let inner):
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomCandidValue(inner, &random) })
        case .record(let fields):
            var object: [String: JSON] = [:]
            for field in fields { object[CandidJSON.key(field.label)] = randomCandidValue(field.type, &random) }
            return .sortedObject(object)
        case .variant(let fields):
            let field = fields.randomElement(using: &random)!
            return .object([(CandidJSON.key(field.label), randomCandidValue(field.type, &random))])
        default:
            return .null
        }
    }
}

/// The ten official BIP-39 wordlists, by the names the protocol uses.
enum MnemonicLanguages {
    static let all = [
        "english", "japanese", "korean", "spanish", "chinese_simplified", "chinese_traditional", "french", "italian",
        "czech", "portuguese",
    ]
}

extension AdapterResponse {
    /// Report text.
    public var text: String {
        switch self {
        case .result(let r): return r.jsonText
        case .error(let message): return "error: \(message)"
        case .unsupported(let reason): return "unsupported: \(reason)"
        }
    }
}
