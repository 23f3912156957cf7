import ArgumentParser
import EthereumTypes
import Foundation
import JSONCoding
import NativeContracts

/// `sandnet node`'s token flags: extra native tokens by flag or file, or none of the defaults.
struct TokenOptions: ParsableArguments {
    @Option(
        name: .customLong("token"),
        help:
            "An extra native token: ADDRESS:SYMBOL:DECIMALS[:PROFILE[:NAME]] (profile openzeppelin5 by default; repeatable)."
    )
    var tokens: [String] = []

    @Option(
        name: .customLong("tokens-file"),
        help:
            "A JSON file of extra native tokens: [{\"address\", \"name\", \"symbol\", \"decimals\", \"profile\", \"holders\": {\"0x…\": \"1000.5\"}}] (holdings in whole tokens)."
    )
    var tokensFile: String?

    @Flag(help: "No default tokens (USDC, WETH, LINK, USDT) and no Multicall3.")
    var noDefaultTokens = false

    static let profiles = TokenProfile.allCases.map(\.rawValue).joined(separator: ", ")

    /// The registry these flags ask for, checked (clashing addresses or symbols, bad decimals or profiles fail).
    func registry() throws -> NativeContractRegistry {
        var list = noDefaultTokens ? [] : TokenDefinition.sepoliaDefaults
        for text in tokens { list.append(try Self.parse(flag: text)) }
        if let tokensFile { list += try Self.parse(file: tokensFile) }
        if let problem = NativeContractRegistry.validate(list) { throw CLIError("tokens: \(problem)") }
        return NativeContractRegistry(tokens: list, multicall3: !noDefaultTokens)
    }

    static func profile(_ text: String, _ context: String) throws -> TokenProfile {
        guard let profile = TokenProfile(rawValue: text.lowercased()) else {
            throw CLIError("\(context): unknown profile '\(text)' (one of \(profiles))")
        }
        return profile
    }

    /// `ADDRESS:SYMBOL:DECIMALS[:PROFILE[:NAME]]`.
    static func parse(flag text: String) throws -> TokenDefinition {
        let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3 else {
            throw CLIError("--token \(text): expected ADDRESS:SYMBOL:DECIMALS[:PROFILE[:NAME]]")
        }
        let address: Address
        do { address = try Address(parsing: parts[0]) } catch { throw CLIError("--token \(text): \(error)") }
        guard let decimals = UInt8(parts[2]) else { throw CLIError("--token \(text): decimals must be 0…77") }
        let profile = parts.count > 3 ? try Self.profile(parts[3], "--token \(text)") : .openZeppelin5
        return TokenDefinition(
            address: address, name: parts.count > 4 ? parts[4] : parts[1], symbol: parts[1], decimals: decimals,
            profile: profile)
    }

    static func parse(file path: String) throws -> [TokenDefinition] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read --tokens-file \(path)")
        }
        let json: JSON
        do { json = try JSON.parse([UInt8](data)) } catch { throw CLIError("--tokens-file \(path): \(error)") }
        guard let items = json.arrayValue else {
            throw CLIError("--tokens-file \(path): expected a JSON array of tokens")
        }
        var out: [TokenDefinition] = []
        for (i, item) in items.enumerated() {
            let context = "--tokens-file \(path), token \(i)"
            guard let addressText = item["address"]?.stringValue, let symbol = item["symbol"]?.stringValue else {
                throw CLIError("\(context): needs \"address\" and \"symbol\"")
            }
            let address: Address
            do { address = try Address(parsing: addressText) } catch { throw CLIError("\(context): \(error)") }
            var decimals: UInt8 = 18
            if let d = item["decimals"] {
                guard case .number(let text) = d, let value = UInt8(text) else {
                    throw CLIError("\(context): decimals must be 0…77")
                }
                decimals = value
            }
            let profile = try item["profile"]?.stringValue.map { try Self.profile($0, context) } ?? .openZeppelin5
            var holders: [TokenDefinition.Holding] = []
            if let map = item["holders"] {
                guard case .object(let members) = map else {
                    throw CLIError("\(context): holders must map addresses to amounts")
                }
                for (holderText, amount) in members {
                    let holder: Address
                    do { holder = try Address(parsing: holderText) } catch { throw CLIError("\(context): \(error)") }
                    let text: String
                    switch amount {
                    case .string(let s): text = s
                    case .number(let n): text = n
                    default: throw CLIError("\(context): amount of \(holderText) must be a number of whole tokens")
                    }
                    do {
                        holders.append(
                            .init(holder: holder, amount: try Units.parse(number: text, decimals: Int(decimals))))
                    } catch {
                        throw CLIError("\(context): amount of \(holderText): \(error)")
                    }
                }
            }
            out.append(
                TokenDefinition(
                    address: address, name: item["name"]?.stringValue ?? symbol, symbol: symbol, decimals: decimals,
                    profile: profile, holders: holders))
        }
        return out
    }
}
