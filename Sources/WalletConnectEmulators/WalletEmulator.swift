import ByteCoding
import Foundation
import JSONCoding
import Synchronization
import WalletConnect

/// A scriptable wallet for dApp developers (README, "WalletConnect v2"): pairs with a `wc:` URI, answers session
/// proposals by policy (approve with the node's dev accounts on its chain id, or reject with a spec code), and
/// answers session requests through the node: `personal_sign`, `eth_signTypedData_v4`, `eth_sign`,
/// `eth_signTransaction` and `eth_sendTransaction` are the node's own methods over its dev keys (so a sent
/// transaction has a real receipt); `wallet_switchEthereumChain` succeeds for the node's chain only (4902 else).
public final class WalletEmulator: Sendable {
    /// How proposals are answered.
    public enum Policy: Sendable, Equatable {
        case approve
        /// An error response on the pairing topic (tag 1120), e.g. 5000 "User rejected." or 5100 unsupported chains.
        case reject(code: Int, message: String)
        /// No answer (the proposal expires on the dApp's side).
        case ignore
    }

    public struct Configuration: Sendable {
        public var accounts: [String]
        public var chainID: UInt64
        public var policy: Policy = .approve
        public var methods = [
            "personal_sign", "eth_sign", "eth_signTypedData_v4", "eth_signTransaction", "eth_sendTransaction",
            "wallet_switchEthereumChain", "wallet_addEthereumChain",
        ]
        public var events = ["chainChanged", "accountsChanged"]
        public var metadata = SignMessage.metadata(
            name: "Sandnet wallet emulator", description: "Sandnet's WalletConnect v2 wallet emulator",
            url: "https://sandnet.local", icons: [])

        public init(accounts: [String], chainID: UInt64) {
            self.accounts = accounts
            self.chainID = chainID
        }
    }

    /// Calls the node (method, params) and returns the result, or throws its error.
    public typealias NodeCall = @Sendable (_ method: String, _ params: [JSON]) async throws -> JSON

    /// What the wallet did, in order (for people and assertions): "pair …", "approve …", "request personal_sign …".
    public var journal: [String] { state.withLock { $0.journal } }

    /// Session topics approved and not deleted.
    public var sessions: [String] { state.withLock { Array($0.sessions).sorted() } }

    struct State {
        var journal: [String] = []
        var sessions: Set<String> = []
        var policy: Policy
    }

    let peer: SignPeer
    let configuration: Configuration
    let node: NodeCall
    let state: Mutex<State>
    let reader = Mutex<Task<Void, Never>?>(nil)

    init(relay: RelayClient, configuration: Configuration, node: @escaping NodeCall) {
        peer = SignPeer(relay: relay)
        self.configuration = configuration
        self.node = node
        state = Mutex(State(policy: configuration.policy))
    }

    /// Connects to a relay and starts answering.
    public static func start(relayURL: String, configuration: Configuration, node: @escaping NodeCall) async throws
        -> WalletEmulator
    {
        let wallet = WalletEmulator(
            relay: try await RelayClient.connect(url: relayURL), configuration: configuration, node: node)
        let task = wallet.peer.start { [wallet] topic, request in await wallet.answer(topic, request) }
        wallet.reader.withLock { $0 = task }
        return wallet
    }

    /// Changes how the next proposals are answered.
    public func setPolicy(_ policy: Policy) { state.withLock { $0.policy = policy } }

    /// Pairs with a URI (raw, percent-encoded once or twice, or a deep link) and says how it was encoded.
    public func pair(_ text: String) async throws -> PairingURI.Encoding {
        let (uri, encoding) = try PairingURI.parse(text, now: Int64(Date().timeIntervalSince1970))
        note("pair \(uri.topic) (\(encoding.rawValue))")
        try await peer.follow(uri.topic, symKey: uri.symKey)
        return encoding
    }

    /// Ends a session (`wc_sessionDelete`, 6000 "User disconnected.").
    public func disconnect(_ topic: String) async throws {
        _ = try await peer.request(
            topic, method: "wc_sessionDelete",
            params: .object([("code", .int(6000)), ("message", .string("User disconnected."))]))
        peer.forget(topic)
        _ = state.withLock { $0.sessions.remove(topic) }
    }

    /// Emits a session event (`chainChanged`, `accountsChanged`).
    public func emit(_ topic: String, name: String, data: JSON) async throws -> JSON {
        try await peer.request(
            topic, method: "wc_sessionEvent",
            params: .object([
                ("event", .object([("name", .string(name)), ("data", data)])),
                ("chainId", .string("eip155:\(configuration.chainID)")),
            ]))
    }

