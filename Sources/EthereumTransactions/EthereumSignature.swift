import ByteCoding
import CryptoCore
import EthereumTypes

/// The one secp256k1 signature model of the wallet: the parity of the nonce point's y coordinate, r and s.
///
/// Messages (`personal_sign`, `eth_signTypedData_v4`) carry it as 65 bytes `r ‖ s ‖ v` with v = 27 + yParity
/// (``bytes``, ``init(bytes:)``). Legacy transactions carry the parity inside `v` (27/28, or `35 + 2·chainId + yParity`
/// per EIP-155, ``legacyV(chainID:)``); typed transactions carry `yParity` itself (EIP-2930, EIP-1559).
public struct EthereumSignature: Sendable, Hashable, CustomStringConvertible {
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

    // MARK: As a message signature (65 bytes)

    /// Parses 65 bytes `r ‖ s ‖ v`, with v ∈ {27, 28} or, as some signers emit, {0, 1}.
    /// - Throws: ``SignatureError/invalidLength(_:)`` or ``SignatureError/invalidV(_:)``.
    public init(bytes: [UInt8]) throws(SignatureError) {
        guard bytes.count == 65 else { throw .invalidLength(bytes.count) }
        let v = bytes[64]
        switch v {
        case 0, 1: yParity = v
        case 27, 28: yParity = v - 27
        default: throw .invalidV(v)
        }
        r = UInt256(bigEndianWord: bytes[0..<32])
        s = UInt256(bigEndianWord: bytes[32..<64])
    }

    /// 27 or 28.
    public var v: UInt8 { 27 + yParity }

    /// `r ‖ s ‖ v`, 65 bytes.
    public var bytes: [UInt8] { r.bigEndianBytes + s.bigEndianBytes + [v] }

    /// `0x`-prefixed hex of ``bytes``.
    public var description: String { Hex.encodePrefixed(bytes) }

    /// Signs a 32-byte digest (RFC 6979, low s).
    /// - Throws: ``Secp256k1Error`` for an invalid key or digest length.
    public static func sign(digest: [UInt8], privateKey: [UInt8]) throws(Secp256k1Error) -> EthereumSignature {
        let signature = try Secp256k1.sign(digest: digest, privateKey: privateKey)
        return EthereumSignature(
            yParity: signature.recoveryID, r: UInt256(bigEndianWord: signature.r[...]),
            s: UInt256(bigEndianWord: signature.s[...]))
    }

    /// The address whose key signed `digest`. Like `ecrecover`, it accepts high s; r and s must be in [1, n−1].
    /// - Throws: ``SignatureError/invalidValues`` or ``SignatureError/recoveryFailed``.
    public func recoverAddress(digest: [UInt8]) throws(SignatureError) -> Address {
        guard !r.isZero, r < Self.order, !s.isZero, s < Self.order else { throw .invalidValues }
        let recoverable = RecoverableSignature(r: r.bigEndianBytes, s: s.bigEndianBytes, recoveryID: yParity)
        guard let publicKey = try? Secp256k1.recover(digest: digest, signature: recoverable),
            let address = Address(publicKey: publicKey)
        else { throw .recoveryFailed }
        return address
    }

    // MARK: As a transaction signature

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

/// Why a signature could not be parsed or recovered.
public enum SignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidLength(Int)
    case invalidV(UInt8)
    /// r or s is zero or not below the group order.
    case invalidValues
    /// No public key recovers from the signature and digest.
    case recoveryFailed

    public var description: String {
        switch self {
        case .invalidLength(let n): return "signature must be 65 bytes (r ‖ s ‖ v), found \(n)"
        case .invalidV(let v): return "signature v must be 27, 28, 0 or 1, found \(v)"
        case .invalidValues: return "signature r or s out of range"
        case .recoveryFailed: return "no public key recovers from this signature"
        }
    }
}
