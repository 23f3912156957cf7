import ArgumentParser
import ByteCoding
import CryptoCore
import Foundation
import HDWallet
import SecretStorage

/// Where a signing key comes from: exactly one of a raw private key, a BIP-39 mnemonic with a BIP-32 path, or a
/// Web3 Secret Storage keystore file.
struct KeyOptions: ParsableArguments {
    @Option(
        name: .customLong("private-key"),
        help: ArgumentHelp(
            "32-byte secp256k1 private key as hex, or '-' to read it from standard input (keeps it out of ps).",
            valueName: "hex"))
    var privateKey: String?

    @Option(
        help: ArgumentHelp(
            "BIP-39 mnemonic sentence in quotes, or '-' to read it from standard input.", valueName: "words"))
    var mnemonic: String?

    @Option(help: "BIP-32 path for --mnemonic (default m/44'/60'/0'/0/0).")
    var path: String?

    @Option(help: "BIP-39 passphrase for --mnemonic (the \"25th word\").")
    var passphrase: String = ""

    @Option(help: ArgumentHelp("Web3 Secret Storage v3 keystore file.", valueName: "file"))
    var keystore: String?

    @OptionGroup var password: PasswordOptions

    func validate() throws {
        let sources = [privateKey, mnemonic, keystore].compactMap { $0 }.count
        guard sources == 1 else {
            throw ValidationError("give exactly one key source: --private-key, --mnemonic (with --path) or --keystore")
        }
        if path != nil && mnemonic == nil { throw ValidationError("--path goes with --mnemonic") }
        if (password.passwordFile != nil || password.passwordEnv != nil) && keystore == nil {
            throw ValidationError("--password-file and --password-env go with --keystore")
        }
    }

    /// The validated key bytes.
    func load() throws -> [UInt8] {
        let key: [UInt8]
        if let privateKey {
            let text = privateKey == "-" ? try Self.standardInputLine("private key") : privateKey
            do { key = try Hex.decode(text.trimmingCharacters(in: .whitespaces)) } catch {
                throw CLIError("--private-key: invalid hex (\(error))")
            }
        } else if let mnemonic {
            key = try Self.derive(
                sentence: mnemonic == "-" ? try Self.standardInputLine("mnemonic") : mnemonic, path: path,
                passphrase: passphrase)
        } else if let keystore {
            let file: Keystore
            do { file = try Keystore(contentsOf: keystore) } catch { throw CLIError("\(error)") }
            let secret = try password.password(prompt: "Password: ")
            do { key = try file.decrypt(password: secret) } catch { throw CLIError("\(keystore): \(error)") }
        } else {
            throw CLIError("give a key source: --private-key, --mnemonic or --keystore")
        }
        guard Secp256k1.isValidPrivateKey(key) else {
            throw CLIError("--private-key: not a valid secp256k1 private key (need 32 bytes in [1, n-1])")
        }
        return key
    }

    static func derive(sentence: String, path: String?, passphrase: String) throws -> [UInt8] {
        let mnemonic: Mnemonic
        do { mnemonic = try Mnemonic(phrase: sentence) } catch { throw CLIError("--mnemonic: \(error)") }
        let derivationPath: DerivationPath
        if let path {
            do { derivationPath = try DerivationPath(parsing: path) } catch { throw CLIError("--path: \(error)") }
        } else {
            derivationPath = .ethereum(index: 0)
        }
        do {
            let key = try ExtendedKey(seed: mnemonic.seed(passphrase: passphrase)).derived(derivationPath)
            guard let privateKey = key.privateKey else { throw CLIError("--path gave no private key") }
            return privateKey
        } catch let error as CLIError { throw error } catch { throw CLIError("--path: \(error)") }
    }

    static func standardInputLine(_ what: String) throws -> String {
        guard let line = readLine(strippingNewline: true) else { throw CLIError("no \(what) on standard input") }
        return line
    }
}
