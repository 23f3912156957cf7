import ArgumentParser
import ByteCoding
import Foundation
import JSONCoding
import SandnetServer
import WalletConnect
import WalletConnectEmulators

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sandnet node`'s WalletConnect v2 relay flags (README, "WalletConnect v2").
struct WalletConnectRelayOptions: ParsableArguments {
    @Option(help: "Also serve the WalletConnect v2 relay at / on this port (0: a free one); it is always at /relay.")
    var relayPort: Int?

    @Option(help: "Relay client JWT checks: permissive (any aud, no token allowed) or strict (as the hosted relay).")
    var relayAuth = "permissive"

    @Option(help: "Accepted JWT aud in --relay-auth strict (repeatable; none: any).")
    var relayAudience: [String] = []

    @Option(help: "Accepted project id (repeatable; none: any).")
    var relayProjectId: [String] = []

    @Option(help: #"Relay faults armed at start, as JSON counts, e.g. '{"dropDeliveries":1}'."#)
    var relayFaults: String?

    @Flag(help: "Serve no WalletConnect relay.")
    var noRelay = false

    func apply(to server: inout ServerConfiguration) throws {
        guard !noRelay else {
            server.walletConnect = nil
            return
        }
        guard let mode = RelayAdmission.Mode(rawValue: relayAuth) else {
            throw ValidationError("--relay-auth must be permissive or strict, not \(relayAuth)")
        }
        var relay = WalletConnectRelayConfiguration()
        relay.admission = RelayAdmission(
            mode: mode, audiences: relayAudience, projectIDs: Set(relayProjectId))
        if let relayFaults {
            do {
                relay.faults = try RelayFaults(json: try JSON.parse(relayFaults))
            } catch {
                throw ValidationError("--relay-faults: \(error)")
            }
        }
        if let relayPort, !(0...65_535).contains(relayPort) {
            throw ValidationError("--relay-port must be 0 to 65535")
        }
        server.walletConnect = relay
        server.walletConnectPort = relayPort
    }
}

/// `sandnet walletconnect …`: WalletConnect tools. v2 here; a v1 `pair` path may join under the same command.
struct WalletConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walletconnect",
        abstract: "WalletConnect v2 tools: pairing URIs, relay JWTs, the relay's faults and log.",
        subcommands: [Pair.self, Propose.self, Parse.self, NewURI.self, JWT.self, Faults.self, Log.self])

    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pair",
            abstract: "Run the wallet emulator: pair with a dApp's wc: URI and answer it with the node's dev accounts.")

        @Argument(help: "The dApp's wc: URI (raw, percent-encoded, or a deep link).")
        var uri: String

        @Option(help: "The node's JSON-RPC URL (its relay is at /relay on the same port).")
        var rpcUrl = "http://127.0.0.1:8545"

        @Option(help: "Reject proposals with this code (5000: user rejected; 5100: unsupported chains).")
        var reject: Int?

        @Option(help: "Seconds to keep answering before exiting.")
        var seconds = 600

        func run() async throws {
            let rpcUrl = self.rpcUrl
            let chain = try await WalletConnectCommand.call(rpcUrl, "eth_chainId", [])
            let accounts = try await WalletConnectCommand.call(rpcUrl, "eth_accounts", [])
            guard let chainText = chain.stringValue, let chainID = UInt64(chainText.dropFirst(2), radix: 16) else {
                throw CLIError("eth_chainId answered \(chain.serialized)")
            }
            var configuration = WalletEmulator.Configuration(
                accounts: (accounts.arrayValue ?? []).compactMap(\.stringValue), chainID: chainID)
            if let reject { configuration.policy = .reject(code: reject, message: "Rejected by the wallet emulator.") }
            let wallet = try await WalletEmulator.start(
                relayURL: WalletConnectCommand.relayURL(rpcUrl), configuration: configuration
            ) { method, params in try await WalletConnectCommand.call(rpcUrl, method, params) }
            defer { wallet.close() }
            let encoding = try await wallet.pair(uri)
            print("paired (URI \(encoding.rawValue)); answering for \(seconds) s")
            var shown = 0
            for _ in 0..<seconds {
                try await Task.sleep(for: .seconds(1))
                let journal = wallet.journal
                for line in journal.dropFirst(shown) { print(line) }
                shown = journal.count
                fflush(nil)
            }
        }
    }

    struct Propose: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "propose",
            abstract:
                "Run the dApp emulator: print a pairing URI, wait for the wallet's session, then ask for a personal_sign."
        )

        @Option(help: "The node's JSON-RPC URL (its relay is at /relay on the same port).")
        var rpcUrl = "http://127.0.0.1:8545"

        @Option(help: "Chain id proposed (CAIP-2 eip155:N).")
        var chainId: UInt64 = 11_155_111

        @Option(help: "App metadata as JSON (malformed cases welcome: icons missing or empty, odd URLs).")
        var metadata: String?

        @Option(help: "Message to personal_sign once the session is settled (empty: skip).")
        var sign = "hello from sandnet"

        @Flag(help: "Then ask for an eth_sendTransaction (1 wei to itself) and check its receipt on the node.")
        var sendTransaction = false

        func run() async throws {
            let dapp = try await DAppEmulator.start(relayURL: WalletConnectCommand.relayURL(rpcUrl))
            defer { dapp.close() }
            let meta: JSON
            do {
                meta = try metadata.map { try JSON.parse($0) } ?? DAppEmulator.metadata
            } catch {
                throw ValidationError("--metadata: \(error)")
            }
            let (uri, pending) = try await dapp.propose(
                optionalNamespaces: SignMessage.eip155Namespace(
                    chainIDs: [chainId], addresses: [],
                    methods: ["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction"],
                    events: ["chainChanged", "accountsChanged"]),
                metadata: meta)
            print(uri.text)
            fflush(nil)
            let session = try await pending.value
            print("session \(session.topic) accounts \(session.addresses.joined(separator: " "))")
            if !sign.isEmpty, let account = session.addresses.first {
                let signature = try await dapp.personalSign(session, message: Array(sign.utf8), address: account)
                print("personal_sign \(signature) (recovers to \(account))")
            }
            fflush(nil)
            if sendTransaction, let account = session.addresses.first {
                let hash = try await dapp.request(
                    session, method: "eth_sendTransaction",
                    params: .array([
                        .object([("from", .string(account)), ("to", .string(account)), ("value", .string("0x1"))])
                    ]))
                let receipt = try await WalletConnectCommand.call(rpcUrl, "eth_getTransactionReceipt", [hash])
                guard let status = receipt["status"]?.stringValue else {
                    throw CLIError("eth_sendTransaction answered \(hash.serialized), which the node does not know")
                }
                print("eth_sendTransaction \(hash.stringValue ?? hash.serialized) status \(status)")
            }
        }
    }

    struct Parse: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "parse",
            abstract: "Parse a wc: URI (raw, percent-encoded, or a deep link) and print its parts.")

        @Argument(help: "The URI.")
        var uri: String

        func run() async throws {
            let now = Int64(Date().timeIntervalSince1970)
            let (parsed, encoding) = try PairingURI.parse(uri)
            var members: [(String, JSON)] = [
                ("topic", .string(parsed.topic)), ("symKey", .string(Hex.encode(parsed.symKey))),
                ("relayProtocol", .string(parsed.relayProtocol)), ("encoding", .string(encoding.rawValue)),
            ]
            if let expiry = parsed.expiryTimestamp {
                members.append(("expiryTimestamp", .int(expiry)))
                members.append(("expired", .bool(expiry <= now)))
            }
            if let methods = parsed.methods { members.append(("methods", .string(methods))) }
            print(JSON.object(members).rendered())
        }
    }

    struct NewURI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uri", abstract: "Print a new random pairing URI (and its deep link with --scheme).")

        @Option(help: "Seconds until the URI expires.")
        var ttl: Int64 = 300

        @Option(help: "A wallet's URL scheme: also print <scheme>://wc?uri=<encoded URI>.")
        var scheme: String?

        func run() async throws {
            let uri = PairingURI.random(now: Int64(Date().timeIntervalSince1970), ttl: ttl)
            print(uri.text)
            if let scheme { print(uri.deepLink(scheme: scheme)) }
        }
    }

    struct JWT: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "jwt", abstract: "Sign a relay client JWT (EdDSA over a did:key), or verify one with --verify."
        )

        @Option(help: "Ed25519 seed, 64 hex digits (default: a random one).")
        var seed: String?

        @Option(help: "The aud claim.")
        var audience = "wss://relay.walletconnect.org"

        @Option(help: "A token to parse and verify instead.")
        var verify: String?

        func run() async throws {
            let now = Int64(Date().timeIntervalSince1970)
            if let verify {
                let jwt = try RelayJWT(parsing: verify)
                let problem: String?
                do {
                    try jwt.verify(now: now)
                    problem = nil
                } catch {
                    problem = "\(error)"
                }
                print(
                    JSON.object([
                        ("iss", .string(jwt.issuer)), ("sub", .string(jwt.subject)), ("aud", .string(jwt.audience)),
                        ("iat", .int(jwt.issuedAt)), ("exp", .int(jwt.expiresAt)),
                        ("valid", .bool(problem == nil)), ("problem", problem.map(JSON.string) ?? .null),
                    ]).rendered())
                return
            }
            let key: [UInt8]
            do {
                key = try seed.map { try Hex.decode($0) } ?? SessionCrypto.randomBytes()
            } catch {
                throw ValidationError("--seed: \(error)")
            }
            print(
                try RelayJWT.sign(
                    seed: key, subject: Hex.encode(SessionCrypto.randomBytes()), audience: audience, issuedAt: now,
                    expiresAt: now + 86_400))
        }
    }

    struct Faults: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "faults",
            abstract: "Arm relay faults on a running node (sandnet_setWalletConnectFaults), or print those armed.")

        @Option(help: "The node's JSON-RPC URL.")
        var rpcUrl = "http://127.0.0.1:8545"

        @Argument(help: #"Counts as JSON, e.g. '{"dropDeliveries":1,"withholdPublishAcks":1}'; none: print."#)
        var faults: String?

        func run() async throws {
            let params: [JSON]
            if let faults {
                do {
                    params = [try JSON.parse(faults)]
                } catch {
                    throw ValidationError("faults: \(error)")
                }
            } else {
                params = []
            }
            let method = faults == nil ? "sandnet_getWalletConnectFaults" : "sandnet_setWalletConnectFaults"
            print(try await WalletConnectCommand.call(rpcUrl, method, params).rendered())
        }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "log", abstract: "Print the relay's recent publishes (method, topic, tag, TTL, prompt).")

        @Option(help: "The node's JSON-RPC URL.")
        var rpcUrl = "http://127.0.0.1:8545"

        func run() async throws {
            print(try await WalletConnectCommand.call(rpcUrl, "sandnet_walletConnectLog", []).rendered())
        }
    }

    /// The relay of the node at `rpcUrl`: the same host and port, path `/relay`.
    static func relayURL(_ rpcUrl: String) throws -> String {
        guard let url = URLComponents(string: rpcUrl), let host = url.host else {
            throw ValidationError("--rpc-url \(rpcUrl) is not a URL")
        }
        let scheme = url.scheme == "https" ? "wss" : "ws"
        return "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")/relay"
    }

    static func call(_ url: String, _ method: String, _ params: [JSON]) async throws -> JSON {
        guard let endpoint = URL(string: url) else { throw ValidationError("--rpc-url \(url) is not a URL") }
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(
            JSON.object([
                ("jsonrpc", .string("2.0")), ("id", .int(1)), ("method", .string(method)), ("params", .array(params)),
            ]).bytes)
        let (data, _) = try await URLSession.shared.data(for: request)
        let reply = try JSON.parse([UInt8](data))
        if let error = reply["error"] {
            throw CLIError("\(method): \(error["message"]?.stringValue ?? error.serialized)")
        }
        return reply["result"] ?? .null
    }
}
