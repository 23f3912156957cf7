/// Why entropy, a mnemonic sentence or a wordlist was rejected (BIP-39).
public enum MnemonicError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Entropy must be 16, 20, 24, 28 or 32 bytes (128–256 bits in steps of 32).
    case invalidEntropyLength(Int)
    /// A sentence must have 12, 15, 18, 21 or 24 words.
    case invalidWordCount(Int)
    /// The word at `position` (1-based) is not in the wordlist (`language`, or in any official list when the
    /// language was being detected).
    case unknownWord(String, position: Int, language: String?)
    /// Every word is in the list but the checksum bits do not match SHA-256 of the entropy.
    case invalidChecksum
    /// The words are valid in several official lists that decode to different entropy.
    case ambiguousLanguage([String])
    /// A wordlist that does not have 2048 distinct, non-empty words.
    case invalidWordlist(String)
    /// A shipped wordlist resource could not be read (a broken installation); the text names the list and why.
    case wordlistUnavailable(String)

    public var description: String {
        switch self {
        case .invalidEntropyLength(let n):
            return "entropy must be 16, 20, 24, 28 or 32 bytes, got \(n)"
        case .invalidWordCount(let n):
            return "a mnemonic has 12, 15, 18, 21 or 24 words, got \(n)"
        case .unknownWord(let word, let position, let language):
            let list = language.map { "the \($0) wordlist" } ?? "any BIP-39 wordlist"
            return "word \(position) '\(word)' is not in \(list)"
        case .invalidChecksum:
            return "invalid mnemonic checksum (a word is wrong or the words are out of order)"
        case .ambiguousLanguage(let names):
            return "the words fit several wordlists (\(names.joined(separator: ", "))); choose a language"
        case .invalidWordlist(let why):
            return "invalid wordlist: \(why)"
        case .wordlistUnavailable(let name):
            return "cannot load the BIP-39 wordlist resource \(name); the installation is incomplete"
        }
    }
}
