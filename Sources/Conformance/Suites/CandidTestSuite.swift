import CandidCoding
import Foundation

/// One failed assertion of an official Candid test file.
public struct CandidSuiteFailure: Sendable, Equatable, CustomStringConvertible {
    /// `file:line` of the `assert` keyword.
    public var id: String
    /// The assertion's input text as written.
    public var input: String
    /// What the assertion expects.
    public var expected: String
    /// What the implementation produced.
    public var actual: String

    /// Creates a failure record.
    public init(id: String, input: String, expected: String, actual: String) {
        self.id = id
        self.input = input
        self.expected = expected
        self.actual = actual
    }

    public var description: String { "\(id): \(input)\n    expected: \(expected)\n    actual:   \(actual)" }
}

/// Counts and failures from running one `.test.did` file.
public struct CandidSuiteOutcome: Sendable, Equatable {
    /// Assertions that held.
    public var passed: Int
    /// Assertions that did not hold.
    public var failed: Int
    /// Assertions that were not run (always 0: the runner supports every form).
    public var skipped: Int
    /// Details of each failed assertion.
    public var failures: [CandidSuiteFailure]
    /// Ids (`file:line`) of the assertions that held.
    public var passes: [String] = []

    /// Creates an outcome.
    public init(passed: Int = 0, failed: Int = 0, skipped: Int = 0, failures: [CandidSuiteFailure] = []) {
        self.passed = passed
        self.failed = failed
        self.skipped = skipped
        self.failures = failures
    }
}

