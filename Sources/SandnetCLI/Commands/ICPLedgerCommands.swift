import ArgumentParser
import CandidCoding
import Foundation
import ICPAgent
import ICPIdentity
import ICPLedgerService
import ICPRPC

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Talks to the ICP ledger of a running `sandnet node` over the IC HTTP interface.
struct ICPLedgerClient {
    let url: String
    let agent: Agent
    let interface: CandidInterface

    init(url: String, identity: KeyIdentity?) throws {
        guard let base = URL(string: url), base.host != nil else { throw CLIError("invalid --url \(url)") }
        self.url = url
        do { interface = try CandidInterface(parsing: LedgerService.candidInterface) } catch {
            throw CLIError("the ledger interface does not parse: \(error)")
        }
        let clock: @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1_000_000_000) }
        agent = Agent(identity: identity, clock: clock) {
            path, body in
            var request = URLRequest(url: base.appendingPathComponent(path))
            request.timeoutInterval = 15
            if let body {
                request.httpMethod = "POST"
                request.setValue("application/cbor", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body)
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, [UInt8](data))
        }
    }

    /// Calls `method` with Candid text arguments; returns the reply as Candid text at the method's result types.
    func call(_ method: String, _ arguments: String, update: Bool) async throws -> (text: String, bytes: [UInt8]) {
        let arg: [UInt8]
        do { arg = try CandidTextCodec.encode(arguments, interface: interface, method: method) } catch {
            throw CLIError("cannot encode the arguments of \(method): \(error)")
        }
        let reply: AgentReply
        do {
            reply =
                update
                ? try await agent.update(canister: LedgerService.canisterID, method: method, arg: arg)
                : try await agent.query(canister: LedgerService.canisterID, method: method, arg: arg)
        } catch let error as AgentError {
            throw CLIError("\(url): \(error)")
        } catch {
            throw CLIError("cannot reach \(url): \(error.localizedDescription)")
        }
        switch reply {
        case .replied(let bytes):
            do {
                return (
                    try CandidTextCodec.decode(bytes, interface: interface, method: method, direction: .results), bytes
                )
            } catch {
                throw CLIError("the reply of \(method) does not decode: \(error)")
            }
        case .rejected(let code, let message, let errorCode):
            throw CLIError("\(method) rejected (code \(code)\(errorCode.map { ", \($0)" } ?? "")): \(message)")
        }
    }

    static func formatICP(_ e8s: UInt64) -> String {
        let fraction = String(e8s % 100_000_000)
        return "\(e8s / 100_000_000).\(String(repeating: "0", count: 8 - fraction.count) + fraction)"
    }
}

struct ICPBalanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "balance",
        abstract: "Print the ICP balance of an account on a running node's ledger.",
        discussion: "ACCOUNT is a principal, an ICRC-1 account text or a 64-hex-digit account identifier.")

    @Argument(help: "The account.")
    var account: String

    @Option(help: "The node's URL (the IC HTTP interface is served on the JSON-RPC port).")
    var url = "http://127.0.0.1:8545"

    @Flag(help: "Print only the balance in e8s.")
    var e8s = false

    func run() async throws {
        let identifier: AccountIdentifier
        do { identifier = try ICPFaucet.parseAccount(account) } catch { throw CLIError("\(error)") }
        let client = try ICPLedgerClient(url: url, identity: nil)
        let reply = try await client.call(
            "account_balance", "(record { account = \(CandidValue.blobLiteral(identifier.bytes)) })", update: false)
        struct Tokens: Decodable { var e8s: UInt64 }
        let tokens: Tokens
        do { tokens = try CandidDecoder().decode(Tokens.self, from: reply.bytes) } catch {
            throw CLIError("unexpected reply \(reply.text): \(error)")
        }
        print(e8s ? String(tokens.e8s) : "\(ICPLedgerClient.formatICP(tokens.e8s)) ICP (\(tokens.e8s) e8s)")
    }
}

struct ICPTransferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transfer",
        abstract: "Send ICP on a running node's ledger, signed with a mnemonic or PEM key.",
        discussion: """
            To a 64-hex-digit account identifier the legacy `transfer` method is used (with --memo); to a principal \
            or an ICRC-1 account, `icrc1_transfer`. created_at_time is set to now, so a repeated command within \
            the same nanosecond is a duplicate, as with dfx.
            """)

    @Option(help: "Destination: principal, ICRC-1 account text, or account identifier (hex).")
    var to: String

    @Option(help: "Amount in ICP (up to 8 decimals).")
    var amount: String

    @Option(help: "Memo (nat64) for the legacy transfer.")
    var memo: UInt64 = 0

    @Option(help: "Fee in e8s (default: the ledger's 10000).")
    var fee: UInt64 = 10_000

    @OptionGroup var key: ICPKeyOptions

    @Option(help: "The node's URL.")
    var url = "http://127.0.0.1:8545"

    func validate() throws { try key.validate(required: true) }

    func run() async throws {
        guard let identity = try key.identity() else { throw CLIError("give --mnemonic or --pem") }
        let e8s = try ICPAmount.parse(amount, flag: "--amount")
        let now = UInt64(Date().timeIntervalSince1970 * 1_000_000_000)
        let client = try ICPLedgerClient(url: url, identity: identity)
        let trimmed = to.hasPrefix("0x") ? String(to.dropFirst(2)) : to
        let reply: (text: String, bytes: [UInt8])
        if trimmed.count == 64, trimmed.allSatisfy(\.isHexDigit) {
            let destination: AccountIdentifier
            do { destination = try AccountIdentifier(hex: trimmed) } catch { throw CLIError("--to: \(error)") }
            reply = try await client.call(
                "transfer",
                """
                (record { memo = \(memo) : nat64; amount = record { e8s = \(e8s) : nat64 }; \
                fee = record { e8s = \(fee) : nat64 }; from_subaccount = null; \
                to = \(CandidValue.blobLiteral(destination.bytes)); \
                created_at_time = opt record { timestamp_nanos = \(now) : nat64 } })
                """, update: true)
        } else {
            let account: Account
            do { account = try Account(text: to) } catch { throw CLIError("--to: \(error)") }
            reply = try await client.call(
                "icrc1_transfer",
                """
                (record { to = \(account.candidText); \
                amount = \(e8s) : nat; fee = opt (\(fee) : nat); memo = null; from_subaccount = null; \
                created_at_time = opt (\(now) : nat64) })
                """, update: true)
        }
        print(reply.text)
        if reply.text.contains("variant { Err") { throw ExitCode(1) }
    }
}