    public func close() {
        peer.relay.close()
        reader.withLock { $0?.cancel() }
    }

    func note(_ line: String) { state.withLock { $0.journal.append(line) } }

    func answer(_ topic: String, _ request: JSON) async -> JSON? {
        let id = request["id"] ?? .null
        let method = request["method"]?.stringValue ?? ""
        let params = request["params"] ?? .null
        switch method {
        case "wc_sessionPropose":
            return await propose(topic, request)
        case "wc_sessionRequest":
            let call = params["request"]
            let name = call?["method"]?.stringValue ?? ""
            note("request \(name)")
            do {
                return SignMessage.result(id: id, try await perform(name, call?["params"]?.arrayValue ?? []))
            } catch let failure as WalletFailure {
                return SignMessage.error(id: id, code: failure.code, message: failure.message)
            } catch {
                return SignMessage.error(id: id, code: 5000, message: "\(error)")
            }
        case "wc_sessionDelete":
            note("delete \(topic)")
            peer.forget(topic)
            _ = state.withLock { $0.sessions.remove(topic) }
            return SignMessage.result(id: id, .bool(true))
        case "wc_sessionPing", "wc_pairingPing", "wc_sessionExtend", "wc_sessionUpdate", "wc_sessionEvent",
            "wc_pairingDelete":
            note(method)
            return SignMessage.result(id: id, .bool(true))
        default:
            return SignMessage.error(id: id, code: 10001, message: "Unsupported wc_ method. \(method)")
        }
    }

    struct WalletFailure: Error {
        var code: Int
        var message: String
    }

    func perform(_ method: String, _ params: [JSON]) async throws -> JSON {
        switch method {
        case "personal_sign", "eth_sign", "eth_signTypedData_v4", "eth_signTransaction", "eth_sendTransaction":
            return try await node(method, params)
        case "wallet_switchEthereumChain", "wallet_addEthereumChain":
            let wanted = params.first?["chainId"]?.stringValue ?? ""
            guard wanted.lowercased() == "0x" + String(configuration.chainID, radix: 16) else {
                throw WalletFailure(code: 4902, message: "Unrecognized chain ID \(wanted).")
            }
            return .null
        default:
            throw WalletFailure(code: 5101, message: "Unsupported methods. \(method)")
        }
    }

    func propose(_ pairingTopic: String, _ request: JSON) async -> JSON? {
        let id = request["id"] ?? .null
        let policy = state.withLock { $0.policy }
        switch policy {
        case .ignore:
            note("ignore proposal")
            return nil
        case .reject(let code, let message):
            note("reject proposal \(code)")
            do {
                try await peer.respond(
                    pairingTopic, to: request, with: SignMessage.error(id: id, code: code, message: message), tag: 1120)
            } catch {
                note("rejection not sent: \(error)")
            }
            return nil
        case .approve:
            break
        }
        guard let keyText = request["params"]?["proposer"]?["publicKey"]?.stringValue,
            let proposerKey = try? Hex.decode(keyText)
        else {
            return SignMessage.error(id: id, code: 5000, message: "proposal without proposer.publicKey")
        }
        do {
            let (privateKey, publicKey) = SessionCrypto.newKeyPair()
            let sessionKey = try SessionCrypto.symmetricKey(privateKey: privateKey, peerPublicKey: proposerKey)
            let sessionTopic = SessionCrypto.topic(symKey: sessionKey)
            try await peer.follow(sessionTopic, symKey: sessionKey)
            _ = state.withLock { $0.sessions.insert(sessionTopic) }
            note("approve \(sessionTopic)")
            let namespaces = SignMessage.eip155Namespace(
                chainIDs: [configuration.chainID], addresses: configuration.accounts, methods: configuration.methods,
                events: configuration.events)
            let settle = SignMessage.settlement(
                publicKey: Hex.encode(publicKey), metadata: configuration.metadata, namespaces: namespaces,
                expiry: Int64(Date().timeIntervalSince1970) + 7 * 86_400)
            // The settlement waits for the dApp's acknowledgement on its own task.
            Task { [peer, self] in
                do {
                    let ack = try await peer.request(sessionTopic, method: "wc_sessionSettle", params: settle)
                    note(ack["result"] == .bool(true) ? "settled \(sessionTopic)" : "settle refused \(ack.serialized)")
                } catch {
                    note("settle failed: \(error)")
                }
            }
            return SignMessage.result(
                id: id,
                .object([
                    ("relay", .object([("protocol", .string("irn"))])),
                    ("responderPublicKey", .string(Hex.encode(publicKey))),
                ]))
        } catch {
            return SignMessage.error(id: id, code: 5000, message: "\(error)")
        }
    }
}
