import ArgumentParser
import ByteCoding
import Foundation
import HDWallet
import ICPIdentity

/// `sandnet icp …`: Internet Computer principals and account identifiers.
struct ICPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "icp",
        abstract: "Internet Computer principals, account identifiers, and the ICP ledger of a running node.",
        subcommands: [
            PrincipalCommand.self, AccountIDCommand.self, ICPBalanceCommand.self, ICPTransferCommand.self,
        ])

    struct PrincipalCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "principal",
            abstract: "Print the self-authenticating principal and default account id of a key.",
            discussion: """
                --mnemonic derives a secp256k1 key at m/44'/223'/0'/0/0 (dfx, agent-js, IcpKit). --pem reads a \
                secp256k1 'EC PRIVATE KEY' (SEC 1) or a 'PRIVATE KEY' (PKCS #8) holding Ed25519 or secp256k1, \
                as dfx and OpenSSL write them.
                """)

        @OptionGroup var key: ICPKeyOptions

        func validate() throws { try key.validate(required: true) }

        func run() throws {
            guard let identity = try key.identity() else { throw CLIError("give --mnemonic or --pem") }
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
