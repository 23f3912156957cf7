import ArgumentParser
import ByteCoding
import KeccakHashing

struct KeccakCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keccak",
        abstract: "Keccak-256 of a 0x-prefixed hex byte string or of UTF-8 text.")

    @Argument(help: "Input: 0x-prefixed hex is hashed as bytes, anything else as UTF-8 text.")
    var input: String

    @Flag(help: "Hash the argument as UTF-8 text even when it starts with 0x.")
    var text = false

    func run() throws {
        let bytes: [UInt8]
        if !text && input.hasPrefix("0x") {
            do { bytes = try Hex.decode(input) } catch { throw CLIError("invalid hex input: \(error)") }
        } else {
            bytes = Array(input.utf8)
        }
        print(Hex.encodePrefixed(Keccak256.hash(bytes)))
    }
}
