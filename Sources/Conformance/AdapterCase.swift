import ByteCoding
import CandidCoding
import Foundation
import ICPIdentity
import JSONCoding

/// One adapter request built from an official vector, with what the vector says the answer is.
public struct AdapterCase: Sendable {
    /// What a correct answer looks like.
    public enum Expectation: Sendable {
        /// A result holding at least these fields with these values (`0x` strings compare case-insensitively).
        case fields([String: JSON])
        /// Any result (the input is valid).
        case anyResult
        /// An error (the input must be rejected).
        case error
    }

    public var id: String
    public var op: String
    public var input: JSON
    public var expectation: Expectation

    public init(id: String, op: String, input: JSON, expectation: Expectation) {
        self.id = id
        self.op = op
        self.input = input
        self.expectation = expectation
    }

    /// The expectation as report text.
    public var expectedText: String {
        switch expectation {
        case .fields(let fields): return JSON.sortedObject(fields).jsonText
        case .anyResult: return "a result"
        case .error: return "an error"
        }
    }

    /// Whether a response meets the expectation; the failure text when it does not.
    public func judge(_ response: AdapterResponse) -> String? {
        switch (expectation, response) {
        case (.error, .error), (.anyResult, .result): return nil
        case (.error, .result(let result)): return "result \(result.jsonText)"
        case (_, .error(let message)): return "error: \(message)"
        case (_, .unsupported(let reason)): return "unsupported: \(reason)"
        case (.fields(let fields), .result(let result)):
            for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                guard let actual = result[key], AdapterCase.same(value, actual, key: key) else {
                    return result.jsonText
                }
            }
            return nil
        }
    }

    /// Structural equality with the protocol's normalisation: `0x…` strings compare case-insensitively (except
    /// `checksummed`), numbers compare by value, decimal strings and JSON numbers are interchangeable.
    public static func same(_ a: JSON, _ b: JSON, key: String = "") -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            if key != "checksummed", x.hasPrefix("0x") || x.hasPrefix("0X") { return x.lowercased() == y.lowercased() }
            return x == y
        case (.number(let x), .number(let y)), (.number(let x), .string(let y)), (.string(let x), .number(let y)):
            if x == y { return true }
            if let dx = Double(x), let dy = Double(y), !x.allSatisfy(\.isNumber) || !y.allSatisfy(\.isNumber) {
                return dx == dy || (dx.isNaN && dy.isNaN)
            }
            return false
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object, .object):
            guard let x = a.dictionary, let y = b.dictionary else { return false }
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0, key: k) } ?? false }
        default:
            return a == b
        }
    }
}

/// The adapter cases of every suite, built from the vector files.
public enum AdapterCases {
    /// Cases and skips for one suite.
    public struct Suite: Sendable {
        public var name: String
        public var cases: [AdapterCase] = []
        public var skips: [CaseSkip] = []
        /// Vector files that could not be read become failures of the suite.
        public var loadFailures: [CaseFailure] = []

        public init(name: String, cases: [AdapterCase] = []) {
            self.name = name
            self.cases = cases
        }
    }

    public static func build(_ names: [String], store: VectorStore) -> [Suite] {
        let selected = names.isEmpty ? VectorRunner.suiteNames : names
        return selected.map { name in
            var suite = Suite(name: name)
            do {
                switch name {
                case "rlp": try rlp(store, &suite)
                case "eip55": try eip55(store, &suite)
                case "eip155": try eip155(store, &suite)
                case "bip39": try bip39(store, &suite)
                case "bip32": try bip32(store, &suite)
                case "keystore": try keystore(store, &suite)
                case "transactions": transactions(store, &suite)
                case "candid": try candid(store, &suite)
                case "icp": try icp(store, &suite)
                default: break
                }
            } catch {
                suite.loadFailures.append(
                    CaseFailure(id: "load", input: store.root, expected: "readable vector files", actual: "\(error)"))
            }
            return suite
        }
    }

    static func hex(_ bytes: [UInt8]) -> JSON { .string(Hex.encodePrefixed(bytes)) }

    static func rlp(_ store: VectorStore, _ suite: inout Suite) throws {
        for (id, test) in (try store.json("rlp/rlptest.json").dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let input = test["in"], let out = test["out"]?.stringValue, let item = RLPSuite.item(from: input)
            else {
                suite.skips.append(CaseSkip(id: id, reason: "input not representable"))
                continue
            }
            let json = NativeAdapter.json(item)
            suite.cases.append(
                AdapterCase(
                    id: id + " encode", op: "rlp.encode", input: .object([("item", json)]),
                    expectation: .fields(["encoded": .string(out.lowercased())])))
            suite.cases.append(
                AdapterCase(
                    id: id + " decode", op: "rlp.decode", input: .object([("encoded", .string(out.lowercased()))]),
                    expectation: .fields(["item": json])))
        }
        for (id, test) in (try store.json("rlp/invalidRLPTest.json").dictionary ?? [:]).sorted(by: { $0.key < $1.key })
        {
            let out = test["out"]?.stringValue ?? ""
            let prefixed = out.hasPrefix("0x") ? out.lowercased() : "0x" + out.lowercased()
            suite.cases.append(
                AdapterCase(
                    id: id, op: "rlp.decode", input: .object([("encoded", .string(prefixed))]), expectation: .error))
        }
    }

