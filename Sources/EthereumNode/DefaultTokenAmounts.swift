import EthereumTypes
import NativeContracts

/// The node's default amounts of one native token, in base units: each dev account's genesis holding, the faucet's
/// reserve and one faucet claim (``NodeConfiguration/devTokenBalance``, ``NodeConfiguration/faucetTokenReserve``,
/// ``NodeConfiguration/faucetTokenAmount``, whole tokens × 10^decimals).
///
/// A pure computation, every step checked. When whole tokens × 10^decimals would take the token's genesis supply
/// (its configured holders plus the defaults) past 2^256−1, as 70 or more decimals do with the default whole-token
/// counts, the three amounts shrink together by the smallest power of ten that fits: with 10 dev accounts a 69-, 70- or
/// 77-decimal token gives each of them 10^6 × 10^68 units and pays 1,000 × 10^68 per claim.
public struct DefaultTokenAmounts: Sendable, Equatable {
    /// Genesis holding of each dev account.
    public var dev: UInt256
    /// Genesis holding of the faucet (its reserve for claims).
    public var faucet: UInt256
    /// One faucet claim.
    public var payout: UInt256
    /// The power of ten one whole token counts for: the token's decimals, or fewer when shrunk.
    public var unitExponent: Int

    /// The default amounts of `token` (its configured holders, without the defaults) for `devAccounts` dev accounts,
    /// or nil when even one base unit per whole token does not fit beside the configured holders (the registry's
    /// check then names the limit).
    public init?(token: TokenDefinition, devAccounts: Int, configuration: NodeConfiguration) {
        var configured = UInt256.zero
        for holding in token.holders {
            let (sum, overflow) = configured.addingReportingOverflow(holding.amount)
            guard !overflow else { return nil }
            configured = sum
        }
        let dev = configuration.devTokenBalance
        let faucet = configuration.faucetTokenReserve
        let payout = configuration.faucetTokenAmount
        for exponent in stride(from: Int(min(token.decimals, 77)), through: 0, by: -1) {
            guard let devUnits = QuantityParser.baseUnits(whole: dev, decimals: exponent),
                let faucetUnits = QuantityParser.baseUnits(whole: faucet, decimals: exponent),
                let payoutUnits = QuantityParser.baseUnits(whole: payout, decimals: exponent)
            else { continue }
            let (devTotal, o1) = devUnits.multipliedReportingOverflow(by: UInt256(UInt64(max(devAccounts, 0))))
            let (defaults, o2) = devTotal.addingReportingOverflow(faucetUnits)
            let (_, o3) = defaults.addingReportingOverflow(configured)
            if o1 || o2 || o3 { continue }
            self.dev = devUnits
            self.faucet = faucetUnits
            self.payout = payoutUnits
            unitExponent = exponent
            return
        }
        return nil
    }
}
