import ByteCoding
import EthereumTransactions
import EthereumTypes
import Foundation
import JSONCoding
import Synchronization
import WalletConnect

/// A scriptable dApp for wallet developers (README, "WalletConnect v2"): creates a pairing and its URI, proposes a
/// session with chosen namespaces and metadata (malformed metadata included), sends requests to the wallet under
/// test and checks its answers (a `personal_sign` signature is recovered to the account).
public final class DAppEmulator: Sendable {
    /// A settled session as the dApp sees it.
    public struct Session: Sendable, Equatable {
        public let topic: String
        /// The approved namespaces of the wallet's `wc_sessionSettle`.
        public let namespaces: JSON
        /// The wallet's metadata.
        public let peerMetadata: JSON
        /// Addresses of the approved CAIP-10 accounts (`eip155:CHAIN:ADDRESS`), in order.
        public var addresses: [String] {
            (namespaces["eip155"]?["accounts"]?.arrayValue ?? []).compactMap {
                $0.stringValue?.split(separator: ":").last.map(String.init)
            }
        }
    }

    /// The wallet answered with a JSON-RPC error.
    public struct WalletError: Error, Sendable, Equatable, CustomStringConvertible {
        public let code: Int
        public let message: String
        public init(code: Int, message: String) {
            self.code = code
            self.message = message
        }
        public var description: String { "wallet error \(code): \(message)" }
    }

    struct State {
        var settles: [String: JSON] = [:]
        var settleWaiters: [String: CheckedContinuation<JSON, any Error>] = [:]
        var events: [JSON] = []
        var deleted: Set<String> = []
    }

    let peer: SignPeer
    let state = Mutex(State())
    let reader = Mutex<Task<Void, Never>?>(nil)

    init(relay: RelayClient) { peer = SignPeer(relay: relay) }

    /// Connects to a relay.
    public static func start(relayURL: String) async throws -> DAppEmulator {
        let dapp = DAppEmulator(relay: try await RelayClient.connect(url: relayURL))
        let task = dapp.peer.start { [dapp] topic, request in dapp.answer(topic, request) }
        dapp.reader.withLock { $0 = task }
        return dapp
    }

    /// The sessionEvent requests received (`{event:{name,data}, chainId}`), in order.
    public var events: [JSON] { state.withLock { $0.events } }

    /// Session topics the wallet deleted.
    public var deletedSessions: Set<String> { state.withLock { $0.deleted } }

    /// The default metadata; ``propose(optionalNamespaces:requiredNamespaces:metadata:ttl:)`` takes any JSON
    /// (icons missing or empty, odd URLs: the handshake cases wallets mishandle).
    public static let metadata = SignMessage.metadata(
        name: "Sandnet dApp emulator", description: "Sandnet's WalletConnect v2 dApp emulator",
        url: "https://sandnet.local", icons: ["https://sandnet.local/icon.png"])

