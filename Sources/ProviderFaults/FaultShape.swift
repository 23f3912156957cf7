import JSONCoding

/// One way a hosted provider misbehaves, reproduced byte for byte from its published texts (README, "Provider
/// faults", lists each shape's source).
public enum FaultShape: Sendable, Equatable {
    /// HTTP 429 with QuickNode's body (quicknode.com/docs error references) and an optional `Retry-After`.
    case tooManyRequests
    /// Infura's legacy rate limit: HTTP 429, JSON-RPC -32005 `project ID request rate exceeded` with `data`
    /// carrying `backoff_seconds` (docs.metamask.io "Avoid rate limiting", earlier revision).
    case infuraRateLimit(backoffSeconds: Int)
    /// Infura's daily credit cap: HTTP 402, `{"code":402,"event":-33000,"message":"Payment Required",…}`
    /// (docs.metamask.io/services/how-to/avoid-rate-limiting).
    case infuraDailyCap
    /// Infura's per-key throughput limit: HTTP 429, `{"code":429,"event":-33300,…}`
    /// (docs.metamask.io developer-tools/dashboard/how-to/secure-an-api/set-rate-limits).
    case infuraKeyThroughput
    /// Alchemy's compute-units limit: HTTP 429 with JSON-RPC code 429; inside a batch, HTTP 200 with the error in
    /// place of each item that exceeded the limit (docs.alchemy.com/reference/throughput; viem `buildRequest.ts`).
    case alchemyComputeUnits
    /// Alchemy's monthly cap: HTTP 403, -32600 `Monthly capacity limit exceeded. …` (xmtp/xmtpd#672).
    case alchemyMonthlyCap
    /// A load balancer in front of the nodes answers 502, 503 or 504 with nginx's built-in page
    /// (nginx `src/http/ngx_http_special_response.c`).
    case loadBalancer(status: Int)
    /// The request is held `seconds`, then the load balancer gives up with nginx's 504 page.
    case timeout(seconds: Int)
    /// The request went to a backend node that has not imported the block yet: geth's -32000 `header not found`
    /// (go-ethereum `internal/ethapi` `errors.New("header not found")`; foundry's retry classifier, MetaMask #7234).
    case headerNotFound
    /// The same lagging backend asked for a transaction or receipt it has not seen yet: `"result":null`.
    case staleRead
    /// The request is served, after `milliseconds` plus a seeded jitter of up to `jitter` milliseconds.
    case latency(milliseconds: Int, jitter: Int)
    /// A WebSocket message is not answered: the provider severs the connection (TCP closed, no close frame), as
    /// Infura does when a daily quota is reached (docs.metamask.io "Avoid rate limiting"). HTTP requests ignore it.
    case webSocketDisconnect
    /// Etherscan's keyless rate limit on its API (`/api`, `/v2/api`): HTTP 200,
    /// `{"status":"0","message":"NOTOK","result":"Max rate limit reached, please use API Key for higher rate limit"}`
    /// (docs.etherscan.io common error messages; blockchain-certificates/cert-issuer#166).
    case etherscanRateLimit
    /// Etherscan's per-key rate limit: the same envelope with `Max calls per sec rate limit reached (5/sec)`
    /// (rotki/rotki#8626). Only the Etherscan API paths meet the `etherscan-*` shapes, never JSON-RPC.
    case etherscanCallsPerSecond

    /// The name used in flags, `sandnet_setFaults` and the README.
    public var name: String {
        switch self {
        case .tooManyRequests: "http-429"
        case .infuraRateLimit: "infura-rate-limit"
        case .infuraDailyCap: "infura-daily-cap"
        case .infuraKeyThroughput: "infura-key-throughput"
        case .alchemyComputeUnits: "alchemy-compute-units"
        case .alchemyMonthlyCap: "alchemy-monthly-cap"
        case .loadBalancer(let status): "http-\(status)"
        case .timeout: "timeout"
        case .headerNotFound: "header-not-found"
        case .staleRead: "stale-read"
        case .latency: "latency"
        case .webSocketDisconnect: "websocket-disconnect"
        case .etherscanRateLimit: "etherscan-rate-limit"
        case .etherscanCallsPerSecond: "etherscan-calls-per-second"
        }
    }