    static func eip55(_ store: VectorStore, _ suite: inout Suite) throws {
        let file = try store.json("eip55/eip55_checksum_examples.json")
        for (index, test) in (file["cases"]?.arrayValue ?? []).enumerated() {
            guard let lower = test["input_lowercase"]?.stringValue, let expected = test["checksummed"]?.stringValue
            else {
                continue
            }
            suite.cases.append(
                AdapterCase(
                    id: "\(test["category"]?.stringValue ?? "case") #\(index)", op: "eip55.checksum",
                    input: .object([("address", .string(lower))]),
                    expectation: .fields(["checksummed": .string(expected)])))
        }
    }

    static func eip155(_ store: VectorStore, _ suite: inout Suite) throws {
        let file = try store.json("eip155/eip155_example.json")
        guard let example = file["example"], let tx = example["tx"], let signed = example["signed_tx"]?.stringValue,
            let key = example["private_key"]?.stringValue
        else { throw VectorStore.LoadError(file: "eip155/eip155_example.json", reason: "example fields") }
        func decimal(_ v: JSON?) -> JSON { .string(v.map { $0.stringValue ?? $0.compactText } ?? "0") }
        let fields: JSON = .object([
            ("type", .integer(0)), ("chain_id", decimal(example["chain_id"])), ("nonce", decimal(tx["nonce"])),
            ("gas_price", decimal(tx["gasPrice"])), ("gas", decimal(tx["gasLimit"])), ("to", tx["to"] ?? .null),
            ("value", decimal(tx["value"])), ("data", tx["data"] ?? .string("0x")),
        ])
        let prefixedKey = key.hasPrefix("0x") ? key : "0x" + key
        suite.cases.append(
            AdapterCase(
                id: "signed_tx", op: "tx.sign",
                input: .object([("tx", fields), ("private_key", .string(prefixedKey))]),
                expectation: .fields(["raw": .string(signed)])))
        if let hash = file["derived"]?["tx_hash"]?.stringValue {
            suite.cases.append(
                AdapterCase(
                    id: "tx_hash", op: "tx.decode", input: .object([("raw", .string(signed))]),
                    expectation: .fields(["hash": .string(hash)])))
        }
        if let sender = file["derived"]?["sender_address"]?.stringValue {
            suite.cases.append(
                AdapterCase(
                    id: "sender", op: "tx.recover", input: .object([("raw", .string(signed))]),
                    expectation: .fields(["sender": .string(sender)])))
        }
    }

    static func bip39(_ store: VectorStore, _ suite: inout Suite) throws {
        var entries:
            [(
                id: String, language: String, entropy: String, phrase: String, passphrase: String, seed: String,
                xprv: String
            )] = []
        let file = try store.json("bip39/vectors.json")
        for (section, cases) in (file.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (index, test) in (cases.arrayValue ?? []).enumerated() {
                let f = test.arrayValue?.compactMap(\.stringValue) ?? []
                guard f.count == 4 else { continue }
                entries.append(("\(section) #\(index)", section, f[0], f[1], "TREZOR", f[2], f[3]))
            }
        }
        for (index, test) in (try store.json("bip39/test_JP_BIP39.json").arrayValue ?? []).enumerated() {
            guard let entropy = test["entropy"]?.stringValue, let phrase = test["mnemonic"]?.stringValue,
                let passphrase = test["passphrase"]?.stringValue, let seed = test["seed"]?.stringValue,
                let xprv = test["bip32_xprv"]?.stringValue
            else { continue }
            entries.append(("JP #\(index)", "japanese", entropy, phrase, passphrase, seed, xprv))
        }
        for e in entries {
            suite.cases.append(
                AdapterCase(
                    id: e.id + " entropy→words", op: "bip39.from_entropy",
                    input: .object([("entropy", .string("0x" + e.entropy)), ("language", .string(e.language))]),
                    expectation: .fields(["mnemonic": .string(e.phrase)])))
            suite.cases.append(
                AdapterCase(
                    id: e.id + " seed", op: "bip39.seed",
                    input: .object([("mnemonic", .string(e.phrase)), ("passphrase", .string(e.passphrase))]),
                    expectation: .fields(["seed": .string("0x" + e.seed.lowercased())])))
            suite.cases.append(
                AdapterCase(
                    id: e.id + " xprv", op: "bip32.derive",
                    input: .object([("seed", .string("0x" + e.seed.lowercased())), ("path", .string("m"))]),
                    expectation: .fields(["xprv": .string(e.xprv)])))
        }
    }

