import ArgumentParser
import ByteCoding
import EthereumTransactions
import EthereumTypes
import Foundation
import JSONCoding

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sandnet token list | balance | transfer`, in the manner of `cast call` / `cast send`, against a running node's
/// native tokens (any node: the token list comes from the faucet's `/api/info`, everything else is JSON-RPC).
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "List native tokens, read token balances, send token transfers.",
        subcommands: [List.self, Balance.self, Transfer.self])

    struct Node: ParsableArguments {
        @Option(help: "The node's RPC URL.")
        var rpcUrl = "http://127.0.0.1:8545"
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The node's native tokens: symbol, address, decimals, name, total supply.")
        @OptionGroup var node: Node

        func run() async throws {
            let client = try TokenClient(node.rpcUrl)
            for token in try await client.tokens() {
                let supply = try await client.uint(token.address, .totalSupply)
                print(
                    "\(token.symbol)\t\(token.address)\t\(token.decimals)\t\(token.name)\t\(Units.format(supply, decimals: token.decimals))"
                )
            }
        }
    }

    struct Balance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Token balances of an address (every native token, or --token), in whole tokens.")
        @Argument(help: "The holder's address.")
        var address: String
        @Option(help: "A token symbol (USDC) or address; default every native token.")
        var token: String?
        @OptionGroup var node: Node

        func run() async throws {
            let holder: Address
            do { holder = try Address(parsing: address) } catch { throw CLIError("\(error)") }
            let client = try TokenClient(node.rpcUrl)
            var tokens = try await client.tokens()
            if let token { tokens = [try TokenClient.pick(token, from: tokens)] }
            for t in tokens {
                let balance = try await client.uint(t.address, .balanceOf(owner: holder))
                print("\(Units.format(balance, decimals: t.decimals)) \(t.symbol)")
            }
        }
    }

    struct Transfer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign a token transfer locally and send it; prints the transaction hash.",
            discussion: """
                AMOUNT is in whole tokens ("12.5" USDC is 12,500,000 units). Nonce, fees (2 × base fee + tip) and gas \
                (eth_estimateGas) come from the node; a transfer that would revert fails with the node's message.
                """)
        @Argument(help: "The recipient's address.")
        var to: String
        @Argument(help: "The amount in whole tokens, e.g. 12.5.")
        var amount: String
        @Option(help: "A token symbol (USDC) or address.")
        var token: String
        @OptionGroup var key: KeyOptions
        @OptionGroup var node: Node

        func run() async throws {
            let recipient: Address
            do { recipient = try Address(parsing: to) } catch { throw CLIError("\(error)") }
            let client = try TokenClient(node.rpcUrl)
            let t = try TokenClient.pick(token, from: try await client.tokens())
            let units: UInt256
            do { units = try Units.parse(number: amount, decimals: t.decimals) } catch {
                throw CLIError("invalid amount \(amount): \(error)")
            }
            let privateKey = try key.load()
            let probe = try Transaction.dynamicFee(
                DynamicFeeTransaction(
                    chainID: 1, nonce: 0, maxPriorityFeePerGas: .zero, maxFeePerGas: .zero, gas: 0, to: nil,
                    value: .zero)
            ).signed(privateKey: privateKey)
            let sender = try probe.recoverSender()
            let data = ERC20Call.transfer(to: recipient, amount: units).encoded()
            let call = JSON.object([
                ("from", .string(sender.lowercased)), ("to", .string(t.address.lowercased)),
                ("data", .string(Hex.encodePrefixed(data))),
            ])
            let chainID = try await client.quantity("eth_chainId", [])
            let nonce = try await client.quantity(
                "eth_getTransactionCount", [.string(sender.lowercased), .string("pending")])
            let gas = try await client.quantity("eth_estimateGas", [call])
            let tip = try await client.bigQuantity("eth_maxPriorityFeePerGas", [])
            let pending = try await client.rpc("eth_getBlockByNumber", [.string("pending"), .bool(false)])
            guard let baseText = pending["baseFeePerGas"]?.stringValue,
                let baseFee = UInt256(hexDigits: baseText.dropFirst(2))
            else {
                throw CLIError("the node's pending block has no base fee")
            }
            // Values the node sent: 2 × base fee + tip checked (a node answering near 2^256 trapped here).
            let (double, o1) = baseFee.multipliedReportingOverflow(by: UInt256(2))
            let (maxFee, o2) = double.addingReportingOverflow(tip)
            guard !o1, !o2 else {
                throw CLIError("the node's base fee \(baseFee) and tip \(tip): 2 × base fee + tip exceeds 2^256-1 wei")
            }
            let signed = try Transaction.dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee,
                    gas: gas,
                    to: t.address, value: .zero, data: data)
            ).signed(privateKey: privateKey)
            let hash = try await client.rpc("eth_sendRawTransaction", [.string(Hex.encodePrefixed(signed.encoded))])
            print(hash.stringValue ?? "\(hash)")
        }
    }
}

/// A token as the node lists it.
struct ListedToken {
    var symbol: String
    var address: Address
    var name: String
    var decimals: Int
}

/// JSON-RPC and the faucet's `/api/info` over HTTP.
struct TokenClient {
    let url: URL

    init(_ text: String) throws {
        guard let url = URL(string: text), url.host != nil else { throw CLIError("invalid --rpc-url \(text)") }
        self.url = url
    }

    func post(_ url: URL, _ body: [UInt8]?) async throws -> [UInt8] {
        var request = URLRequest(url: url)
        if let body {
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body)
        }
        request.timeoutInterval = 30
        do {
            return [UInt8](try await URLSession.shared.data(for: request).0)
        } catch {
            throw CLIError("cannot reach \(url.absoluteString): \(error.localizedDescription)")
        }
    }

    func rpc(_ method: String, _ params: [JSON]) async throws -> JSON {
        let body = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        let reply = try JSON.parse(try await post(url, body.bytes))
        if let error = reply["error"] {
            throw CLIError("\(method): \(error["message"]?.stringValue ?? "\(error)")")
        }
        return reply["result"] ?? .null
    }

    func quantity(_ method: String, _ params: [JSON]) async throws -> UInt64 {
        guard let value = try await bigQuantity(method, params).uint64Value else {
            throw CLIError("\(method): answer too large")
        }
        return value
    }

    func bigQuantity(_ method: String, _ params: [JSON]) async throws -> UInt256 {
        let result = try await rpc(method, params)
        guard let text = result.stringValue, text.hasPrefix("0x"), let value = UInt256(hexDigits: text.dropFirst(2))
        else {
            throw CLIError("\(method): expected a quantity, got \(result)")
        }
        return value
    }

    /// `eth_call` of a function returning one word.
    func uint(_ target: Address, _ call: ERC20Call) async throws -> UInt256 {
        let data = call.encoded()
        let result = try await rpc(
            "eth_call",
            [
                .object([("to", .string(target.lowercased)), ("data", .string(Hex.encodePrefixed(data)))]),
                .string("latest"),
            ])
        guard let text = result.stringValue, let bytes = try? Hex.decode(String(text.dropFirst(2))),
            let value = try? call.function.decodeOutput(bytes)[0].uintValue
        else { throw CLIError("\(call.function) at \(target.checksummed) did not answer one word") }
        return value
    }

    /// The node's tokens: `/api/info`'s list, with name and decimals read from each token.
    func tokens() async throws -> [ListedToken] {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.path = "/api/info"
        let info = try JSON.parse(try await post(components.url!, nil))
        var out: [ListedToken] = []
        for item in info["tokens"]?.arrayValue ?? [] {
            guard let symbol = item["symbol"]?.stringValue, let text = item["address"]?.stringValue,
                let address = try? Address(parsing: text)
            else { continue }
            let decimals = try await uint(address, .decimals)
            // What the node says: more than 77 decimals does not fit in uint256 (and trapped converting to Int).
            guard let places = decimals.uint64Value, places <= 77 else {
                throw CLIError("the node says \(symbol) has \(decimals) decimals; at most 77 fit in uint256")
            }
            let nameData = try await rpc(
                "eth_call",
                [
                    .object([
                        ("to", .string(address.lowercased)),
                        ("data", .string(Hex.encodePrefixed(ERC20Call.name.encoded()))),
                    ])
                ])
            let name =
                (try? ERC20ReturnValue.decodeString(try Hex.decode(String((nameData.stringValue ?? "0x").dropFirst(2)))))
                ?? symbol
            out.append(
                ListedToken(symbol: symbol, address: address, name: name, decimals: Int(places)))
        }
        guard !out.isEmpty else { throw CLIError("the node at \(url.absoluteString) lists no native tokens") }
        return out
    }

    static func pick(_ text: String, from tokens: [ListedToken]) throws -> ListedToken {
        let address = try? Address(parsing: text)
        guard let found = tokens.first(where: { $0.symbol.uppercased() == text.uppercased() || $0.address == address })
        else {
            throw CLIError("unknown token \(text): the node has \(tokens.map(\.symbol).joined(separator: ", "))")
        }
        return found
    }
}
