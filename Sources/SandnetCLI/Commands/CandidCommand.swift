import ArgumentParser
import ByteCoding
import CandidCodegen
import CandidCoding
import Foundation

/// Candid in the manner of dfinity's didc.
struct CandidCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "candid",
        abstract: "Encode, decode and check Candid (in the manner of didc); generate Swift clients.",
        subcommands: [Encode.self, Decode.self, Check.self, Generate.self])

    /// Loads a .did file with its imports (relative to the file).
    static func loadProgram(_ file: String) throws -> DIDProgram {
        do {
            return try DIDProgram.load(path: file) { path in
                FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            }
        } catch {
            throw CLIError("\(error)")
        }
    }

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

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate Swift types and an async client from a .did file (imports followed).",
            discussion: """
                Writes <Name>.swift into --output (or prints it): a namespace enum with one Swift type per .did
                definition, in the file's order with its doc comments, and a Client with one async method per service
                method over Sandnet's ICPAgent. The generated code imports CandidCoding, ICPAgent and ICPIdentity.
                """)

        @Argument(help: "The .did file.")
        var file: String

        @Option(help: "Directory to write <Name>.swift into; printed to standard output when omitted.")
        var output: String?

        @Option(help: "Access level of the generated declarations: public, package or internal.")
        var access: String = "public"

        @Option(help: "Name of the generated namespace (default: the file name in UpperCamelCase).")
        var name: String?

        func run() throws {
            guard let level = SwiftClientGenerator.AccessLevel(rawValue: access) else {
                throw CLIError("--access must be public, package or internal, not \(access)")
            }
            let program = try CandidCommand.loadProgram(file)
            let stem = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let namespace = name ?? SwiftClientGenerator.defaultName(forFile: stem)
            guard SwiftClientGenerator.isValidName(namespace) else {
                throw CLIError("--name must be a Swift identifier, not \(namespace)")
            }
            let generator = SwiftClientGenerator(
                name: namespace, access: level, sourceName: URL(fileURLWithPath: file).lastPathComponent)
            let source = generator.generate(program)
            guard let output else {
                print(source, terminator: "")
                return
            }
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            let path = (output as NSString).appendingPathComponent("\(namespace).swift")
            do {
                try Data(source.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                throw CLIError("cannot write \(path): \(error)")
            }
            print("wrote \(path)")
        }
    }
}
