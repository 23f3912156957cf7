/// What is wrong with a WalletConnect v1 URI, payload or bridge message; each case names the field or the limit.
public enum WalletConnectV1Error: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURI(String)
    case invalidPayload(String)
    /// The HMAC-SHA256 over `data ‖ iv` does not match: the payload was altered or the key is another one.
    case hmacMismatch
    case invalidBridgeMessage(String)
    /// A bound of the bridge (README, "WalletConnect v1"): which one and its value.
    case limit(String)

    public var description: String {
        switch self {
        case .invalidURI(let why): "invalid WalletConnect v1 URI: \(why)"
        case .invalidPayload(let why): "invalid v1 payload: \(why)"
        case .hmacMismatch: "invalid v1 payload: the HMAC does not match (another key, or altered data)"
        case .invalidBridgeMessage(let why): "invalid bridge message: \(why)"
        case .limit(let why): why
        }
    }
}
