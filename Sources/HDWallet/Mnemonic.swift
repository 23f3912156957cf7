import CryptoCore
import Foundation

/// A BIP-39 mnemonic sentence and the entropy it encodes.
///
/// Words are kept NFKD-normalised, as BIP-39 requires for the seed. `description` never shows the words:
/// a mnemonic is a secret.
public struct Mnemonic: Sendable, Hashable, CustomStringConvertible {
    /// The encoded entropy, 16–32 bytes.
    public let entropy: [UInt8]
    /// The words, NFKD-normalised.
    public let words: [String]
    /// The name of the wordlist the words come from.
    public let wordlistName: String
    /// The display separator (U+3000 for Japanese).
    public let separator: String
    /// UTF-8 of NFKD(sentence): the words joined by U+0020, the PBKDF2 password.
    private let normalizedSentence: [UInt8]

    /// The sentence as it should be shown to a user (Japanese words joined by U+3000).
    public var phrase: String { words.joined(separator: separator) }

    public var description: String { "Mnemonic(\(words.count) words, \(wordlistName), redacted)" }

    /// Entropy lengths BIP-39 allows, in bytes.
    public static let entropyLengths = [16, 20, 24, 28, 32]
    /// Sentence lengths BIP-39 allows, in words.
    public static let wordCounts = [12, 15, 18, 21, 24]

    // MARK: Entropy -> words

    /// Encodes entropy as words: ENT bits followed by the first ENT/32 bits of SHA-256(entropy), 11 bits a word.
    /// - Throws: ``MnemonicError/invalidEntropyLength(_:)`` unless 16, 20, 24, 28 or 32 bytes.
    public init(entropy: [UInt8], wordlist: Wordlist) throws(MnemonicError) {
        guard Self.entropyLengths.contains(entropy.count) else { throw .invalidEntropyLength(entropy.count) }
        let checksum = Digest.sha256.hash(entropy)[0]
        let wordCount = entropy.count * 8 * 33 / 32 / 11
        var words: [String] = []
        words.reserveCapacity(wordCount)
        for w in 0..<wordCount {
            var value = 0
            for bit in (w * 11)..<(w * 11 + 11) {
                let byte = bit / 8 < entropy.count ? entropy[bit / 8] : checksum
                value = value << 1 | Int(byte >> (7 - UInt8(bit % 8)) & 1)
            }
            words.append(wordlist.words[value])
        }
        self.init(entropy: entropy, words: words, wordlist: wordlist)
    }

    /// Encodes entropy with an official wordlist.
    public init(entropy: [UInt8], language: MnemonicLanguage = .english) throws(MnemonicError) {
        try self.init(entropy: entropy, wordlist: try Wordlist.official(language))
    }

    /// A new mnemonic from `wordCount`·32/3 bits of OpenSSL's CSPRNG.
    /// - Throws: ``MnemonicError/invalidWordCount(_:)`` unless 12, 15, 18, 21 or 24.
    public static func generate(wordCount: Int = 12, language: MnemonicLanguage = .english) throws(MnemonicError)
        -> Mnemonic
    {
        guard wordCounts.contains(wordCount) else { throw .invalidWordCount(wordCount) }
        return try Mnemonic(entropy: SecureRandom.bytes(wordCount * 4 / 3), language: language)
    }

    private init(entropy: [UInt8], words: [String], wordlist: Wordlist) {
        self.entropy = entropy
        self.words = words
        self.wordlistName = wordlist.name
        self.separator = wordlist.separator
        self.normalizedSentence = Array(words.joined(separator: " ").utf8)
    }

    // MARK: Words -> entropy

    /// Parses and validates a sentence in a given wordlist. Input is NFKD-normalised first, so any Unicode
    /// form and either space (U+0020 or U+3000) is accepted.
    /// - Throws: ``MnemonicError/invalidWordCount(_:)``, ``MnemonicError/unknownWord(_:position:language:)``
    ///   (1-based position), ``MnemonicError/invalidChecksum``.
    public init(phrase: String, wordlist: Wordlist) throws(MnemonicError) {
        let words = Self.normalizedWords(phrase)
        guard Self.wordCounts.contains(words.count) else { throw .invalidWordCount(words.count) }
        var indices: [Int] = []
        indices.reserveCapacity(words.count)
        for (i, word) in words.enumerated() {
            guard let index = wordlist.index(of: word) else {
                throw .unknownWord(word, position: i + 1, language: wordlist.name)
            }
            indices.append(index)
        }
        let entropy = try Self.entropy(fromIndices: indices)
        self.init(entropy: entropy, words: words, wordlist: wordlist)
    }

