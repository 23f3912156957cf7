import Foundation

/// A BIP-39 wordlist: 2048 words, each an 11-bit value, stored NFKD-normalised.
///
/// The ten official lists ship as package resources (``official(_:)``); other lists (such as the
/// non-standard Russian and Turkish ones) can be built with ``init(name:words:separator:)``.
public struct Wordlist: Sendable {
    /// The list's name: a ``MnemonicLanguage`` raw value for the official lists.
    public let name: String
    /// The 2048 words in order, NFKD-normalised.
    public let words: [String]
    /// The separator used when displaying a sentence (U+3000 for Japanese).
    public let separator: String
    private let indexByWord: [String: Int]

    /// Builds a list from 2048 distinct words (normalised to NFKD here).
    /// - Throws: ``MnemonicError/invalidWordlist(_:)`` when the count is wrong, a word is empty or repeated.
    public init(name: String, words: [String], separator: String = " ") throws(MnemonicError) {
        guard words.count == 2048 else { throw .invalidWordlist("\(name) has \(words.count) words, not 2048") }
        var normalised: [String] = []
        normalised.reserveCapacity(2048)
        var index: [String: Int] = [:]
        index.reserveCapacity(2048)
        for (i, word) in words.enumerated() {
            let nfkd = word.decomposedStringWithCompatibilityMapping
            guard !nfkd.isEmpty, !nfkd.contains(where: \.isWhitespace) else {
                throw .invalidWordlist("\(name) word \(i + 1) is empty or contains whitespace")
            }
            guard index.updateValue(i, forKey: nfkd) == nil else {
                throw .invalidWordlist("\(name) repeats '\(nfkd)'")
            }
            normalised.append(nfkd)
        }
        self.name = name
        self.words = normalised
        self.separator = separator
        self.indexByWord = index
    }

    /// Parses a wordlist file: one word per line (a trailing newline is allowed).
    public init(name: String, contents: String, separator: String = " ") throws(MnemonicError) {
        var lines = contents.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
        if lines.last == "" { lines.removeLast() }
        try self.init(name: name, words: lines, separator: separator)
    }

    /// The 11-bit index of an NFKD-normalised word, or nil.
    public func index(of word: String) -> Int? { indexByWord[word] }

    /// The official list for `language`, loaded from the package resources once per process.
    public static func official(_ language: MnemonicLanguage) throws(MnemonicError) -> Wordlist {
        try OfficialWordlists.result(for: language).get()
    }
}

/// Lazily loaded official lists; Swift initialises each `static let` once, thread-safely.
enum OfficialWordlists {
    static let english = load(.english)
    static let japanese = load(.japanese)
    static let korean = load(.korean)
    static let spanish = load(.spanish)
    static let chineseSimplified = load(.chineseSimplified)
    static let chineseTraditional = load(.chineseTraditional)
    static let french = load(.french)
    static let italian = load(.italian)
    static let czech = load(.czech)
    static let portuguese = load(.portuguese)

    static func result(for language: MnemonicLanguage) -> Result<Wordlist, MnemonicError> {
        switch language {
        case .english: return english
        case .japanese: return japanese
        case .korean: return korean
        case .spanish: return spanish
        case .chineseSimplified: return chineseSimplified
        case .chineseTraditional: return chineseTraditional
        case .french: return french
        case .italian: return italian
        case .czech: return czech
        case .portuguese: return portuguese
        }
    }

    static func load(_ language: MnemonicLanguage) -> Result<Wordlist, MnemonicError> {
        guard
            let url = Bundle.module.url(forResource: language.rawValue, withExtension: "txt", subdirectory: "wordlists")
        else { return .failure(.wordlistUnavailable(language.rawValue)) }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(.wordlistUnavailable("\(language.rawValue) (\(url.path): \(error.localizedDescription))"))
        }
        return Result { () throws(MnemonicError) -> Wordlist in
            try Wordlist(
                name: language.rawValue, contents: String(decoding: data, as: UTF8.self),
                separator: language.separator)
        }
    }
}
