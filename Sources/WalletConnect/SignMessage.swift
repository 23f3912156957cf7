import JSONCoding

/// Sign API messages (WalletConnect specs, clients/sign/rpc-methods.md) as encrypted relay payloads: a JSON-RPC
/// request or response sealed in a type-0 envelope with a topic's symmetric key, and back.
public enum SignMessage {
    /// Seals a JSON-RPC message for `irn_publish` (standard base64 with padding).
    public static func seal(_ message: JSON, symKey: [UInt8]) throws(WalletConnectError) -> String {
        try Envelope.seal(message.bytes, symKey: symKey).base64
    }

    /// Opens a relay message (either base64 form, with or without padding) and parses its JSON.
    public static func open(_ message: String, symKey: [UInt8]) throws(WalletConnectError) -> JSON {
        let plaintext = try Envelope(base64: message).open(symKey: symKey)
        do {
            return try JSON.parse(plaintext)
        } catch {
            throw .invalidEnvelope("plaintext is not JSON (\(error))")
        }
    }

    /// A JSON-RPC request between peers (`id` is a 16-digit number as the JS SDK's `payloadId`).
    public static func request(id: Int64, method: String, params: JSON) -> JSON {
        .object([("id", .int(id)), ("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)])
    }

    public static func result(id: JSON, _ result: JSON) -> JSON {
        .object([("id", id), ("jsonrpc", .string("2.0")), ("result", result)])
    }

    public static func error(id: JSON, code: Int, message: String) -> JSON {
        .object([
            ("id", id), ("jsonrpc", .string("2.0")),
            ("error", .object([("code", .int(code)), ("message", .string(message))])),
        ])
    }

    /// App metadata (`name`, `description`, `url`, `icons`), as both peers send it.
    public static func metadata(name: String, description: String, url: String, icons: [String]) -> JSON {
        .object([
            ("name", .string(name)), ("description", .string(description)), ("url", .string(url)),
            ("icons", .array(icons.map(JSON.string))),
        ])
    }

    /// `wc_sessionPropose` params: the proposer's X25519 public key and metadata, required and optional namespaces
    /// (both always present: pywalletconnect indexes both), expiry.
    public static func proposal(
        publicKey: String, metadata: JSON, requiredNamespaces: JSON, optionalNamespaces: JSON, expiryTimestamp: Int64
    ) -> JSON {
        .object([
            ("relays", .array([.object([("protocol", .string("irn"))])])),
            ("proposer", .object([("publicKey", .string(publicKey)), ("metadata", metadata)])),
            ("requiredNamespaces", requiredNamespaces), ("optionalNamespaces", optionalNamespaces),
            ("expiryTimestamp", .int(expiryTimestamp)),
        ])
    }

    /// `wc_sessionSettle` params: the controller's (wallet's) key and metadata, the approved namespaces, expiry.
    public static func settlement(publicKey: String, metadata: JSON, namespaces: JSON, expiry: Int64) -> JSON {
        .object([
            ("relay", .object([("protocol", .string("irn"))])),
            ("controller", .object([("publicKey", .string(publicKey)), ("metadata", metadata)])),
            ("namespaces", namespaces), ("expiry", .int(expiry)),
        ])
    }

    /// An `eip155` namespace with CAIP-2 chains and CAIP-10 accounts.
    public static func eip155Namespace(chainIDs: [UInt64], addresses: [String], methods: [String], events: [String])
        -> JSON
    {
        let chains = chainIDs.map { "eip155:\($0)" }
        let accounts = chainIDs.flatMap { chain in addresses.map { "eip155:\(chain):\($0)" } }
        return .object([
            (
                "eip155",
                .object([
                    ("chains", .array(chains.map(JSON.string))), ("accounts", .array(accounts.map(JSON.string))),
                    ("methods", .array(methods.map(JSON.string))), ("events", .array(events.map(JSON.string))),
                ])
            )
        ])
    }
}