    /// Parses and validates a sentence in an official language.
    public init(phrase: String, language: MnemonicLanguage) throws(MnemonicError) {
        try self.init(phrase: phrase, wordlist: try Wordlist.official(language))
    }

    /// Parses a sentence and detects its language: the official lists holding every word, narrowed to those
    /// whose checksum matches. Lists that share words (English/French, the two Chinese lists) may all match;
    /// when they decode to the same entropy the first in ``MnemonicLanguage`` order is used.
    /// - Throws: as ``init(phrase:wordlist:)``; an unknown word is reported against the list that knows the
    ///   most words of the sentence; ``MnemonicError/ambiguousLanguage(_:)`` when matches disagree.
    public init(phrase: String) throws(MnemonicError) {
        let words = Self.normalizedWords(phrase)
        guard Self.wordCounts.contains(words.count) else { throw .invalidWordCount(words.count) }
        var best: (list: Wordlist, known: Int)?
        var candidates: [Wordlist] = []
        for language in MnemonicLanguage.allCases {
            let list = try Wordlist.official(language)
            let known = words.reduce(0) { $0 + (list.index(of: $1) == nil ? 0 : 1) }
            if known == words.count { candidates.append(list) }
            if known > (best?.known ?? 0) { best = (list, known) }
        }
        guard !candidates.isEmpty else {
            guard let best else { throw .unknownWord(words[0], position: 1, language: nil) }
            let position = words.firstIndex { best.list.index(of: $0) == nil }!
            throw .unknownWord(words[position], position: position + 1, language: best.list.name)
        }
        var valid: [Mnemonic] = []
        var lastError = MnemonicError.invalidChecksum
        for list in candidates {
            do { valid.append(try Mnemonic(phrase: phrase, wordlist: list)) } catch { lastError = error }
        }
        guard let first = valid.first else { throw lastError }
        guard valid.allSatisfy({ $0.entropy == first.entropy }) else {
            throw .ambiguousLanguage(valid.map(\.wordlistName))
        }
        self = first
    }

    /// Splits an NFKD-normalised sentence on whitespace (U+3000 is U+0020 after NFKD).
    static func normalizedWords(_ phrase: String) -> [String] {
        phrase.decomposedStringWithCompatibilityMapping.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Reassembles the entropy from 11-bit indices and checks the trailing checksum bits.
    static func entropy(fromIndices indices: [Int]) throws(MnemonicError) -> [UInt8] {
        let totalBits = indices.count * 11
        let checksumBits = totalBits / 33
        let entropyBytes = (totalBits - checksumBits) / 8
        var bits = [UInt8](repeating: 0, count: (totalBits + 7) / 8)
        for (w, index) in indices.enumerated() {
            for b in 0..<11 where index >> (10 - b) & 1 == 1 {
                let bit = w * 11 + b
                bits[bit / 8] |= 0x80 >> UInt8(bit % 8)
            }
        }
        let entropy = Array(bits[0..<entropyBytes])
        let expected = Digest.sha256.hash(entropy)[0] >> (8 - UInt8(checksumBits))
        let actual = bits[entropyBytes] >> (8 - UInt8(checksumBits))
        guard expected == actual else { throw .invalidChecksum }
        return entropy
    }

    // MARK: Seed

    /// The 64-byte BIP-39 seed: PBKDF2-HMAC-SHA512(NFKD(sentence), "mnemonic" ‖ NFKD(passphrase), 2048).
    public func seed(passphrase: String = "") -> [UInt8] {
        Self.seed(normalizedSentence: normalizedSentence, passphrase: passphrase)
    }

    /// The seed of any sentence, valid or not (BIP-39 defines the seed without checking the words).
    public static func seed(phrase: String, passphrase: String = "") -> [UInt8] {
        seed(normalizedSentence: Array(normalizedWords(phrase).joined(separator: " ").utf8), passphrase: passphrase)
    }

    static func seed(normalizedSentence: [UInt8], passphrase: String) -> [UInt8] {
        var salt = Array("mnemonic".utf8)
        if passphrase.utf8.allSatisfy({ $0 < 0x80 }) {
            salt.append(contentsOf: passphrase.utf8)  // ASCII is its own NFKD
        } else {
            salt.append(contentsOf: passphrase.decomposedStringWithCompatibilityMapping.utf8)
        }
        do {
            return try KeyDerivation.pbkdf2(
                password: normalizedSentence, salt: salt, iterations: 2048, keyLength: 64, digest: .sha512)
        } catch {
            preconditionFailure("PBKDF2 with BIP-39's constant parameters failed: \(error)")
        }
    }
}
