import ByteCoding
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import JSONCoding
import NativeContracts

/// Why a faucet claim failed; `httpStatus` follows chainflag/eth-faucet.
public struct FaucetError: Error, Sendable, Equatable, CustomStringConvertible {
    public let httpStatus: Int
    public let message: String
    /// Seconds to wait, for 429 responses (sent as Retry-After).
    public let retryAfter: UInt64?

    public var description: String { message }
}

/// The Ethereum faucet's rules in one place: the payout (or a chosen amount), the cooldown per address and per client
/// IP, the dry check, and the answers of chainflag/eth-faucet's HTTP API (`POST /api/claim`, `GET /api/info`).
/// `sandnet_faucet` and the HTTP routes both claim through it.
///
/// Every claim is a real signed EIP-1559 transfer from the faucet account (``SandnetNode/faucetAddress``).
public struct EthereumFaucet: Sendable {
    let node: SandnetNode

    /// An answer of `POST /api/claim`: the HTTP status, the JSON body and, for 429, the seconds to wait.
    public struct HTTPReply: Sendable, Equatable {
        public var status: Int
        public var body: JSON
        public var retryAfter: UInt64?

        /// `{"msg": text}`, the shape of every answer of eth-faucet's API.
        static func message(_ text: String, status: Int, retryAfter: UInt64? = nil) -> Self {
            Self(status: status, body: .object([("msg", .string(text))]), retryAfter: retryAfter)
        }
    }

    /// Sends `amount` (default: the configured payout) from the faucet account to `address` as a real
    /// signed EIP-1559 transfer, subject to the per-address and per-IP cooldown.
    ///
    /// - Returns: the transaction hash.
    /// - Throws: ``FaucetError``: 429 while a cooldown runs, 500 when the faucet has run dry or the transfer fails.
    public func claim(
        address: Address, amount: UInt256? = nil, token: TokenDefinition? = nil, clientIP: String? = nil
    ) throws(FaucetError) -> [UInt8] {
        let now = node.clock()
        // One cooldown per asset: ETH and each token are claimed independently, under the same rules.
        let asset = token.map { $0.address.lowercased + ":" } ?? ""
        let keys = ["addr:" + asset + address.lowercased] + (clientIP.map { ["ip:" + asset + $0] } ?? [])
        let cooldown = node.configuration.faucetCooldown
        let wait = node.faucetLimiter.withLock { $0.remaining(keys, now: now, cooldown: cooldown) }
        if wait > 0 {
            throw FaucetError(
                httpStatus: 429,
                message: "You have exceeded the rate limit. Please wait \(Self.goDuration(wait)) before you try again",
                retryAfter: wait)
        }
        if let token {
            return try claimToken(token, address: address, amount: amount, keys: keys, now: now, cooldown: cooldown)
        }
        let value = amount ?? node.configuration.faucetAmount
        let balance = node.withLedger { $0.account(node.faucetAddress).balance }
        var request = TransactionRequest(to: address, value: value)
        request.gas = 21_000
        let maxFee = node.withLedger { FeeMarket.defaultMaxFee(baseFee: $0.nextBaseFee, tip: node.suggestedTip($0)) }
        guard let maxFee else {
            throw FaucetError(
                httpStatus: 500, message: "Transaction failed: max fee per gas higher than 2^256-1", retryAfter: nil)
        }
        let (gasCost, o1) = maxFee.multipliedReportingOverflow(by: UInt256(21_000 as UInt64))
        let (maxCost, o2) = gasCost.addingReportingOverflow(value)
        guard !o1 && !o2 && balance >= maxCost else {
            let needs = o1 || o2 ? "more than 2^256-1 wei" : "\(maxCost) wei"
            throw FaucetError(
                httpStatus: 500,
                message: "Transaction failed: the faucet has run dry (balance \(balance) wei, claim needs \(needs))",
                retryAfter: nil)
        }
        do {
            let hash = try node.sendFromKey(node.faucetKey, from: node.faucetAddress, request: request)
            node.faucetLimiter.withLock { $0.record(keys, now: now, cooldown: cooldown) }
            return hash
        } catch {
            throw FaucetError(httpStatus: 500, message: "Transaction failed: \(error)", retryAfter: nil)
        }
    }

