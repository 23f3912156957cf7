import ArgumentParser
import EthereumTypes

struct UnitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "units", abstract: "Exact conversion between wei and decimal amounts (never floating point).",
        subcommands: [ToWei.self, FromWei.self])

    struct ToWei: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "to-wei", abstract: "Convert an amount such as \"1.5 ether\" or \"20 gwei\" to wei.")

        @Argument(help: "Amount with an optional unit (wei, kwei, mwei, gwei, szabo, finney, ether).")
        var amount: String

        @Option(help: "Unit to assume when the amount has none.")
        var unit = "wei"

        func run() throws {
            do { print(try Units.parse(amount, defaultUnit: unit)) } catch { throw CLIError("\(error)") }
        }
    }

    struct FromWei: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-wei", abstract: "Convert wei (decimal or 0x hex) to a unit, exactly.")

        @Argument(help: "Wei amount, decimal or 0x-prefixed hex.")
        var wei: String

        @Option(help: "Target unit name or number of decimals.")
        var unit = "ether"

        func run() throws {
            let value: UInt256
            if wei.hasPrefix("0x") {
                do { value = try Quantity.parseUInt256(wei) } catch { throw CLIError("\(error)") }
            } else {
                guard let v = UInt256(decimal: wei.filter { $0 != "_" }) else {
                    throw CLIError("'\(wei)' is not a non-negative integer below 2^256")
                }
                value = v
            }
            guard let decimals = Units.decimals(of: unit) else { throw CLIError("unknown unit '\(unit)'") }
            print(Units.format(value, decimals: decimals))
        }
    }
}
