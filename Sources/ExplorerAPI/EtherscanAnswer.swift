import JSONCoding

/// One answer of the Etherscan-compatible API, always HTTP 200 (Etherscan answers errors in the body).
///
/// Shapes (reference explorer-market-nft.md §A2): `{"status":"1","message":"OK","result":…}`; an empty list
/// `{"status":"0","message":"No transactions found","result":[]}`; an error
/// `{"status":"0","message":"NOTOK","result":"<reason>"}`; the proxy module's JSON-RPC envelope as it is.
public enum EtherscanAnswer: Error, Sendable, Equatable {
    case ok(JSON)
    /// status 0 with `message` and an empty list (not an error: Etherscan's "nothing found").
    case empty(String)
    /// status 0, `NOTOK`, the reason as `result`.
    case notOK(String)
    /// The proxy module's answer: a JSON-RPC envelope, as it is.
    case rpc(JSON)

    /// Etherscan's texts (docs.etherscan.io common error messages; Blockscout's clone for the empty cases).
    public static let noTransactions = "No transactions found"
    public static let noRecords = "No records found"
    public static let invalidModule = "Error! Missing Or invalid Module name"
    public static let invalidAction = "Error! Missing Or invalid Action name"
    public static let invalidAddress = "Error! Invalid address format"
    public static let invalidHash = "Error! Invalid transaction hash format"
    public static let windowTooLarge =
        "Result window is too large, PageNo x Offset size must be less than or equal to 10000"
    public static let unsupportedChain =
        "Missing or unsupported chainid parameter (required for v2 api), please see chainlist for the list of "
        + "supported chainids"
    public static let notVerified = "Contract source code not verified"

    /// The body.
    public var json: JSON {
        switch self {
        case .ok(let result):
            return .object([("status", .string("1")), ("message", .string("OK")), ("result", result)])
        case .empty(let message):
            return .object([("status", .string("0")), ("message", .string(message)), ("result", .array([]))])
        case .notOK(let reason):
            return .object([("status", .string("0")), ("message", .string("NOTOK")), ("result", .string(reason))])
        case .rpc(let envelope):
            return envelope
        }
    }
}
