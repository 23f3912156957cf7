import ArgumentParser

/// `sandnet`: the command-line entry point.
@main
struct SandnetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandnet",
        abstract: "A local proving ground for wallet developers: codecs, keys, vectors and simulators.",
        version: SandnetVersion.current,
        subcommands: [
            VectorsCommand.self, KeccakCommand.self, RLPCommand.self, AddressCommand.self, UnitsCommand.self,
            MnemonicCommand.self, KeystoreCommand.self, TxCommand.self, SignCommand.self, NodeCommand.self,
            FaucetCommand.self, TokenCommand.self, CandidCommand.self, ICPCommand.self, ScenarioCommand.self,
            CrashWriterCommand.self, WalletConnectCommand.self,
        ]
    )

    /// Sets up the allocator (``Allocator``) before any other thread allocates, then runs the command.
    static func main() async {
        Allocator.configure()
        await main(nil)
    }
}

enum SandnetVersion {
    static let current = "0.1.0"
}

/// A user-facing failure: printed as one line by ArgumentParser, exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
