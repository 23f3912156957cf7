import ByteCoding
import EthereumLedger
import EthereumTypes
import JSONCoding
import JSONRPC

/// Why a faucet claim failed; `httpStatus` follows chainflag/eth-faucet.
public struct FaucetError: Error, Sendable, Equatable, CustomStringConvertible {
    public let httpStatus: Int
    public let message: String
    /// Seconds to wait, for 429 responses (sent as Retry-After).
    public let retryAfter: UInt64?

    public var description: String { message }
}

extension FaucetError: RPCErrorConvertible {
    public var rpcError: RPCError {
        httpStatus == 429 ? RPCError(code: -32005, message: message) : .server(message)
    }
}

extension SandnetNode {
    /// Sends `amount` (default: the configured payout) from the faucet account to `address` as a real
    /// signed EIP-1559 transfer, subject to the per-address and per-IP cooldown.
    public func claimFaucet(address: Address, amount: UInt256? = nil, clientIP: String? = nil) throws(FaucetError) -> [UInt8] {
        let now = clock()
        let keys = ["addr:" + address.lowercased] + (clientIP.map { ["ip:" + $0] } ?? [])
        let cooldown = configuration.faucetCooldown
        let wait = faucetLimiter.withLock { $0.remaining(keys, now: now, cooldown: cooldown) }
        if wait > 0 {
            throw FaucetError(
                httpStatus: 429,
                message: "You have exceeded the rate limit. Please wait \(Self.goDuration(wait)) before you try again",
                retryAfter: wait)
        }
        let value = amount ?? configuration.faucetAmount
        let balance = withLedger { $0.account(faucetAddress).balance }
        var request = try! CallRequest(.object([]))
        request.to = address
        request.value = value
        request.gas = 21_000
        let maxFee = withLedger { FeeMarket.defaultMaxFee(baseFee: $0.nextBaseFee, tip: suggestedTip($0)) }
        guard let maxFee else {
            throw FaucetError(httpStatus: 500, message: "Transaction failed: max fee per gas higher than 2^256-1", retryAfter: nil)
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
            let hash = try sendFromKey(faucetKey, from: faucetAddress, request: request)
            faucetLimiter.withLock { $0.record(keys, now: now, cooldown: cooldown) }
            return hash
        } catch {
            throw FaucetError(httpStatus: 500, message: "Transaction failed: \(error)", retryAfter: nil)
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
    public var faucetInfo: JSON {
        .object([
            ("account", .string(faucetAddress.checksummed)),
            ("network", .string(configuration.chain.chainID == 11_155_111 ? "sepolia" : "chain \(configuration.chain.chainID)")),
            ("payout", .string(Units.format(configuration.faucetAmount, decimals: 18))),
            ("symbol", .string("ETH")),
        ])
    }
}
