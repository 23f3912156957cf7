import EthereumLedger
import EthereumTransactions
import EthereumTypes
import NativeContracts

/// Why a faucet claim failed. The texts are chainflag/eth-faucet's; the server picks the HTTP status
/// (`SandnetServer`'s `EthereumFaucetHTTP`) and the JSON-RPC layer the error code.
public enum FaucetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A cooldown runs for the address or the client: seconds to wait (sent as Retry-After).
    case cooldown(retryAfter: UInt64)
    /// The faucet holds less than the claim needs: its balance of the asset (`token` nil: ETH, in wei) and what the
    /// claim needs (nil: more than 2^256 − 1 wei with the gas).
    case dry(token: String?, balance: UInt256, needs: UInt256?)
    /// The next base fee is so high that the transfer's fee cap would pass 2^256 − 1.
    case feeCapOverflow
    /// The transfer was refused (the pool's or the chain's error text).
    case transferFailed(String)

    public var description: String {
        switch self {
        case .cooldown(let wait):
            return "You have exceeded the rate limit. Please wait \(Self.goDuration(wait)) before you try again"
        case .dry(nil, let balance, let needs):
            let needed = needs.map { "\($0) wei" } ?? "more than 2^256-1 wei"
            return "Transaction failed: the faucet has run dry (balance \(balance) wei, claim needs \(needed))"
        case .dry(let symbol?, let balance, let needs):
            let needed = needs.map { "\($0)" } ?? "more than 2^256-1"
            return "Transaction failed: the faucet has run dry (\(symbol) balance \(balance), claim needs \(needed))"
        case .feeCapOverflow: return "Transaction failed: max fee per gas higher than 2^256-1"
        case .transferFailed(let reason): return "Transaction failed: \(reason)"
        }
    }

    /// The text eth-faucet answers with (``description``).
    public var message: String { description }

    /// Go's time.Duration formatting, as eth-faucet prints waits ("23h59m0s").
    static func goDuration(_ seconds: UInt64) -> String {
        let h = seconds / 3600
        let m = (seconds % 3600) / 60
        let s = seconds % 60
        if h > 0 { return "\(h)h\(m)m\(s)s" }
        if m > 0 { return "\(m)m\(s)s" }
        return "\(s)s"
    }
}

/// The Ethereum faucet's rules in one place: the payout (or a chosen amount), the cooldown per address and per client
/// IP (``FaucetLimiter``: checked and recorded at once), and the dry check. `sandnet_faucet` and the server's
/// `POST /api/claim` both claim through it.
///
/// Every claim is a real signed EIP-1559 transfer from the faucet account (``SandnetNode/faucetAddress``).
public struct EthereumFaucet: Sendable {
    let node: SandnetNode

    /// The node's faucet account.
    public var address: Address { node.faucetAddress }
    /// The node's configuration (payouts, cooldown, chain).
    public var configuration: NodeConfiguration { node.configuration }
    /// The tokens a claim may ask for.
    public var tokens: [TokenDefinition] { node.parameters.nativeContracts.tokens }
    /// The native NFT collections (listed by `/api/info` beside the tokens).
    public var collections: [NFTCollection] { node.parameters.nativeContracts.collections }

    /// A token by symbol (case-insensitive) or address; nil when the chain has none.
    public func token(named name: String) -> TokenDefinition? { node.parameters.nativeContracts.token(named: name) }

    /// Sends `amount` (default: the configured payout) from the faucet account to `address` as a real
    /// signed EIP-1559 transfer, subject to the per-address and per-IP cooldown.
    ///
    /// - Returns: the transaction hash.
    /// - Throws: ``FaucetError``: `cooldown` while one runs, `dry` when the faucet holds too little, `feeCapOverflow`
    ///   or `transferFailed` when the transfer cannot be sent.
    public func claim(
        address: Address, amount: UInt256? = nil, token: TokenDefinition? = nil, clientIP: String? = nil
    ) throws(FaucetError) -> [UInt8] {
        let now = node.clock()
        // One cooldown per asset: ETH and each token are claimed independently, under the same rules.
        let asset = token.map { $0.address.lowercased + ":" } ?? ""
        let keys = ["addr:" + asset + address.lowercased] + (clientIP.map { ["ip:" + asset + $0] } ?? [])
        let reservation = try node.faucetLimiter.reserve(keys, now: now, cooldown: node.configuration.faucetCooldown)
        do throws(FaucetError) {
            if let token { return try claimToken(token, address: address, amount: amount) }
            return try claimETH(address: address, amount: amount)
        } catch {
            node.faucetLimiter.cancel(reservation)
            throw error
        }
    }

    private func claimETH(address: Address, amount: UInt256?) throws(FaucetError) -> [UInt8] {
        let value = amount ?? node.configuration.faucetAmount
        let (balance, maxFee) = node.withLedger { chain in
            (
                chain.account(node.faucetAddress).balance,
                FeeMarket.defaultMaxFee(baseFee: chain.nextBaseFee, tip: node.chain.suggestedTip(chain))
            )
        }
        guard let maxFee else { throw .feeCapOverflow }
        var request = TransactionRequest(to: address, value: value)
        request.gas = 21_000
        let (gasCost, o1) = maxFee.multipliedReportingOverflow(by: UInt256(21_000 as UInt64))
        let (maxCost, o2) = gasCost.addingReportingOverflow(value)
        guard !o1 && !o2 && balance >= maxCost else {
            throw .dry(token: nil, balance: balance, needs: o1 || o2 ? nil : maxCost)
        }
        return try send(request)
    }

    /// The payout of one token claim: ``NodeConfiguration/faucetTokenAmount`` whole tokens.
    public func tokenPayout(_ token: TokenDefinition) -> UInt256 {
        // The token as configured (holders without the defaults the node added at genesis).
        let configured = node.configuration.chain.nativeContracts.token(at: token.address) ?? token
        let amounts = DefaultTokenAmounts(
            token: configured, devAccounts: node.devAccounts.count, configuration: node.configuration)
        return amounts?.payout ?? .zero
    }

    /// A token claim: a real `transfer` from the faucet's reserve (its genesis holding) in a real receipt.
    private func claimToken(_ token: TokenDefinition, address: Address, amount: UInt256?) throws(FaucetError)
        -> [UInt8]
    {
        let value = amount ?? tokenPayout(token)
        let reserve = node.withLedger { $0.tokenBalance(token: token.address, holder: node.faucetAddress) }
        guard reserve >= value else { throw .dry(token: token.symbol, balance: reserve, needs: value) }
        let data = ERC20Call.transfer(to: address, amount: value).encoded()
        return try send(TransactionRequest(from: node.faucetAddress, to: token.address, data: data))
    }

    private func send(_ request: TransactionRequest) throws(FaucetError) -> [UInt8] {
        do {
            return try node.submitter.sendFromKey(
                node.accounts.faucet.privateKey, from: node.faucetAddress, request: request)
        } catch {
            throw .transferFailed("\(error)")
        }
    }
}
