import ArgumentParser
import ByteCoding
import CryptoCore
import EthereumTypes

struct AddressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "address", abstract: "Ethereum address utilities.",
        subcommands: [Checksum.self, FromKey.self])

    struct Checksum: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print the EIP-55 checksummed form of an address.")

        @Argument(help: "0x + 40 hex digits (mixed case must already carry a valid checksum).")
        var address: String

        func run() throws {
            do { print(try Address(parsing: address).checksummed) } catch { throw CLIError("\(error)") }
        }
    }

    struct FromKey: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-key", abstract: "Address of a secp256k1 private key or public key (hex).")

        @Argument(help: "32-byte private key, or 33/65-byte public key, as hex.")
        var key: String

        func run() throws {
            let bytes: [UInt8]
            do { bytes = try Hex.decode(key) } catch { throw CLIError("invalid hex: \(error)") }
            let publicKey: [UInt8]
            do {
                publicKey =
                    bytes.count == 32
                    ? try Secp256k1.publicKey(of: bytes)
                    : try Secp256k1.normalize(publicKey: bytes, compressed: false)
            } catch {
                throw CLIError("\(error)")
            }
            print(Address(publicKey: publicKey)!.checksummed)
        }
    }
}