    /// The payout of one token claim: ``NodeConfiguration/faucetTokenAmount`` whole tokens, at the scale of the
    /// token's default holdings (``DefaultTokenAmounts``).
    public func tokenPayout(_ token: TokenDefinition) -> UInt256 {
        // The token as configured (holders without the defaults the node added at genesis).
        let configured = node.configuration.chain.nativeContracts.token(at: token.address) ?? token
        let amounts = DefaultTokenAmounts(
            token: configured, devAccounts: node.devAccounts.count, configuration: node.configuration)
        return amounts?.payout ?? .zero
    }

    /// A token claim: a real `transfer` from the faucet's reserve (its genesis holding) in a real receipt.
    func claimToken(
        _ token: TokenDefinition, address: Address, amount: UInt256?, keys: [String], now: UInt64, cooldown: UInt64
    ) throws(FaucetError) -> [UInt8] {
        let value = amount ?? tokenPayout(token)
        let reserve = node.withLedger { $0.tokenBalance(token: token.address, holder: node.faucetAddress) }
        guard reserve >= value else {
            throw FaucetError(
                httpStatus: 500,
                message:
                    "Transaction failed: the faucet has run dry (\(token.symbol) balance \(reserve), claim needs \(value))",
                retryAfter: nil)
        }
        do {
            let data = ERC20Call.transfer(to: address, amount: value).encoded()
            let request = TransactionRequest(from: node.faucetAddress, to: token.address, data: data)
            let hash = try node.sendFromKey(node.faucetKey, from: node.faucetAddress, request: request)
            node.faucetLimiter.withLock { $0.record(keys, now: now, cooldown: cooldown) }
            return hash
        } catch {
            throw FaucetError(httpStatus: 500, message: "Transaction failed: \(error)", retryAfter: nil)
        }
    }

    /// `POST /api/claim` with `{"address": "0x…"}` (and optionally `"token": "USDC"`, a symbol or address) from `clientIP`: 200 `{"msg": "Txhash: 0x…"}`, 400 for a bad body
    /// or address, 429 with the wait, 500 when the transfer failed.
    public func claim(httpBody: [UInt8], clientIP: String?) -> HTTPReply {
        guard let json = try? JSON.parse(httpBody), case .object(let members) = json,
            members.allSatisfy({ $0.0 == "address" || $0.0 == "token" }), let text = json["address"]?.stringValue
        else {
            return .message("invalid request body: expected {\"address\": \"0x…\"}", status: 400)
        }
        guard let address = try? Address(parsing: text) else {
            return .message("invalid address", status: 400)
        }
        var token: TokenDefinition?
        if let member = json["token"] {
            guard let name = member.stringValue, let found = node.nativeContracts.token(named: name) else {
                let known = node.nativeContracts.tokens.map(\.symbol).joined(separator: ", ")
                return .message("unknown token: this chain has \(known)", status: 400)
            }
            token = found
        }
        do {
            let hash = try claim(address: address, token: token, clientIP: clientIP)
            return .message("Txhash: \(Hex.encodePrefixed(hash))", status: 200)
        } catch {
            return .message(error.message, status: error.httpStatus, retryAfter: error.retryAfter)
        }
    }

    /// Go's time.Duration formatting, as eth-faucet prints waits ("23h59m0s").
    static func goDuration(_ seconds: UInt64) -> String {
        let h = seconds / 3600
        let m = (seconds % 3600) / 60
        let s = seconds % 60
        if h > 0 { return "\(h)h\(m)m\(s)s" }
        if m > 0 { return "\(m)m\(s)s" }
        return "\(s)s"
    }

    /// `GET /api/info` in eth-faucet's shape.
    public var info: JSON {
        let configuration = node.configuration
        return .object([
            ("account", .string(node.faucetAddress.checksummed)),
            (
                "network",
                .string(configuration.chain.chainID == 11_155_111 ? "sepolia" : "chain \(configuration.chain.chainID)")
            ),
            ("payout", .string(Units.format(configuration.faucetAmount, decimals: 18))),
            ("symbol", .string("ETH")),
            (
                "tokens",
                .array(
                    node.nativeContracts.tokens.map { token in
                        .object([
                            ("symbol", .string(token.symbol)), ("address", .string(token.address.checksummed)),
                            ("payout", .string(Units.format(tokenPayout(token), decimals: Int(token.decimals)))),
                        ])
                    })
            ),
        ])
    }
}

extension SandnetNode {
    /// The node's faucet (its rules and its HTTP API).
    public var faucet: EthereumFaucet { EthereumFaucet(node: self) }
}
