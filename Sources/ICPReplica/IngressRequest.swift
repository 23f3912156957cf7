import CBORCoding
import ICPIdentity

/// The `content` of an authenticated HTTP request to the IC (interface spec §Request: Call, Query, Read state).
public struct IngressRequest: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case call
        case query
        case readState = "read_state"
    }

    public var kind: Kind
    public var sender: Principal
    /// Nanoseconds since the epoch after which the request is refused.
    public var ingressExpiry: UInt64
    public var nonce: [UInt8]?
    /// `call` and `query` only.
    public var canisterID: Principal?
    public var methodName: String?
    public var arg: [UInt8]?
    /// `read_state` only: paths of labels.
    public var paths: [[[UInt8]]]
    /// The representation-independent hash of the content.
    public var id: [UInt8]

    /// Reads a `content` map: the fields of `kind` must be present with the right CBOR types; unknown fields are
    /// allowed (they count in the request id, as on the IC).
    init(content: CBORValue, expected: Kind) throws(ReplicaError) {
        guard content.mapEntries != nil else { throw .badRequest(expected, "content is not a map") }
        guard let type = content["request_type"]?.textValue else {
            throw .badRequest(expected, "missing field `request_type`")
        }
        guard type == expected.rawValue else {
            throw .badRequest(expected, "request_type is \"\(type)\", expected \"\(expected.rawValue)\"")
        }
        kind = expected
        guard let senderBytes = content["sender"]?.bytesValue else {
            throw .badRequest(expected, "missing field `sender`")
        }
        do { sender = try Principal(bytes: senderBytes) } catch { throw .badRequest(expected, "sender: \(error)") }
        guard let expiry = content["ingress_expiry"]?.uint64Value else {
            throw .badRequest(expected, "missing field `ingress_expiry`")
        }
        ingressExpiry = expiry
        if let value = content["nonce"], !value.isNull {
            guard let bytes = value.bytesValue else { throw .badRequest(expected, "nonce is not a byte string") }
            guard bytes.count <= 32 else { throw .badRequest(expected, "nonce is longer than 32 bytes") }
            nonce = bytes
        }
        paths = []
        switch expected {
        case .call, .query:
            guard let canister = content["canister_id"]?.bytesValue else {
                throw .badRequest(expected, "missing field `canister_id`")
            }
            do { canisterID = try Principal(bytes: canister) } catch {
                throw .badRequest(expected, "canister_id: \(error)")
            }
            guard let method = content["method_name"]?.textValue else {
                throw .badRequest(expected, "missing field `method_name`")
            }
            methodName = method
            guard let arg = content["arg"]?.bytesValue else { throw .badRequest(expected, "missing field `arg`") }
            self.arg = arg
        case .readState:
            guard let list = content["paths"]?.arrayValue else { throw .badRequest(expected, "missing field `paths`") }
            guard list.count <= 1000 else { throw .badRequest(expected, "more than 1000 paths") }
            for path in list {
                guard let labels = path.arrayValue, labels.count <= 127 else {
                    throw .badRequest(expected, "a path is not an array of at most 127 labels")
                }
                var out: [[UInt8]] = []
                for label in labels {
                    guard let bytes = label.bytesValue else {
                        throw .badRequest(expected, "a path label is not a blob")
                    }
                    out.append(bytes)
                }
                paths.append(out)
            }
        }
        do { id = try RequestID.of(content: content.untagged) } catch { throw .badRequest(expected, "\(error)") }
    }
}
