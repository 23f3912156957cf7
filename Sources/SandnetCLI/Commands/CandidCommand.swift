import ArgumentParser
import ByteCoding
import CandidCoding
import Foundation

/// Candid in the manner of dfinity's didc.
struct CandidCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "candid", abstract: "Encode, decode and check Candid (in the manner of didc).",
        subcommands: [Encode.self, Decode.self, Check.self])

    struct InterfaceOptions: ParsableArguments {
        @Option(help: "A .did file whose service method gives the types.")
        var did: String?

        @Option(help: "The service method (with --did).")
        var method: String?

        @Flag(help: "Use the method's result types instead of its argument types.")
        var results = false

        func interface() throws -> CandidInterface? {
            guard let did else { return nil }
            guard let data = FileManager.default.contents(atPath: did) else { throw CLIError("cannot read \(did)") }
            do {
                return try CandidInterface(parsing: String(decoding: data, as: UTF8.self))
            } catch {
                throw CLIError("\(did): \(error)")
            }
        }
    }

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Textual Candid arguments → hex, e.g. '(42 : nat, \"hi\")'.")

        @Argument(help: "The argument list in Candid text syntax.")
        var arguments: String

        @Option(help: "Argument types, e.g. '(nat, text)'; inferred from the text when omitted.")
        var types: String?

        @OptionGroup var interfaceOptions: InterfaceOptions

        func run() throws {
            do {
                let bytes: [UInt8]
                if let interface = try interfaceOptions.interface() {
                    guard let method = interfaceOptions.method else { throw CLIError("--did needs --method") }
                    bytes = try CandidTextCodec.encode(
                        arguments, interface: interface, method: method,
                        direction: interfaceOptions.results ? .results : .arguments)
                } else {
                    bytes = try CandidTextCodec.encode(arguments, types: types)
                }
                print(Hex.encode(bytes))
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("\(error)")
            }
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Candid bytes (hex) → text.")

        @Argument(help: "The message as hex (DIDL…).")
        var hex: String

        @Option(help: "Expected types, e.g. '(nat, text)'; without them the wire types are printed.")
        var types: String?

        @OptionGroup var interfaceOptions: InterfaceOptions

        func run() throws {
            let bytes: [UInt8]
            do { bytes = try Hex.decode(hex) } catch { throw CLIError("invalid hex: \(error)") }
            do {
                if let interface = try interfaceOptions.interface() {
                    guard let method = interfaceOptions.method else { throw CLIError("--did needs --method") }
                    print(
                        try CandidTextCodec.decode(
                            bytes, interface: interface, method: method,
                            direction: interfaceOptions.results ? .results : .arguments))
                } else {
                    print(try CandidTextCodec.decode(bytes, types: types))
                }
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError("\(error)")
            }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Parse and check a .did file.")

        @Argument(help: "The .did file.")
        var file: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else { throw CLIError("cannot read \(file)") }
            do {
                print(try CandidTextCodec.checkInterface(String(decoding: data, as: UTF8.self)))
            } catch {
                throw CLIError("\(file): \(error)")
            }
        }
    }
}
