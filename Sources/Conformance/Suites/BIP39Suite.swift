import ByteCoding
import HDWallet

/// trezor/python-mnemonic `vectors.json` (all 12 language sections, passphrase "TREZOR"; Russian and Turkish
/// with the non-standard lists from the vector store) and bip32JP's `test_JP_BIP39.json`. Each case passes
/// when all four directions hold: entropy → sentence, sentence → entropy, sentence → seed, seed → xprv.
public struct BIP39Suite: VectorSuite {
    public let name = "bip39"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        do {
            let file = try store.json("bip39/vectors.json")
            for (section, cases) in (file.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                let wordlist: Wordlist
                do {
                    wordlist = try Self.wordlist(named: section, store: store)
                } catch {
                    report.fail("\(section) wordlist", input: section, expected: "a wordlist", actual: "\(error)")
                    continue
                }
                for (index, test) in (cases.arrayValue ?? []).enumerated() {
                    let fields = test.arrayValue?.compactMap(\.stringValue) ?? []
                    guard fields.count == 4 else {
                        report.fail("\(section) #\(index)", input: test.compactText, expected: "4 strings", actual: "")
                        continue
                    }
                    check(
                        "\(section) #\(index)", entropy: fields[0], phrase: fields[1], passphrase: "TREZOR",
                        seed: fields[2], xprv: fields[3], wordlist: wordlist, into: &report)
                }
            }
            let japanese = try store.json("bip39/test_JP_BIP39.json")
            let wordlist = try Wordlist.official(.japanese)
            for (index, test) in (japanese.arrayValue ?? []).enumerated() {
                guard let entropy = test["entropy"]?.stringValue, let phrase = test["mnemonic"]?.stringValue,
                    let passphrase = test["passphrase"]?.stringValue, let seed = test["seed"]?.stringValue,
                    let xprv = test["bip32_xprv"]?.stringValue
                else {
                    report.fail("JP #\(index)", input: test.compactText, expected: "5 fields", actual: "missing")
                    continue
                }
                check(
                    "JP #\(index)", entropy: entropy, phrase: phrase, passphrase: passphrase, seed: seed, xprv: xprv,
                    wordlist: wordlist, into: &report)
            }
        } catch {
            report.fail("load", input: store.root, expected: "readable vector files", actual: "\(error)")
        }
        return report
    }

    /// An official list by its file name, else a list from `bip39/wordlists_nonstandard/` in the store.
    static func wordlist(named name: String, store: VectorStore) throws -> Wordlist {
        if let language = MnemonicLanguage(rawValue: name) { return try Wordlist.official(language) }
        return try Wordlist(name: name, contents: try store.text("bip39/wordlists_nonstandard/\(name).txt"))
    }

    func check(
        _ id: String, entropy entropyHex: String, phrase: String, passphrase: String, seed seedHex: String,
        xprv: String, wordlist: Wordlist, into report: inout SuiteReport
    ) {
        do {
            let entropy = try Hex.decode(entropyHex)
            let fromEntropy = try Mnemonic(entropy: entropy, wordlist: wordlist)
            guard fromEntropy.phrase == phrase else {
                return report.fail(
                    id + " entropy→words", input: entropyHex, expected: phrase, actual: fromEntropy.phrase)
            }
            let parsed = try Mnemonic(phrase: phrase, wordlist: wordlist)
            guard parsed.entropy == entropy else {
                return report.fail(
                    id + " words→entropy", input: phrase, expected: entropyHex, actual: Hex.encode(parsed.entropy))
            }
            let seed = parsed.seed(passphrase: passphrase)
            guard Hex.encode(seed) == seedHex.lowercased() else {
                return report.fail(id + " seed", input: phrase, expected: seedHex, actual: Hex.encode(seed))
            }
            report.check(id + " xprv", input: seedHex, expected: xprv, actual: try ExtendedKey(seed: seed).serialized)
        } catch {
            report.fail(id, input: phrase, expected: "no error", actual: "\(error)")
        }
    }
}
