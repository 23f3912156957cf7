/// An amount of ICP in e8s (10^-8 ICP): the ledger's `Tokens = record { e8s : nat64 }` (ledger.did).
public struct Tokens: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    public var e8s: UInt64

    public init(e8s: UInt64) { self.e8s = e8s }
    public init(integerLiteral value: UInt64) { self.e8s = value }

    public static let zero = Tokens(e8s: 0)
    /// 10^8 e8s.
    public static let e8sPerToken: UInt64 = 100_000_000

    public static func < (lhs: Tokens, rhs: Tokens) -> Bool { lhs.e8s < rhs.e8s }

    /// `12.3456 ICP` style, trailing zeros dropped.
    public var description: String {
        let whole = e8s / Self.e8sPerToken
        let fraction = e8s % Self.e8sPerToken
        guard fraction > 0 else { return "\(whole) ICP" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 8 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(whole).\(digits) ICP"
    }
}

/// A Candid `nat` argument as the ledger reads it: the ledger stores 64-bit amounts, and ICRC endpoints answer
/// larger values with a typed error rather than a trap (ICP ledger `icrc1_send_not_async`: an amount that does
/// not fit u64 is `InsufficientFunds`). The Candid front end maps every `nat` argument to this.
public enum NatArgument: Hashable, Sendable, ExpressibleByIntegerLiteral {
    case exact(UInt64)
    /// More than `UInt64.max`.
    case aboveUInt64

    public init(integerLiteral value: UInt64) { self = .exact(value) }

    public var uint64: UInt64? {
        if case .exact(let n) = self { return n }
        return nil
    }
}

/// Nanoseconds since the Unix epoch (ledger.did `TimeStamp = record { timestamp_nanos : nat64 }`).
public typealias TimestampNanos = UInt64