    static func bip32(_ store: VectorStore, _ suite: inout Suite) throws {
        let file = try store.json("bip32/bip32_test_vectors.json")
        for vector in file["valid"]?.arrayValue ?? [] {
            guard let seed = vector["seed_hex"]?.stringValue else { continue }
            for chain in vector["chains"]?.arrayValue ?? [] {
                let path = chain["path"]?.stringValue ?? ""
                suite.cases.append(
                    AdapterCase(
                        id: "\(vector["name"]?.stringValue ?? "vector") \(path)", op: "bip32.derive",
                        input: .object([("seed", .string("0x" + seed)), ("path", .string(path))]),
                        expectation: .fields(["xprv": chain["xprv"] ?? .null, "xpub": chain["xpub"] ?? .null])))
            }
        }
        for (index, test) in (file["invalid"]?.arrayValue ?? []).enumerated() {
            suite.skips.append(
                CaseSkip(
                    id: "invalid #\(index) (\(test["reason"]?.stringValue ?? ""))",
                    reason: "extended-key parsing is not an adapter operation"))
        }
    }

    static func keystore(_ store: VectorStore, _ suite: inout Suite) throws {
        for (name, test) in (try store.json("keystore/basic_tests.json").dictionary ?? [:]).sorted(by: {
            $0.key < $1.key
        }) {
            guard let json = test["json"], let password = test["password"], let priv = test["priv"]?.stringValue else {
                continue
            }
            suite.cases.append(
                AdapterCase(
                    id: name, op: "keystore.decrypt", input: .object([("keystore", json), ("password", password)]),
                    expectation: .fields(["private_key": .string("0x" + priv.lowercased())])))
        }
    }

    /// Exceptions that are properties of the bytes (decoding, signature) and so belong to `tx.recover`; the others
    /// are consensus validation rules (intrinsic gas, limits, chain id) that no adapter operation covers.
    static func isDecodingException(_ exception: String) -> Bool {
        exception.split(separator: "|").allSatisfy { alternative in
            let name = alternative.replacingOccurrences(of: "TransactionException.", with: "")
            return TransactionSuite.decodingExceptions[name] != nil
                || ["TYPE_NOT_SUPPORTED", "INVALID_SIGNATURE_VRS", "EC_RECOVERY_FAIL"].contains(name)
        }
    }

    static func transactions(_ store: VectorStore, _ suite: inout Suite) {
        for file in store.files(in: "transactions", suffix: ".json") {
            guard let document = try? store.json(file) else {
                suite.loadFailures.append(
                    CaseFailure(id: file, input: file, expected: "readable JSON", actual: "unreadable"))
                continue
            }
            let group = file.split(separator: "/").dropFirst().first.map(String.init) ?? file
            for (testName, test) in (document.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                let id = "\(group)/\(testName)"
                guard let txbytes = test["txbytes"]?.stringValue, let results = test["result"]?.dictionary,
                    let (forkName, _) = TransactionSuite.modelledForks.first(where: { results[$0.name] != nil })
                else {
                    suite.skips.append(CaseSkip(id: id, reason: "no Shanghai-or-later expectation"))
                    continue
                }
                let expected = results[forkName]!
                let raw = JSON.object([("raw", .string(txbytes))])
                if let exception = expected["exception"]?.stringValue {
                    if isDecodingException(exception) {
                        suite.cases.append(
                            AdapterCase(id: "\(id)@\(forkName)", op: "tx.recover", input: raw, expectation: .error))
                    } else {
                        suite.skips.append(
                            CaseSkip(
                                id: "\(id)@\(forkName)", reason: "consensus validation rule, not an adapter operation"))
                    }
                    continue
                }
                suite.cases.append(
                    AdapterCase(
                        id: "\(id)@\(forkName) hash", op: "tx.decode", input: raw,
                        expectation: .fields(["hash": expected["hash"] ?? .null])))
                suite.cases.append(
                    AdapterCase(
                        id: "\(id)@\(forkName) sender", op: "tx.recover", input: raw,
                        expectation: .fields(["sender": expected["sender"] ?? .null])))
            }
        }
    }

