import ArgumentParser
import ByteCoding
import CryptoCore
import Foundation

/// Where a signing key comes from.
///
/// TODO(wallet-keys): `--mnemonic "…" --path m/44'/60'/0'/0/0` and `--keystore FILE` are wired in when the
/// HD-wallet and secret-storage modules of the wallet-keys branch merge.
struct KeyOptions: ParsableArguments {
    @Option(
        name: .customLong("private-key"),
        help: ArgumentHelp(
            "32-byte secp256k1 private key as hex, or '-' to read it from standard input (keeps it out of ps).",
            valueName: "hex"))
    var privateKey: String

    /// The validated key bytes.
    func load() throws -> [UInt8] {
        var text = privateKey
        if text == "-" {
            guard let line = readLine(strippingNewline: true) else {
                throw CLIError("no private key on standard input")
            }
            text = line
        }
        let key: [UInt8]
        do { key = try Hex.decode(text.trimmingCharacters(in: .whitespaces)) } catch {
            throw CLIError("--private-key: invalid hex (\(error))")
        }
        guard Secp256k1.isValidPrivateKey(key) else {
            throw CLIError("--private-key: not a valid secp256k1 private key (need 32 bytes in [1, n-1])")
        }
        return key
    }
}
