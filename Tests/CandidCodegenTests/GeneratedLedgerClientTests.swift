import CandidCodegen
import CandidCoding
import DevNetwork
import Foundation
import GeneratedLedgerClient
import ICPAgent
import ICPIdentity
import ICPLedgerService
import SandnetServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client generated from the ledger interface Sandnet serves (`LedgerService.candidInterface`), checked in as
/// `Tests/GeneratedLedgerClient/LedgerCanister.swift` and compiled by the package: it must equal a fresh generation,
/// round-trip values, and call the ICP mock over HTTP.
@Suite(.serialized) struct GeneratedLedgerClientTests {
    static let checkedInPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("GeneratedLedgerClient/LedgerCanister.swift").path

    static func freshGeneration() throws -> String {
        let program = try DIDProgram(parsing: LedgerService.candidInterface, file: "ledger.did")
        return SwiftClientGenerator(name: "LedgerCanister", access: .public, sourceName: "ledger.did")
            .generate(program)
    }

    /// Drift fails: regenerate with `SANDNET_REGENERATE=1 swift test --filter GeneratedLedgerClientTests`.
    @Test func checkedInClientEqualsAFreshGeneration() throws {
        let fresh = try Self.freshGeneration()
        if ProcessInfo.processInfo.environment["SANDNET_REGENERATE"] == "1" {
            try Data(fresh.utf8).write(to: URL(fileURLWithPath: Self.checkedInPath))
        }
        let checkedIn = try String(contentsOfFile: Self.checkedInPath, encoding: .utf8)
        #expect(checkedIn == fresh)
    }

    @Test func valuesRoundTripThroughTheLedgerTypes() throws {
        let arguments = LedgerCanister.TransferArg(
            fromSubaccount: nil,
            to: LedgerCanister.Account(owner: .anonymous, subaccount: [UInt8](repeating: 7, count: 32)),
            amount: CandidNat(123_456), fee: CandidNat(10_000), memo: [1, 2, 3], createdAtTime: nil)
        let interface = LedgerCanister.interface
        let function = try interface.method("icrc1_transfer")
        let types = try CandidArgumentTypes(function.arguments, environment: interface.environment)
        let bytes = try CandidSerializer.encode([arguments.candidValue], as: types)
        let decoded = try CandidDeserializer.decode(bytes, as: types)
        #expect(try LedgerCanister.TransferArg(candidValue: decoded[0]) == arguments)

        let error = LedgerCanister.Icrc1TransferResult.err(.insufficientFunds(.init(balance: CandidNat(5))))
        let resultTypes = try CandidArgumentTypes(function.results, environment: interface.environment)
        let replyBytes = try CandidSerializer.encode([error.candidValue], as: resultTypes)
        let reply = try CandidDeserializer.decode(replyBytes, as: resultTypes)
        #expect(try LedgerCanister.Icrc1TransferResult(candidValue: reply[0]) == error)

        // A wrong shape names where it is wrong.
        let wrong = #expect(throws: CandidConversionError.self) {
            try LedgerCanister.TransferArg(
                candidValue: .makeRecord([
                    CandidField("to", .makeRecord([CandidField("owner", .text("x"))])),
                    CandidField("amount", .nat(CandidNat(1))),
                ]))
        }
        #expect(wrong?.description == "to.owner: expected principal, found \"x\"")
    }

    static func agent(port: Int, identity: KeyIdentity?) -> Agent {
        let transport: Agent.Transport = { path, body in
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            if let body {
                request.httpMethod = "POST"
                request.httpBody = Data(body)
                request.setValue("application/cbor", forHTTPHeaderField: "Content-Type")
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, [UInt8](data))
        }
        var agent = Agent(
            identity: identity, clock: { UInt64(Date().timeIntervalSince1970 * 1e9) }, transport: transport)
        agent.pollInterval = 5_000_000
        return agent
    }

    @Test func generatedClientCallsTheICPMockOverHTTP() async throws {
        var configuration = DevelopmentNetwork.Configuration()
        configuration.icp?.identities = 2
        let network = try DevelopmentNetwork(configuration: configuration)
        let funded = try #require(network.icp?.identities.first)
        let recipient = try #require(network.icp?.identities.last)
        var serverConfiguration = ServerConfiguration()
        serverConfiguration.port = 0
        let server = NodeServer(network: network, configuration: serverConfiguration)
        let task = Task { try await server.run(handleSignals: false) }
        defer { task.cancel() }
        let port = try #require(await server.waitUntilListening())

        let client = LedgerCanister.Client(
            agent: Self.agent(port: port, identity: funded), canisterID: LedgerService.canisterID)
        let from = LedgerCanister.Account(owner: funded.principal, subaccount: nil)
        let to = LedgerCanister.Account(owner: recipient.principal, subaccount: nil)
        let start = try await client.icrc1BalanceOf(from)
        #expect(start == CandidNat(10_000 * 100_000_000))
        #expect(try await client.icrc1Fee() == CandidNat(10_000))
        #expect(try await client.icrc1Symbol() == "ICP")

        let transfer = LedgerCanister.TransferArg(
            fromSubaccount: nil, to: to, amount: CandidNat(250_000), fee: nil, memo: nil, createdAtTime: nil)
        guard case .ok = try await client.icrc1Transfer(transfer) else {
            Issue.record("the transfer did not succeed")
            return
        }
        #expect(try await client.icrc1BalanceOf(to) == CandidNat(10_000 * 100_000_000 + 250_000))
        #expect(try await client.icrc1BalanceOf(from) == CandidNat(10_000 * 100_000_000 - 250_000 - 10_000))

        // The ledger's own error, as a typed value.
        let tooMuch = LedgerCanister.TransferArg(
            fromSubaccount: nil, to: to, amount: CandidNat(UInt64.max), fee: nil, memo: nil, createdAtTime: nil)
        let refused = try await client.icrc1Transfer(tooMuch)
        guard case .err(.insufficientFunds(let funds)) = refused else {
            Issue.record("expected InsufficientFunds, got \(refused)")
            return
        }
        #expect(funds.balance == CandidNat(10_000 * 100_000_000 - 260_000))

        // A reject (no such canister) is a typed error too.
        let elsewhere = LedgerCanister.Client(
            agent: Self.agent(port: port, identity: funded), canisterID: try Principal(text: "aaaaa-aa"))
        await #expect {
            _ = try await elsewhere.icrc1Fee()
        } throws: { error in
            guard let error = error as? CanisterCallError else { return false }
            if case .rejected = error { return true }
            return false
        }
    }
}
