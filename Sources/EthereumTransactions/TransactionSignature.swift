import CryptoCore
import EthereumTypes

/// The secp256k1 signature of a transaction: the parity of the nonce point's y coordinate, r and s.
///
/// Legacy transactions carry the parity inside `v` (27/28, or `35 + 2·chainId + yParity` per EIP-155);
/// typed transactions carry `yParity` itself (EIP-2930, EIP-1559).
public struct TransactionSignature: Sendable, Hashable {
    /// 0 or 1.
    public var yParity: UInt8
    public var r: UInt256
    public var s: UInt256

    public init(yParity: UInt8, r: UInt256, s: UInt256) {
        precondition(yParity < 2, "yParity must be 0 or 1")
        self.yParity = yParity
        self.r = r
        self.s = s
    }

    /// The group order n of secp256k1.
    static let order = UInt256(bigEndianWord: Secp256k1.order[...])
    /// n / 2: the largest s EIP-2 allows.
    static let halfOrder = UInt256(bigEndianWord: Secp256k1.halfOrder[...])

    /// True when r and s are in [1, n−1] and s ≤ n/2 (EIP-2, Homestead).
    public var hasValidValues: Bool {
        !r.isZero && r < Self.order && !s.isZero && s <= Self.halfOrder
    }

    /// The legacy `v` value for a transaction with this chain id (nil: pre-EIP-155).
    public func legacyV(chainID: UInt64?) -> UInt256 {
        guard let chainID else { return UInt256(27 + UInt64(yParity)) }
        let (doubled, o1) = UInt256(chainID).multipliedReportingOverflow(by: 2)
        let (v, o2) = doubled.addingReportingOverflow(UInt256(35 + UInt64(yParity)))
        precondition(!o1 && !o2, "a 64-bit chain id cannot overflow 256 bits")
        return v
    }
}
