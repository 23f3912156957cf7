import CBORCoding
import ICPIdentity

/// What a canister answered, as read from a query response or a certified request status.
public enum AgentReply: Sendable, Equatable {
    case replied([UInt8])
    case rejected(code: UInt64, message: String, errorCode: String?)
}

/// A response the agent could not read.
public struct AgentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension AgentReply {
    /// Reads a query response body: `{status: "replied", reply: {arg}}` or `{status: "rejected", …}`.
    public init(queryResponse body: [UInt8]) throws(AgentError) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(body) } catch { throw AgentError("query response is not CBOR: \(error)") }
        switch value["status"]?.textValue {
        case "replied":
            guard let arg = value["reply"]?["arg"]?.bytesValue else { throw AgentError("query reply has no arg") }
            self = .replied(arg)
        case "rejected":
            self = .rejected(
                code: value["reject_code"]?.uint64Value ?? 0, message: value["reject_message"]?.textValue ?? "",
                errorCode: value["error_code"]?.textValue)
        default: throw AgentError("query response has no status")
        }
    }

    /// Reads `/request_status/<id>` out of a read_state response body; nil while the request is not done.
    public static func fromReadState(_ body: [UInt8], requestID: [UInt8]) throws(AgentError) -> AgentReply? {
        let tree = try certifiedTree(body)
        let base: [[UInt8]] = [Array("request_status".utf8), requestID]
        func lookup(_ field: String) -> [UInt8]? {
            if case .found(let value) = tree.lookup(base + [Array(field.utf8)]) { return value }
            return nil
        }
        switch lookup("status").map({ String(decoding: $0, as: UTF8.self) }) {
        case "replied":
            guard let reply = lookup("reply") else { throw AgentError("replied status without reply") }
            return .replied(reply)
        case "rejected":
            let code = lookup("reject_code").map { bytes in
                bytes.reversed().reduce(UInt64(0)) { $0 << 7 | UInt64($1 & 0x7f) }
            }
            return .rejected(
                code: code ?? 0, message: lookup("reject_message").map { String(decoding: $0, as: UTF8.self) } ?? "",
                errorCode: lookup("error_code").map { String(decoding: $0, as: UTF8.self) })
        default: return nil
        }
    }

    /// The hash tree inside a `{certificate}` response (the signature is not checked: development replicas do not
    /// sign with BLS).
    public static func certifiedTree(_ body: [UInt8]) throws(AgentError) -> HashTree {
        do {
            let outer = try CBORDecoder().decode(body)
            guard let certificateBytes = outer["certificate"]?.bytesValue else {
                throw AgentError("read_state response has no certificate")
            }
            let certificate = try CBORDecoder().decode(certificateBytes)
            guard let tree = certificate["tree"] else { throw AgentError("certificate has no tree") }
            return try HashTree(cbor: tree)
        } catch let error as AgentError {
            throw error
        } catch {
            throw AgentError("malformed certificate: \(error)")
        }
    }
}
