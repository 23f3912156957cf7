/// The ten official BIP-39 wordlists (bitcoin/bips `bip-0039/`), in the order language detection tries them.
public enum MnemonicLanguage: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case english
    case japanese
    case korean
    case spanish
    case chineseSimplified = "chinese_simplified"
    case chineseTraditional = "chinese_traditional"
    case french
    case italian
    case czech
    case portuguese

    /// The wordlist file name without `.txt`, also the name accepted on the command line.
    public var description: String { rawValue }

    /// The word separator of a displayed mnemonic: U+3000 IDEOGRAPHIC SPACE for Japanese (BIP-39), else U+0020.
    /// Both become U+0020 under NFKD, so the seed does not depend on it.
    public var separator: String { self == .japanese ? "\u{3000}" : " " }

    /// Parses a language name: the raw value, or a short alias (`zh-hans`, `zh-hant`, `ja`, `ko`, …).
    public init?(name: String) {
        let key = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if let language = MnemonicLanguage(rawValue: key) {
            self = language
            return
        }
        let aliases: [String: MnemonicLanguage] = [
            "en": .english, "ja": .japanese, "jp": .japanese, "ko": .korean, "es": .spanish,
            "zh_hans": .chineseSimplified, "zh_cn": .chineseSimplified, "zh_hant": .chineseTraditional,
            "zh_tw": .chineseTraditional, "fr": .french, "it": .italian, "cs": .czech, "pt": .portuguese,
        ]
        guard let language = aliases[key] else { return nil }
        self = language
    }
}
