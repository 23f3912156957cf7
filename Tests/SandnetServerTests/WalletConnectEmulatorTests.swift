import Foundation
import JSONCoding
import Testing
import WalletConnect
import WalletConnectEmulators

/// Sandnet's wallet emulator and dApp emulator through the node's relay on 127.0.0.1: the full Sign API flow
/// (propose, approve, settle), a personal_sign recovered to the dev account, an eth_sendTransaction with a real
/// receipt, a rejection with the spec's code, events and delete.
@Suite struct WalletConnectEmulatorTests {
    static func withHangGuard<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                // A hang guard only, never a verdict.
                try await Task.sleep(for: .seconds(120))
                return nil
            }
            defer { group.cancelAll() }
            guard let value = try await group.next() ?? nil else { throw RelayClient.Failure("hang guard: 120 s") }
            return value
        }
    }

    @Test func fullSignFlowBetweenTheEmulators() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let url = "ws://127.0.0.1:\(node.port)/relay"
        let account = node.node.devAccounts[0].address.lowercased
        try await Self.withHangGuard {
            let wallet = try await WalletEmulator.start(
                relayURL: url, configuration: .init(accounts: [account], chainID: 11_155_111)
            ) { method, params in
                let reply = try await node.rpc(method, params)
                if let error = reply["error"] { throw RelayClient.Failure(error.serialized) }
                return reply["result"] ?? .null
            }
            defer { wallet.close() }
            let dapp = try await DAppEmulator.start(relayURL: url)
            defer { dapp.close() }
            let (uri, pending) = try await dapp.propose(
                optionalNamespaces: SignMessage.eip155Namespace(
                    chainIDs: [11_155_111], addresses: [], methods: ["personal_sign", "eth_sendTransaction"],
                    events: ["chainChanged"]))
            // The deep-link form, percent-encoded once: the wallet says how it was encoded.
            #expect(try await wallet.pair(uri.deepLink(scheme: "sandnet")) == .percentEncodedOnce)
            let session = try await pending.value
            #expect(session.addresses == [account])
            #expect(wallet.sessions == [session.topic])

            _ = try await dapp.personalSign(session, message: Array("hello".utf8), address: account)
            let hash = try await dapp.request(
                session, method: "eth_sendTransaction",
                params: .array([
                    .object([("from", .string(account)), ("to", .string(account)), ("value", .string("0x1"))])
                ]))
            let receipt = try await node.rpc("eth_getTransactionReceipt", [hash])
            #expect(receipt["result"]?["status"] == .string("0x1"))
            await #expect(throws: DAppEmulator.WalletError(code: 4902, message: "Unrecognized chain ID 0x1.")) {
                try await dapp.request(
                    session, method: "wallet_switchEthereumChain",
                    params: .array([.object([("chainId", .string("0x1"))])]))
            }
            #expect(
                try await wallet.emit(session.topic, name: "chainChanged", data: .string("0xaa36a7"))["result"]
                    == .bool(true))
            #expect(dapp.events.first?["event"]?["name"] == .string("chainChanged"))
            try await wallet.disconnect(session.topic)
            #expect(dapp.deletedSessions == [session.topic])
            // The relay saw the spec's tags: propose, its answer, settle and ack, requests and answers, event, delete.
            let tags = Set(node.server.walletConnectRelay?.log.map(\.tag) ?? [])
            #expect(tags.isSuperset(of: [1100, 1101, 1102, 1103, 1108, 1109, 1110, 1111, 1112, 1113]))

            // A rejection with the spec's code reaches the dApp as an error.
            wallet.setPolicy(.reject(code: 5000, message: "User rejected."))
            let (second, rejected) = try await dapp.propose(optionalNamespaces: .object([]))
            _ = try await wallet.pair(second.text)
            await #expect(throws: DAppEmulator.WalletError(code: 5000, message: "User rejected.")) {
                try await rejected.value
            }
        }
    }
}