    /// Shapes of Etherscan's API, answered only on its paths (``FaultSchedule/decideEtherscan(path:client:method:)``).
    public var isEtherscan: Bool {
        switch self {
        case .etherscanRateLimit, .etherscanCallsPerSecond: true
        default: false
        }
    }

    /// Etherscan's `result` text for its shapes.
    var etherscanText: String? {
        switch self {
        case .etherscanRateLimit: "Max rate limit reached, please use API Key for higher rate limit"
        case .etherscanCallsPerSecond: "Max calls per sec rate limit reached (5/sec)"
        default: nil
        }
    }

    /// Shapes decided item by item inside a batch (the provider counts each call, as Alchemy and QuickNode do).
    public var isPerItem: Bool {
        switch self {
        case .alchemyComputeUnits, .headerNotFound, .staleRead: true
        default: false
        }
    }

    /// The methods the shape applies to when a rule names none: the block-reading methods for
    /// `header-not-found`, the transaction lookups for `stale-read`, every method otherwise.
    public var defaultMethods: Set<String>? {
        switch self {
        case .headerNotFound:
            [
                "eth_getBlockByNumber", "eth_getHeaderByNumber", "eth_getBalance", "eth_getCode", "eth_getStorageAt",
                "eth_getTransactionCount", "eth_call", "eth_estimateGas", "eth_getBlockReceipts",
                "eth_getBlockTransactionCountByNumber", "eth_getTransactionByBlockNumberAndIndex", "eth_feeHistory",
                "eth_getProof", "eth_getBlockByHash", "eth_getHeaderByHash",
            ]
        case .staleRead: ["eth_getTransactionReceipt", "eth_getTransactionByHash"]
        default: nil
        }
    }
}

/// A complete HTTP answer: status, headers in order, body bytes.
public struct FaultResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func == (a: FaultResponse, b: FaultResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.elementsEqual(b.headers) { $0 == $1 }
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}

extension FaultShape {
    static let alchemyComputeUnitsMessage =
        "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely "
        + "ignore this message. If not, check out https://docs.alchemy.com/reference/throughput"
    static let alchemyMonthlyMessage =
        "Monthly capacity limit exceeded. Visit https://dashboard.alchemyapi.io/settings/billing to upgrade your "
        + "scaling policy for continued service."
    static let quickNodeMessage = "The requests per second (RPS) of your requests are higher than your plan allows."
    static let infuraDailyCapDetails =
        "You have reached your daily credit limit. To continue making requests, upgrade your plan or purchase "
        + "additional credits"
    static let infuraKeyThroughputDetails =
        "You have surpassed your user-defined key throughput limit setting. To make more requests with this key, "
        + "review key setting configurations."

    /// nginx's page for `status` (`ngx_http_error_50x_page` followed by `ngx_http_error_tail` with
    /// `server_tokens off`), CRLF line ends as nginx sends them.
    static func nginxPage(_ status: Int) -> [UInt8] {
        let title =
            switch status {
            case 500: "500 Internal Server Error"
            case 502: "502 Bad Gateway"
            case 503: "503 Service Temporarily Unavailable"
            default: "504 Gateway Time-out"
            }
        let lines = [
            "<html>", "<head><title>\(title)</title></head>", "<body>", "<center><h1>\(title)</h1></center>",
            "<hr><center>nginx</center>", "</body>", "</html>",
        ]
        return Array(lines.map { $0 + "\r\n" }.joined().utf8)
    }

