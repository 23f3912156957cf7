/// Swift spellings of Candid names: types in UpperCamelCase, members in lowerCamelCase, keywords escaped.
enum SwiftNames {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "package", "consume", "borrowing", "consuming", "some", "any",
    ]
    /// Member names the generated conformances use.
    static let reservedMembers: Set<String> = ["candidValue", "candidAbsentValue", "hashValue", "hash", "init"]
    /// Type names that would break the generated code.
    static let reservedTypes: Set<String> = ["Type", "Self", "Protocol", "Any", "Client", "Sendable", "Hashable"]

    /// Words of a Candid name: split at `_`, spaces and punctuation; non-ASCII letters dropped.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// `transfer_args` → `TransferArgs`; `TransferArgs` stays. Falls back to `fallback` for names without letters.
    static func typeName(_ name: String, fallback: String) -> String {
        var result = words(name).map(capitalized).joined()
        if result.isEmpty { result = fallback }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        if reservedTypes.contains(result) { result += "_" }
        return result
    }

    /// `from_subaccount` → `fromSubaccount`; `Ok` → `ok`; keywords in backticks.
    static func memberName(_ name: String, fallback: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return fallback }
        var result: String
        if first.uppercased() == first, first.count > 1, parts.count == 1 {
            result = first.lowercased()
        } else {
            result = first.prefix(1).lowercased() + first.dropFirst() + parts.dropFirst().map(capitalized).joined()
        }
        if let initial = result.unicodeScalars.first, ("0"..."9").contains(initial) { result = "_" + result }
        if reservedMembers.contains(result) { result += "_" }
        return escaped(result)
    }

    static func escaped(_ name: String) -> String { keywords.contains(name) ? "`\(name)`" : name }

    /// Makes names unique within one scope, keeping the first spelling and numbering the rest.
    struct Scope {
        private var used: Set<String> = []
        init(reserved: Set<String> = []) { used = reserved }
        mutating func claim(_ name: String) -> String {
            var candidate = name
            var counter = 2
            while used.contains(candidate.trimmingBackticks) {
                candidate = escaped(name.trimmingBackticks + String(counter))
                counter += 1
            }
            used.insert(candidate.trimmingBackticks)
            return candidate
        }
    }
}

extension String {
    var trimmingBackticks: String { filter { $0 != "`" } }
}
