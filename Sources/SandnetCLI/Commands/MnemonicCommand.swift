import ArgumentParser
import ByteCoding
import EthereumTransactions
import Foundation
import HDWallet

struct MnemonicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mnemonic", abstract: "BIP-39 mnemonics: generate one, print its seed, derive keys (BIP-32/44).",
        subcommands: [New.self, Seed.self, Derive.self])

    /// Options shared by the commands that read a sentence.
    struct SentenceOptions: ParsableArguments {
        @Argument(help: "The mnemonic sentence in quotes, or '-' to read it from standard input.")
        var words: String

        @Option(help: "BIP-39 passphrase (the \"25th word\"); NFKD-normalised like the words.")
        var passphrase: String = ""

        @Option(help: "Wordlist of the sentence; detected from the words when omitted.")
        var language: String?

        func mnemonic() throws -> Mnemonic {
            var sentence = words
            if sentence == "-" {
                let data = FileHandle.standardInput.readDataToEndOfFile()
                sentence = String(decoding: data, as: UTF8.self)
            }
            do {
                if let language {
                    return try Mnemonic(phrase: sentence, language: try MnemonicCommand.language(named: language))
                }
                return try Mnemonic(phrase: sentence)
            } catch let error as MnemonicError {
                throw CLIError("\(error)")
            }
        }
    }

    static func language(named name: String) throws -> MnemonicLanguage {
        guard let language = MnemonicLanguage(name: name) else {
            let known = MnemonicLanguage.allCases.map(\.rawValue).joined(separator: ", ")
            throw CLIError("unknown language '\(name)'; one of: \(known)")
        }
        return language
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a new random mnemonic (OpenSSL's CSPRNG).",
            discussion: "Languages: " + MnemonicLanguage.allCases.map(\.rawValue).joined(separator: ", ") + ".")

        @Option(help: "Number of words: 12, 15, 18, 21 or 24.")
        var words = 12

        @Option(help: "Wordlist language.")
        var language = "english"

        func run() throws {
            let language = try MnemonicCommand.language(named: language)
            do {
                print(try Mnemonic.generate(wordCount: words, language: language).phrase)
            } catch {
                throw CLIError("\(error)")
            }
        }
    }

    struct Seed: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a mnemonic and print its 64-byte BIP-39 seed as hex.")

        @OptionGroup var sentence: SentenceOptions

        func run() throws {
            print(Hex.encode(try sentence.mnemonic().seed(passphrase: sentence.passphrase)))
        }
    }

    struct Derive: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Derive a key from a mnemonic: path, Ethereum address and public key.",
            discussion: """
                The default path is m/44'/60'/0'/0/0; --index I means m/44'/60'/0'/0/I. The private key is \
                printed only with --show-private-key.
                """)

        @OptionGroup var sentence: SentenceOptions

        @Option(help: "BIP-32 path, e.g. m/44'/60'/0'/0/0 or m/44h/223h/0h/0/0.")
        var path: String?

        @Option(help: "Ethereum account index: the path m/44'/60'/0'/0/INDEX.")
        var index: UInt32?

        @Flag(help: "Also print the private key (hex).")
        var showPrivateKey = false

        func validate() throws {
            if path != nil && index != nil { throw ValidationError("use either --path or --index, not both") }
            if let index, index >= DerivationPath.hardenedOffset { throw ValidationError("--index must be below 2^31") }
        }

        func run() throws {
            let derivationPath: DerivationPath
            if let path {
                do { derivationPath = try DerivationPath(parsing: path) } catch { throw CLIError("\(error)") }
            } else {
                derivationPath = .ethereum(index: index ?? 0)
            }
            let mnemonic = try sentence.mnemonic()
            let key: ExtendedKey
            do {
                key = try ExtendedKey(seed: mnemonic.seed(passphrase: sentence.passphrase)).derived(derivationPath)
            } catch {
                throw CLIError("\(error)")
            }
            print("path: \(derivationPath)")
            print("address: \(key.ethereumAddress.checksummed)")
            print("public key: \(Hex.encodePrefixed(key.publicKey))")
            if showPrivateKey, let privateKey = key.privateKey {
                print("private key: \(Hex.encodePrefixed(privateKey))")
            }
        }
    }
}
