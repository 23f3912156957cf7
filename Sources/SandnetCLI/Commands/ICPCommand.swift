import ArgumentParser
import ByteCoding
import Foundation
import HDWallet
import ICPIdentity

/// `sandnet icp …`: Internet Computer principals and account identifiers.
struct ICPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "icp", abstract: "Internet Computer principals and ledger account identifiers.",
        subcommands: [PrincipalCommand.self, AccountIDCommand.self])

    struct PrincipalCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "principal",
            abstract: "Print the self-authenticating principal and default account id of a key.",
            discussion: """
                --mnemonic derives a secp256k1 key at m/44'/223'/0'/0/0 (dfx, agent-js, IcpKit). --pem reads a \
                secp256k1 'EC PRIVATE KEY' (SEC 1) or a 'PRIVATE KEY' (PKCS #8) holding Ed25519 or secp256k1, \
                as dfx and OpenSSL write them.
                """)

        @Option(
            help: ArgumentHelp("BIP-39 mnemonic in quotes, or '-' to read it from standard input.", valueName: "words"))
        var mnemonic: String?

        @Option(help: "BIP-39 passphrase for --mnemonic.")
        var passphrase: String = ""

        @Option(help: "BIP-32 path for --mnemonic (default m/44'/223'/0'/0/0).")
        var path: String?

        @Option(help: ArgumentHelp("PEM file with the private key.", valueName: "file"))
        var pem: String?

        func validate() throws {
            guard (mnemonic == nil) != (pem == nil) else {
                throw ValidationError("give exactly one of --mnemonic and --pem")
            }
            if path != nil && mnemonic == nil { throw ValidationError("--path goes with --mnemonic") }
        }

        func run() throws {
            let identity: KeyIdentity
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
                do { identity = try KeyIdentity(mnemonic: sentence, passphrase: passphrase, path: derivation) } catch {
                    throw CLIError("--mnemonic: \(error)")
                }
            } else {
                let file = pem ?? ""
                guard let data = FileManager.default.contents(atPath: file) else {
                    throw CLIError("cannot read \(file)")
                }
                do { identity = try KeyIdentity(pem: String(decoding: data, as: UTF8.self)) } catch {
                    throw CLIError("\(file): \(error)")
                }
            }
            print("principal: \(identity.principal)")
            print("account id: \(AccountIdentifier(principal: identity.principal).hex)")
            print("key type: \(identity.algorithm.rawValue)")
            print("public key (DER): \(Hex.encode(identity.publicKey.der))")
        }
    }

    struct AccountIDCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "account-id",
            abstract: "Print the ICP ledger account identifier of a principal and subaccount.")

        @Argument(help: "Principal text, e.g. 2vxsx-fae.")
        var principal: String

        @Option(help: ArgumentHelp("Subaccount as up to 64 hex digits (left-padded with zeros).", valueName: "hex"))
        var subaccount: String?

        func run() throws {
            let owner: Principal
            do { owner = try Principal(text: principal) } catch { throw CLIError("\(principal): \(error)") }
            var sub: Subaccount?
            if var hex = subaccount {
                if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex.removeFirst(2) }
                guard !hex.isEmpty, hex.utf8.count <= 64 else {
                    throw CLIError("--subaccount: need 1 to 64 hex digits, got \(hex.utf8.count)")
                }
                do {
                    sub = try Subaccount(
                        bytes: try Hex.decode(String(repeating: "0", count: 64 - hex.utf8.count) + hex))
                } catch {
                    throw CLIError("--subaccount: \(error)")
                }
            }
            print(AccountIdentifier(principal: owner, subaccount: sub).hex)
        }
    }
}
