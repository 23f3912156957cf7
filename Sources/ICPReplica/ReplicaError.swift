import ICPIdentity

/// A request the HTTP interface refuses before it reaches a canister: an HTTP status with a plain-text body, in the
/// replica's words where we know them (ic `rs/http_endpoints/public`, `rs/validator`).
public enum ReplicaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400: the body is not an envelope of the expected kind.
    case badRequest(IngressRequest.Kind, String)
    /// 400: the signature, public key, delegation or expiry does not check out.
    case invalidRequest(String)
    /// 400: the request's canister is not the one in the URL.
    case canisterMismatch(url: String, request: String)
    /// 403: a read_state of another sender's request status.
    case forbidden(String)
    /// 404: an unknown route or canister id in the URL.
    case notFound(String)
    /// 413: body over the size limit.
    case tooLarge(limit: Int)

    public var httpStatus: Int {
        switch self {
        case .badRequest, .invalidRequest, .canisterMismatch: return 400
        case .forbidden: return 403
        case .notFound: return 404
        case .tooLarge: return 413
        }
    }

    public var description: String {
        switch self {
        case .badRequest(let kind, let reason):
            let noun = kind == .readState ? "read" : kind.rawValue
            return "Could not parse body as \(noun) request: \(reason)"
        case .invalidRequest(let reason): return reason
        case .canisterMismatch(let url, let request):
            return "Specified CanisterId \(request) does not match effective canister id in URL \(url)"
        case .forbidden(let reason): return reason
        case .notFound(let reason): return reason
        case .tooLarge(let limit): return "Request body is too large: the limit is \(limit) bytes"
        }
    }
}
