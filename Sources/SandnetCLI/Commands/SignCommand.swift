import ArgumentParser
import ByteCoding
import EthereumTransactions
import EthereumTypes
import Foundation

struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Sign and recover EIP-191 messages and EIP-712 typed data.",
        subcommands: [Message.self, TypedDataCommand.self, Recover.self])

    struct Message: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a message as personal_sign does (EIP-191); prints the 65-byte signature r‖s‖v.")

        @OptionGroup var key: KeyOptions

        @Argument(help: "The message: UTF-8 text, or bytes with --hex.")
        var message: String

        @Flag(help: "Treat the message as 0x hex bytes.")
        var hex = false

        func run() throws {
            let bytes = try messageBytes(message, hex: hex)
            do { print(try PersonalMessage.sign(bytes, privateKey: try key.load())) } catch let error as CLIError {
                throw error
            } catch { throw CLIError("\(error)") }
        }
    }

    struct TypedDataCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "typed-data",
            abstract: "Sign an EIP-712 document as eth_signTypedData_v4 does; prints the 65-byte signature.")

        @OptionGroup var key: KeyOptions

        @Argument(help: "JSON file with types, primaryType, domain and message ('-' for standard input).")
        var file: String

        @Flag(help: "Also print the domain separator, message hash and signing hash.")
        var verbose = false

        func run() throws {
            let data = try loadTypedData(file)
            let privateKey = try key.load()
            do {
                if verbose {
                    print("domainSeparator: " + Hex.encodePrefixed(try data.domainSeparator()))
                    print("messageHash:     " + Hex.encodePrefixed(try data.messageHash()))
                    print("signingHash:     " + Hex.encodePrefixed(try data.signingHash()))
                }
                print(try data.sign(privateKey: privateKey))
            } catch { throw CLIError("\(error)") }
        }
    }

    struct Recover: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the address that made a personal_sign or EIP-712 signature.")

        @Option(help: "The 65-byte signature r‖s‖v as 0x hex.")
        var signature: String

        @Option(name: .customLong("typed-data"), help: "EIP-712 JSON file the signature is over.")
        var typedData: String?

        @Argument(help: "The personal_sign message (UTF-8 text, or bytes with --hex); omit with --typed-data.")
        var message: String?

        @Flag(help: "Treat the message as 0x hex bytes.")
        var hex = false

        func run() throws {
            let parsed: EthereumSignature
            do { parsed = try EthereumSignature(bytes: try Hex.decode(signature)) } catch {
                throw CLIError("--signature: \(error)")
            }
            do {
                switch (typedData, message) {
                case (let file?, nil):
                    print(try loadTypedData(file).recover(signature: parsed).checksummed)
                case (nil, let message?):
                    print(
                        try PersonalMessage.recover(try messageBytes(message, hex: hex), signature: parsed).checksummed)
                default:
                    throw CLIError("give either a message or --typed-data FILE")
                }
            } catch let error as CLIError { throw error } catch { throw CLIError("\(error)") }
        }
    }
}

private func messageBytes(_ message: String, hex: Bool) throws -> [UInt8] {
    guard hex else { return Array(message.utf8) }
    do { return try Hex.decodePrefixed(message) } catch { throw CLIError("message: \(error)") }
}

private func loadTypedData(_ file: String) throws -> TypedData {
    let bytes: [UInt8]
    if file == "-" {
        bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
    } else {
        guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
        bytes = Array(data)
    }
    do { return try TypedData(json: bytes) } catch { throw CLIError("\(file): \(error)") }
}