    static func candid(_ store: VectorStore, _ suite: inout Suite) throws {
        for file in CandidSuite.files {
            let relative = "candid/\(file).test.did"
            let source = try store.text(relative)
            let statements = CandidTestSuite.splitStatements(source)
            var definitions = ""
            for statement in statements where statement.text.hasPrefix("type") { definitions += statement.text + ";\n" }
            let environment = (try? CandidTextParser.parseInterface(definitions).environment) ?? CandidTypeEnvironment()
            for statement in statements where statement.text.hasPrefix("assert") {
                let id = "\(relative):\(statement.line)"
                do {
                    try candidCase(id: id, statement: statement.text, environment: environment, into: &suite)
                } catch {
                    suite.skips.append(CaseSkip(id: id, reason: "\(error)"))
                }
            }
        }
    }

    struct CandidSkip: Error, CustomStringConvertible { var description: String }

    static func candidCase(
        id: String, statement: String, environment: CandidTypeEnvironment, into suite: inout Suite
    ) throws {
        let assertion = try CandidTestSuite.Assertion(parsing: statement)
        guard case .blob(let bytes) = assertion.input else {
            throw CandidSkip(description: "Candid text input: the protocol carries binary messages only")
        }
        let parsed = try CandidTextParser.parseArgumentTypes(assertion.types)
        let types: [JSON]
        do {
            types = try parsed.map { try CandidJSON.json($0, environment: environment) }
        } catch {
            throw CandidSkip(description: "no JSON form for the types (\(error))")
        }
        let input = JSON.object([("encoded", hex(bytes)), ("types", .array(types))])
        switch assertion.kind {
        case .decodes:
            suite.cases.append(AdapterCase(id: id, op: "candid.decode", input: input, expectation: .anyResult))
        case .fails: suite.cases.append(AdapterCase(id: id, op: "candid.decode", input: input, expectation: .error))
        case .equal(let other):
            // The other side's value as Sandnet reads it (the suite checks that reading against the assertion).
            let compiled = try CandidArgumentTypes(parsed, environment: environment)
            guard case .success(let values) = CandidTestSuite.value(of: other, at: compiled) else {
                throw CandidSkip(description: "right side does not decode")
            }
            var json: [JSON] = []
            do {
                for (value, type) in zip(values, parsed) {
                    json.append(try CandidJSON.json(value, type: type, environment: environment))
                }
            } catch {
                throw CandidSkip(description: "no JSON form for the value (\(error))")
            }
            suite.cases.append(
                AdapterCase(id: id, op: "candid.decode", input: input, expectation: .fields(["values": .array(json)])))
        case .notEqual:
            throw CandidSkip(description: "`!=` compares two decodings; one request cannot express it")
        }
    }

    static func icp(_ store: VectorStore, _ suite: inout Suite) throws {
        let file = try store.json("icp/icp_principal_account_examples.json")
        for (index, test) in (file["principal_text"]?.arrayValue ?? []).enumerated() {
            guard let text = test["text"]?.stringValue, let bytes = test["bytes_hex"]?.stringValue else { continue }
            suite.cases.append(
                AdapterCase(
                    id: "principal_text #\(index) text→bytes", op: "icp.principal",
                    input: .object([("text", .string(text))]),
                    expectation: .fields(["bytes": .string("0x" + bytes)])))
            suite.cases.append(
                AdapterCase(
                    id: "principal_text #\(index) bytes→text", op: "icp.principal",
                    input: .object([("bytes", .string("0x" + bytes))]), expectation: .fields(["text": .string(text)])))
        }
        for (index, test) in (file["icp_account_identifier"]?.arrayValue ?? []).enumerated() {
            guard let principal = test["principal"]?.stringValue,
                let expected = test["account_identifier_hex"]?.stringValue
            else {
                continue
            }
            var subaccount = test["subaccount_hex"]?.stringValue.map { JSON.string("0x" + $0) } ?? .null
            if subaccount == .null, let number = test["subaccount_id"]?.uint64 {
                subaccount = hex(Subaccount(index: number).bytes)
            }
            suite.cases.append(
                AdapterCase(
                    id: "icp_account_identifier #\(index)", op: "icp.account_id",
                    input: .object([("principal", .string(principal)), ("subaccount", subaccount)]),
                    expectation: .fields(["account_id": .string("0x" + expected)])))
        }
        for name in ["icrc1_account_text", "icp_account_identifier_checksum"] {
            for index in (file[name]?.arrayValue ?? []).indices {
                suite.skips.append(CaseSkip(id: "\(name) #\(index)", reason: "not an adapter operation"))
            }
        }
        for index in (file["subaccount_from_principal"]?["cases"]?.arrayValue ?? []).indices {
            suite.skips.append(CaseSkip(id: "subaccount_from_principal #\(index)", reason: "not an adapter operation"))
        }
    }
}