    /// Creates a pairing, publishes a `wc_sessionPropose` on it, and returns the URI to hand to the wallet and the
    /// task that ends with the settled session (or the wallet's rejection as a ``WalletError``).
    public func propose(
        optionalNamespaces: JSON, requiredNamespaces: JSON = .object([]), metadata: JSON = DAppEmulator.metadata,
        ttl: Int64 = 300
    ) async throws -> (uri: PairingURI, session: Task<Session, any Error>) {
        let now = Int64(Date().timeIntervalSince1970)
        let pairing = PairingURI(
            topic: Hex.encode(SessionCrypto.randomBytes()), symKey: SessionCrypto.randomBytes(),
            expiryTimestamp: now + ttl, methods: "[wc_sessionPropose],[wc_authRequest,wc_authBatchRequest]")
        let (privateKey, publicKey) = SessionCrypto.newKeyPair()
        try await peer.follow(pairing.topic, symKey: pairing.symKey)
        let params = SignMessage.proposal(
            publicKey: Hex.encode(publicKey), metadata: metadata, requiredNamespaces: requiredNamespaces,
            optionalNamespaces: optionalNamespaces, expiryTimestamp: now + ttl)
        let session = Task { [peer, self] () throws -> Session in
            let response = try await peer.request(pairing.topic, method: "wc_sessionPropose", params: params)
            if let error = response["error"] { throw Self.walletError(error) }
            guard let keyText = response["result"]?["responderPublicKey"]?.stringValue,
                let responder = try? Hex.decode(keyText)
            else { throw WalletError(code: 7000, message: "approval without responderPublicKey") }
            let sessionKey = try SessionCrypto.symmetricKey(privateKey: privateKey, peerPublicKey: responder)
            let topic = SessionCrypto.topic(symKey: sessionKey)
            let settle = try await withCheckedThrowingContinuation { continuation in
                let ready: JSON? = state.withLock { s -> JSON? in
                    if let settle = s.settles[topic] { return settle }
                    s.settleWaiters[topic] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
                Task {
                    do {
                        try await peer.follow(topic, symKey: sessionKey)
                    } catch {
                        state.withLock { $0.settleWaiters.removeValue(forKey: topic) }?.resume(throwing: error)
                    }
                }
            }
            return Session(
                topic: topic, namespaces: settle["namespaces"] ?? .null,
                peerMetadata: settle["controller"]?["metadata"] ?? .null)
        }
        return (pairing, session)
    }

    /// Sends `wc_sessionRequest` and returns the wallet's result.
    /// - Throws: ``WalletError`` when the wallet answers with an error.
    public func request(_ session: Session, method: String, params: JSON, chainID: String = "eip155:11155111")
        async throws -> JSON
    {
        let response = try await peer.request(
            session.topic, method: "wc_sessionRequest",
            params: .object([
                ("request", .object([("method", .string(method)), ("params", params)])),
                ("chainId", .string(chainID)),
            ]))
        if let error = response["error"] { throw Self.walletError(error) }
        return response["result"] ?? .null
    }

    /// `personal_sign` of `message` by `address`, checked: the signature must recover to `address`.
    public func personalSign(_ session: Session, message: [UInt8], address: String) async throws -> String {
        let result = try await request(
            session, method: "personal_sign", params: .array([.string(Hex.encodePrefixed(message)), .string(address)]))
        guard let text = result.stringValue, let bytes = try? Hex.decodePrefixed(text),
            let signature = try? EthereumSignature(bytes: bytes),
            let signer = try? PersonalMessage.recover(message, signature: signature)
        else { throw WalletError(code: -1, message: "personal_sign answer is not a signature: \(result.serialized)") }
        guard signer.lowercased == address.lowercased() else {
            throw WalletError(
                code: -1, message: "personal_sign signature recovers to \(signer.lowercased), not \(address)")
        }
        return text
    }

    /// Pings the wallet (`wc_sessionPing`).
    public func ping(_ session: Session) async throws -> JSON {
        try await peer.request(session.topic, method: "wc_sessionPing", params: .object([]))
    }

    /// Ends the session (`wc_sessionDelete` 6000).
    public func disconnect(_ session: Session) async throws {
        _ = try await peer.request(
            session.topic, method: "wc_sessionDelete",
            params: .object([("code", .int(6000)), ("message", .string("User disconnected."))]))
        peer.forget(session.topic)
    }

    public func close() {
        peer.relay.close()
        reader.withLock { $0?.cancel() }
    }

    static func walletError(_ error: JSON) -> WalletError {
        WalletError(
            code: error["code"]?.numberText.flatMap { Int($0) } ?? 0, message: error["message"]?.stringValue ?? "")
    }

    func answer(_ topic: String, _ request: JSON) -> JSON? {
        let id = request["id"] ?? .null
        switch request["method"]?.stringValue ?? "" {
        case "wc_sessionSettle":
            let params = request["params"] ?? .null
            let waiter = state.withLock {
                $0.settles[topic] = params
                return $0.settleWaiters.removeValue(forKey: topic)
            }
            waiter?.resume(returning: params)
            return SignMessage.result(id: id, .bool(true))
        case "wc_sessionEvent":
            state.withLock { $0.events.append(request["params"] ?? .null) }
            return SignMessage.result(id: id, .bool(true))
        case "wc_sessionDelete":
            state.withLock { _ = $0.deleted.insert(topic) }
            peer.forget(topic)
            return SignMessage.result(id: id, .bool(true))
        default:
            return SignMessage.result(id: id, .bool(true))
        }
    }
}
