import ArgumentParser
import Foundation
import HDWallet
import ICPIdentity

/// The key of an ICP identity: a mnemonic (secp256k1 at m/44'/223'/0'/0/0 unless --path) or a PEM file.
struct ICPKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("BIP-39 mnemonic in quotes, or '-' to read it from standard input.", valueName: "words"))
    var mnemonic: String?

    @Option(help: "BIP-39 passphrase for --mnemonic.")
    var passphrase: String = ""

    @Option(help: "BIP-32 path for --mnemonic (default m/44'/223'/0'/0/0).")
    var path: String?

    @Option(
        help: ArgumentHelp("PEM file with the private key (Ed25519 or secp256k1, as dfx writes it).", valueName: "file")
    )
    var pem: String?

    func validate(required: Bool) throws {
        if mnemonic != nil && pem != nil { throw ValidationError("give only one of --mnemonic and --pem") }
        if required && mnemonic == nil && pem == nil {
            throw ValidationError("give exactly one of --mnemonic and --pem")
        }
        if path != nil && mnemonic == nil { throw ValidationError("--path goes with --mnemonic") }
    }

    /// The identity, or nil when neither option was given.
    func identity() throws -> KeyIdentity? {
        if let mnemonic {
            let sentence: String
            if mnemonic == "-" {
                guard let line = readLine(strippingNewline: true) else {
                    throw CLIError("no mnemonic on standard input")
                }
                sentence = line
            } else {
                sentence = mnemonic
            }
            var derivation = DerivationPath.icp
            if let path {
                do { derivation = try DerivationPath(parsing: path) } catch { throw CLIError("--path: \(error)") }
            }
            do { return try KeyIdentity(mnemonic: sentence, passphrase: passphrase, path: derivation) } catch {
                throw CLIError("--mnemonic: \(error)")
            }
        }
        guard let file = pem else { return nil }
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
        do { return try KeyIdentity(pem: String(decoding: data, as: UTF8.self)) } catch {
            throw CLIError("\(file): \(error)")
        }
    }
}