    /// The JSON-RPC error object of this shape for one request id (nil for shapes that are not JSON-RPC errors).
    func errorObject(id: JSON) -> JSON? {
        func error(_ members: [(String, JSON)]) -> JSON {
            .object([("jsonrpc", .string("2.0")), ("id", id), ("error", .object(members))])
        }
        switch self {
        case .tooManyRequests:
            // QuickNode's member order: jsonrpc, error, id.
            return .object([
                ("jsonrpc", .string("2.0")),
                ("error", .object([("code", .int(429)), ("message", .string(Self.quickNodeMessage))])), ("id", id),
            ])
        case .infuraRateLimit(let backoff):
            return error([
                ("code", .int(-32005)), ("message", .string("project ID request rate exceeded")),
                (
                    "data",
                    .object([
                        ("see", .string("https://infura.io/docs/ethereum/jsonrpc/ratelimits")),
                        ("current_rps", .number("13.333")), ("allowed_rps", .number("10.0")),
                        ("backoff_seconds", .number("\(backoff).0")),
                    ])
                ),
            ])
        case .infuraDailyCap:
            return error([
                ("code", .int(402)), ("event", .int(-33000)), ("message", .string("Payment Required")),
                ("details", .string(Self.infuraDailyCapDetails)),
            ])
        case .infuraKeyThroughput:
            return error([
                ("code", .int(429)), ("event", .int(-33300)), ("message", .string("Too Many Requests")),
                ("details", .string(Self.infuraKeyThroughputDetails)),
            ])
        case .alchemyComputeUnits:
            return error([("code", .int(429)), ("message", .string(Self.alchemyComputeUnitsMessage))])
        case .alchemyMonthlyCap:
            return error([("code", .int(-32600)), ("message", .string(Self.alchemyMonthlyMessage))])
        case .headerNotFound:
            return error([("code", .int(-32000)), ("message", .string("header not found"))])
        case .staleRead:
            return .object([("jsonrpc", .string("2.0")), ("id", id), ("result", .null)])
        case .loadBalancer, .timeout, .latency, .webSocketDisconnect, .etherscanRateLimit, .etherscanCallsPerSecond:
            return nil
        }
    }

    /// The HTTP status the shape answers a whole request with.
    var status: Int {
        switch self {
        case .tooManyRequests, .infuraRateLimit, .infuraKeyThroughput, .alchemyComputeUnits: 429
        case .infuraDailyCap: 402
        case .alchemyMonthlyCap: 403
        case .loadBalancer(let status): status
        case .timeout: 504
        case .headerNotFound, .staleRead, .latency, .webSocketDisconnect, .etherscanRateLimit,
            .etherscanCallsPerSecond:
            200
        }
    }

    /// The whole answer to a request with these ids (a single request: one id; a batch: every item's id, and
    /// `batch` true). A batch answered by a whole-request shape gets one error object with `"id":null`, as a
    /// proxy that refuses before reading the batch does.
    public func response(ids: [JSON], batch: Bool, retryAfter: Int?) -> FaultResponse? {
        var headers: [(String, String)] = []
        let body: [UInt8]
        switch self {
        case .latency, .webSocketDisconnect:
            return nil
        case .loadBalancer, .timeout:
            headers.append(("Content-Type", "text/html"))
            body = Self.nginxPage(status)
        case .etherscanRateLimit, .etherscanCallsPerSecond:
            headers.append(("Content-Type", "application/json"))
            body =
                JSON.object([
                    ("status", .string("0")), ("message", .string("NOTOK")), ("result", .string(etherscanText ?? "")),
                ]).bytes
        default:
            headers.append(("Content-Type", "application/json"))
            if batch && isPerItem {
                body = JSON.array(ids.compactMap { errorObject(id: $0) }).bytes
            } else {
                body = errorObject(id: batch ? .null : (ids.first ?? .null))?.bytes ?? []
            }
        }
        let answered = batch && isPerItem ? 200 : status
        if let retryAfter, answered != 200 { headers.append(("Retry-After", String(retryAfter))) }
        return FaultResponse(status: answered, headers: headers, body: body)
    }
}
