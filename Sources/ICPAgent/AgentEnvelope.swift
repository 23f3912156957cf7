import CBORCoding
import ICPIdentity

/// Builds signed IC HTTP request envelopes (interface spec §Authentication) the way agent-js and ic-py do:
/// the content map, its request id, and `sender_pubkey`/`sender_sig` for a key identity (none for anonymous).
public enum AgentEnvelope {
    public enum Kind: String, Sendable {
        case call
        case query
        case readState = "read_state"
    }

    /// The content map of a call or query.
    public static func content(
        kind: Kind, sender: Principal, canisterID: Principal, method: String, arg: [UInt8], ingressExpiry: UInt64,
        nonce: [UInt8]? = nil
    ) -> CBORValue {
        var entries: [(String, CBORValue)] = [
            ("request_type", .text(kind.rawValue)), ("sender", .bytes(sender.bytes)),
            ("canister_id", .bytes(canisterID.bytes)), ("method_name", .text(method)), ("arg", .bytes(arg)),
            ("ingress_expiry", .unsigned(ingressExpiry)),
        ]
        if let nonce { entries.append(("nonce", .bytes(nonce))) }
        return .map(entries.map { CBORMapEntry(key: .text($0.0), value: $0.1) })
    }

    /// The content map of a read_state request.
    public static func readStateContent(sender: Principal, paths: [[[UInt8]]], ingressExpiry: UInt64) -> CBORValue {
        .map([
            "request_type": .text(Kind.readState.rawValue), "sender": .bytes(sender.bytes),
            "paths": .array(paths.map { .array($0.map { .bytes($0) }) }), "ingress_expiry": .unsigned(ingressExpiry),
        ])
    }

    /// The CBOR body (self-describe tagged) and request id of `content`, signed by `identity` (nil: anonymous).
    public static func seal(_ content: CBORValue, identity: KeyIdentity?) throws -> (requestID: [UInt8], body: [UInt8])
    {
        let requestID = try RequestID.of(content: content)
        var envelope: [(String, CBORValue)] = [("content", content)]
        if let identity {
            envelope.append(("sender_pubkey", .bytes(identity.publicKey.der)))
            envelope.append(("sender_sig", .bytes(try identity.signRequest(id: requestID))))
        }
        let body = CBOREncoder.encode(
            .map(envelope.map { CBORMapEntry(key: .text($0.0), value: $0.1) }), selfDescribed: true)
        return (requestID, body)
    }
}
