import ByteCoding
import HDWallet
import Testing

@Suite struct MnemonicTests {
    static let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func entropyRoundTripInEveryLengthAndLanguage() throws {
        for language in MnemonicLanguage.allCases {
            for length in Mnemonic.entropyLengths {
                let entropy = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
                let mnemonic = try Mnemonic(entropy: entropy, language: language)
                #expect(mnemonic.words.count == length * 3 / 4)
                #expect(mnemonic.wordlistName == language.rawValue)
                let parsed = try Mnemonic(phrase: mnemonic.phrase, language: language)
                #expect(parsed.entropy == entropy)
                #expect(parsed.words == mnemonic.words)
            }
        }
    }

    @Test func knownEnglishVector() throws {
        let mnemonic = try Mnemonic(entropy: [UInt8](repeating: 0, count: 16))
        #expect(mnemonic.phrase == Self.abandon)
        #expect(
            Hex.encode(mnemonic.seed(passphrase: "TREZOR"))
                == "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04"
        )
    }

    @Test(arguments: [0, 1, 15, 17, 31, 33, 64])
    func invalidEntropyLength(bytes: Int) {
        #expect(throws: MnemonicError.invalidEntropyLength(bytes)) {
            try Mnemonic(entropy: [UInt8](repeating: 1, count: bytes))
        }
    }

    @Test func wrongWordCount() {
        #expect(throws: MnemonicError.invalidWordCount(11)) {
            try Mnemonic(phrase: Array(repeating: "abandon", count: 11).joined(separator: " "), language: .english)
        }
        #expect(throws: MnemonicError.invalidWordCount(0)) { try Mnemonic(phrase: "  ", language: .english) }
        #expect(throws: MnemonicError.invalidWordCount(13)) {
            try Mnemonic(phrase: Self.abandon + " about")
        }
        #expect(throws: MnemonicError.invalidWordCount(13)) { try Mnemonic.generate(wordCount: 13) }
    }

    @Test func unknownWordNamesWordAndPosition() {
        let phrase = "abandon abandon zzzz abandon abandon abandon abandon abandon abandon abandon abandon about"
        #expect(throws: MnemonicError.unknownWord("zzzz", position: 3, language: "english")) {
            try Mnemonic(phrase: phrase, language: .english)
        }
        // Detection reports against the list that knows most of the words.
        #expect(throws: MnemonicError.unknownWord("zzzz", position: 3, language: "english")) {
            try Mnemonic(phrase: phrase)
        }
        #expect(throws: MnemonicError.unknownWord("qqq", position: 1, language: nil)) {
            try Mnemonic(phrase: Array(repeating: "qqq", count: 12).joined(separator: " "))
        }
        let error = MnemonicError.unknownWord("zzzz", position: 3, language: "english")
        #expect(error.description == "word 3 'zzzz' is not in the english wordlist")
    }

    @Test func badChecksum() {
        let phrase = Array(repeating: "abandon", count: 12).joined(separator: " ")
        #expect(throws: MnemonicError.invalidChecksum) { try Mnemonic(phrase: phrase, language: .english) }
        #expect(throws: MnemonicError.invalidChecksum) { try Mnemonic(phrase: phrase) }
        // Two words swapped.
        let swapped = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about abandon"
        #expect(throws: MnemonicError.invalidChecksum) { try Mnemonic(phrase: swapped) }
    }

    @Test func languageDetection() throws {
        let entropy: [UInt8] = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 11 &+ 3) }
        for language in MnemonicLanguage.allCases {
            let phrase = try Mnemonic(entropy: entropy, language: language).phrase
            let detected = try Mnemonic(phrase: phrase)
            #expect(detected.entropy == entropy, "\(language)")
            // The two Chinese lists share characters; either may be chosen when the entropy agrees.
            if language != .chineseTraditional { #expect(detected.wordlistName == language.rawValue) }
        }
        // All-zero entropy spells the same characters in both Chinese lists: simplified comes first.
        let chinese = try Mnemonic(entropy: [UInt8](repeating: 0, count: 16), language: .chineseTraditional)
        #expect(try Mnemonic(phrase: chinese.phrase).wordlistName == "chinese_simplified")
    }

    @Test func nfkdAndIdeographicSpace() throws {
        let japanese = try Mnemonic(entropy: [UInt8](repeating: 0x7f, count: 16), language: .japanese)
        #expect(japanese.phrase.contains("\u{3000}"))
        #expect(!japanese.phrase.contains(" "))
        // The same sentence typed with ASCII spaces and in composed (NFC) form parses to the same entropy and seed.
        let typed = japanese.words.joined(separator: " ").precomposedStringWithCanonicalMapping
        let parsed = try Mnemonic(phrase: typed, language: .japanese)
        #expect(parsed.entropy == japanese.entropy)
        #expect(parsed.seed(passphrase: "x") == japanese.seed(passphrase: "x"))
        #expect(Mnemonic.seed(phrase: typed, passphrase: "x") == japanese.seed(passphrase: "x"))
        // Spanish accents: NFC input matches the NFKD wordlist.
        let spanish = try Mnemonic(entropy: [UInt8](repeating: 0, count: 16), language: .spanish)
        #expect(try Mnemonic(phrase: spanish.phrase.precomposedStringWithCanonicalMapping).wordlistName == "spanish")
        // The passphrase is NFKD-normalised: composed and decomposed forms give one seed.
        let composed = "caf\u{e9} \u{338d}"  // é and the ㎍ compatibility character
        let decomposed = "cafe\u{301} \u{3bc}g"
        #expect(japanese.seed(passphrase: composed) == japanese.seed(passphrase: decomposed))
        #expect(japanese.seed(passphrase: composed) != japanese.seed(passphrase: "cafe"))
    }

    @Test func generate() throws {
        for count in Mnemonic.wordCounts {
            let mnemonic = try Mnemonic.generate(wordCount: count, language: .korean)
            #expect(mnemonic.words.count == count)
            #expect(try Mnemonic(phrase: mnemonic.phrase).entropy == mnemonic.entropy)
        }
        #expect(try Mnemonic.generate().entropy != Mnemonic.generate().entropy)
    }

    @Test func descriptionHidesTheWords() throws {
        let mnemonic = try Mnemonic(phrase: Self.abandon)
        #expect(!"\(mnemonic)".contains("abandon"))
        #expect("\(mnemonic)" == "Mnemonic(12 words, english, redacted)")
    }

    @Test func wordlists() throws {
        for language in MnemonicLanguage.allCases {
            let list = try Wordlist.official(language)
            #expect(list.words.count == 2048)
            #expect(list.index(of: list.words[2047]) == 2047)
        }
        #expect(throws: MnemonicError.invalidWordlist("tiny has 2 words, not 2048")) {
            try Wordlist(name: "tiny", words: ["a", "b"])
        }
        var words = try Wordlist.official(.english).words
        words[1] = words[0]
        #expect(throws: MnemonicError.invalidWordlist("copy repeats 'abandon'")) {
            try Wordlist(name: "copy", words: words)
        }
        words[1] = ""
        #expect(throws: MnemonicError.invalidWordlist("copy word 2 is empty or contains whitespace")) {
            try Wordlist(name: "copy", words: words)
        }
    }

    @Test func languageNames() {
        #expect(MnemonicLanguage(name: "english") == .english)
        #expect(MnemonicLanguage(name: "zh-hans") == .chineseSimplified)
        #expect(MnemonicLanguage(name: "Chinese_Traditional") == .chineseTraditional)
        #expect(MnemonicLanguage(name: "ja") == .japanese)
        #expect(MnemonicLanguage(name: "klingon") == nil)
    }
}