/// Runs the official Candid test-suite DSL (dfinity/candid `test/*.test.did`).
///
/// Forms: `assert <in> : (types) "desc";`, `assert <in> !: (types);`, `assert <in> == <in> : (types);` and
/// `assert <in> != <in> : (types);`, where `<in>` is `blob "..."` (binary message) or `"..."` (Candid text).
/// Type definitions come first. Comments, including the example asserts in block comments, are ignored.
public enum CandidTestSuite {
    /// An error in the test file itself.
    public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong.
        public var message: String
        public var description: String { message }
    }

    /// Runs every assertion of a `.test.did` file.
    ///
    /// - Parameter path: The file path.
    /// - Returns: Pass/fail/skip counts and failure details; ids are `file:line`.
    /// - Throws: `FileError` when the file cannot be read or its type definitions do not parse.
    public static func run(fileAt path: String) throws -> CandidSuiteOutcome {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileError(message: "cannot read \(path)")
        }
        let name = (path as NSString).lastPathComponent
        return try run(source: String(decoding: data, as: UTF8.self), name: name)
    }

    /// Runs every assertion of a `.test.did` source text.
    public static func run(source: String, name: String) throws -> CandidSuiteOutcome {
        let statements = splitStatements(source)
        var definitions = ""
        for statement in statements where statement.text.hasPrefix("type") { definitions += statement.text + ";\n" }
        let environment: CandidTypeEnvironment
        do {
            environment = try CandidTextParser.parseInterface(definitions).environment
        } catch {
            throw FileError(message: "\(name): type definitions do not parse: \(error)")
        }
        var outcome = CandidSuiteOutcome()
        let trace = ProcessInfo.processInfo.environment["CANDID_SUITE_TRACE"] != nil
        for statement in statements where statement.text.hasPrefix("assert") {
            let id = "\(name):\(statement.line)"
            do {
                let assertion = try Assertion(parsing: statement.text)
                if trace { print("\(id): \(traceLine(assertion, environment: environment))") }
                if let problem = evaluate(assertion, environment: environment) {
                    outcome.failed += 1
                    outcome.failures.append(
                        CandidSuiteFailure(
                            id: id, input: statement.text, expected: assertion.expectation, actual: problem))
                } else {
                    outcome.passed += 1
                    outcome.passes.append(id)
                }
            } catch {
                outcome.failed += 1
                outcome.failures.append(
                    CandidSuiteFailure(id: id, input: statement.text, expected: "a valid assertion", actual: "\(error)")
                )
            }
        }
        return outcome
    }

    // MARK: Statements

    struct Statement {
        var text: String
        var line: Int
    }

    /// Splits source into `;`-terminated statements, dropping comments and keeping string literals intact.
    static func splitStatements(_ source: String) -> [Statement] {
        let bytes = Array(source.utf8)
        var statements: [Statement] = []
        var current: [UInt8] = []
        var line = 1
        var startLine = 1
        var index = 0
        var nesting = 0
        func flush() {
            let text = String(decoding: current, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { statements.append(Statement(text: text, line: startLine)) }
            current = []
        }
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: "/"), next == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0a { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                var depth = 0
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*")
                    {
                        depth += 1
                        index += 2
                    } else if bytes[index] == UInt8(ascii: "*"), index + 1 < bytes.count,
                        bytes[index + 1] == UInt8(ascii: "/")
                    {
                        depth -= 1
                        index += 2
                        if depth == 0 { break }
                    } else {
                        if bytes[index] == 0x0a { line += 1 }
                        index += 1
                    }
                }
                current.append(0x20)
                continue
            }
            if current.allSatisfy({ $0 == 0x20 || $0 == 0x0a || $0 == 0x09 || $0 == 0x0d }) { startLine = line }
            if byte == UInt8(ascii: "\"") {
                current.append(byte)
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                        current.append(bytes[index])
                        index += 1
                    }
                    if bytes[index] == 0x0a { line += 1 }
                    current.append(bytes[index])
                    index += 1
                }
                if index < bytes.count { current.append(bytes[index]) }
                index += 1
                continue
            }
            if byte == 0x0a { line += 1 }
            if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") { nesting += 1 }
            if byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") { nesting -= 1 }
            if byte == UInt8(ascii: ";"), nesting == 0 {
                flush()
            } else {
                current.append(byte)
            }
            index += 1
        }
        flush()
        return statements
    }

    // MARK: Assertions

    enum Input {
        case blob([UInt8])
        case text(String)
    }

    enum Kind {
        case decodes
        case fails
        case equal(Input)
        case notEqual(Input)
    }

    struct Assertion {
        var input: Input
        var kind: Kind
        var types: String

        var expectation: String {
            switch kind {
            case .decodes: return "decodes at \(types)"
            case .fails: return "fails at \(types)"
            case .equal: return "both decode at \(types) to equal values"
            case .notEqual: return "both decode at \(types) to different values"
            }
        }

        init(parsing statement: String) throws {
            var scanner = Scanner(Array(statement.utf8))
            try scanner.expectWord("assert")
            input = try scanner.input()
            scanner.skipSpace()
            var second: Input?
            var equal = true
            if scanner.consume("==") {
                second = try scanner.input()
            } else if scanner.consume("!=") {
                second = try scanner.input()
                equal = false
            }
            scanner.skipSpace()
            let negated = scanner.consume("!:")
            if !negated, !scanner.consume(":") { throw FileError(message: "expected ':' or '!:'") }
            types = try scanner.typeList()
            if let second {
                kind = equal ? .equal(second) : .notEqual(second)
            } else {
                kind = negated ? .fails : .decodes
            }
        }
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0a, 0x09, 0x0d].contains(bytes[index]) { index += 1 }
        }

        mutating func consume(_ literal: String) -> Bool {
            skipSpace()
            let expected = Array(literal.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected
            else { return false }
            index += expected.count
            return true
        }

        mutating func expectWord(_ word: String) throws {
            guard consume(word) else { throw FileError(message: "expected \(word)") }
        }

        /// A string literal with its escapes decoded to bytes.
        mutating func stringLiteral() throws -> [UInt8] {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw FileError(message: "expected a string literal")
            }
            index += 1
            var output: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                let byte = bytes[index]
                index += 1
                guard byte == UInt8(ascii: "\\"), index < bytes.count else {
                    output.append(byte)
                    continue
                }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "n"): output.append(0x0a)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "r"): output.append(0x0d)
                case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"): output.append(escape)
                case UInt8(ascii: "u"):
                    guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")),
                        let value = UInt32(
                            String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
                                .replacingOccurrences(of: "_", with: ""), radix: 16),
                        let scalar = Unicode.Scalar(value)
                    else { throw FileError(message: "bad \\u escape") }
                    output += Array(String(Character(scalar)).utf8)
                    index = close + 1
                default:
                    guard index < bytes.count,
                        let value = UInt8(String(decoding: [escape, bytes[index]], as: UTF8.self), radix: 16)
                    else { throw FileError(message: "bad escape") }
                    output.append(value)
                    index += 1
                }
            }
            guard index < bytes.count else { throw FileError(message: "unterminated string") }
            index += 1
            return output
        }

        mutating func input() throws -> Input {
            if consume("blob") { return .blob(try stringLiteral()) }
            return .text(String(decoding: try stringLiteral(), as: UTF8.self))
        }

        /// The parenthesized type list (string-aware), leaving an optional description.
        mutating func typeList() throws -> String {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "(") else {
                throw FileError(message: "expected a parenthesized type list")
            }
            let start = index
            var depth = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                        index += 1
                    }
                } else if byte == UInt8(ascii: "(") {
                    depth += 1
                } else if byte == UInt8(ascii: ")") {
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return String(decoding: bytes[start..<index], as: UTF8.self)
                    }
                }
                index += 1
            }
            throw FileError(message: "unbalanced type list")
        }
    }

    // MARK: Evaluation

    static func evaluate(_ assertion: Assertion, environment: CandidTypeEnvironment) -> String? {
        let types: CandidArgumentTypes
        do {
            types = try CandidArgumentTypes(
                CandidTextParser.parseArgumentTypes(assertion.types), environment: environment)
        } catch {
            return "type list does not compile: \(error)"
        }
        let first = value(of: assertion.input, at: types)
        switch assertion.kind {
        case .decodes:
            if case .failure(let message) = first { return "failed: \(message)" }
            return nil
        case .fails:
            if case .success(let values) = first { return "decoded: \(CandidValue.argumentsText(values))" }
            return nil
        case .equal(let other), .notEqual(let other):
            let second = value(of: other, at: types)
            switch (first, second) {
            case (.failure(let message), _): return "left side failed: \(message)"
            case (_, .failure(let message)): return "right side failed: \(message)"
            case (.success(let left), .success(let right)):
                let shouldBeEqual: Bool
                if case .equal = assertion.kind { shouldBeEqual = true } else { shouldBeEqual = false }
                if (left == right) == shouldBeEqual { return nil }
                return "\(CandidValue.argumentsText(left)) vs \(CandidValue.argumentsText(right))"
            }
        }
    }

    /// What the first input produced, for `CANDID_SUITE_TRACE=1` debugging output.
    static func traceLine(_ assertion: Assertion, environment: CandidTypeEnvironment) -> String {
        guard let parsed = try? CandidTextParser.parseArgumentTypes(assertion.types),
            let types = try? CandidArgumentTypes(parsed, environment: environment)
        else { return "types do not compile" }
        switch value(of: assertion.input, at: types) {
        case .success(let values): return "ok \(CandidValue.argumentsText(values))"
        case .failure(let message): return "error \(message)"
        }
    }

    enum Evaluation {
        case success([CandidValue])
        case failure(String)
    }

    static func value(of input: Input, at types: CandidArgumentTypes) -> Evaluation {
        switch input {
        case .blob(let bytes):
            do {
                return .success(try CandidDeserializer.decode(bytes, as: types))
            } catch {
                return .failure(error.description)
            }
        case .text(let text):
            do {
                let values = try CandidTextParser.parseArguments(text)
                return .success(try CandidTextValue.typed(values, as: types))
            } catch {
                return .failure(error.description)
            }
        }
    }
}
