import CryptoCore
import EthereumTypes

/// A 65-byte `r ‖ s ‖ v` signature as `personal_sign` and `eth_signTypedData_v4` return it (v = 27 + yParity).
public struct MessageSignature: Sendable, Hashable, CustomStringConvertible {
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

    /// Parses 65 bytes `r ‖ s ‖ v`, with v ∈ {27, 28} or, as some signers emit, {0, 1}.
    /// - Throws: ``MessageSignatureError/invalidLength(_:)`` or ``MessageSignatureError/invalidV(_:)``.
    public init(bytes: [UInt8]) throws(MessageSignatureError) {
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
    public var description: String { "0x" + bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    /// Signs a 32-byte digest (RFC 6979, low s).
    /// - Throws: ``Secp256k1Error`` for an invalid key or digest length.
    public static func sign(digest: [UInt8], privateKey: [UInt8]) throws(Secp256k1Error) -> MessageSignature {
        let signature = try Secp256k1.sign(digest: digest, privateKey: privateKey)
        return MessageSignature(
            yParity: signature.recoveryID, r: UInt256(bigEndianWord: signature.r[...]),
            s: UInt256(bigEndianWord: signature.s[...]))
    }

    /// The address whose key signed `digest`. Like `ecrecover`, it accepts high s; r and s must be in [1, n−1].
    /// - Throws: ``MessageSignatureError/invalidValues`` or ``MessageSignatureError/recoveryFailed``.
    public func recoverAddress(digest: [UInt8]) throws(MessageSignatureError) -> Address {
        guard !r.isZero, r < TransactionSignature.order, !s.isZero, s < TransactionSignature.order else {
            throw .invalidValues
        }
        let recoverable = RecoverableSignature(r: r.bigEndianBytes, s: s.bigEndianBytes, recoveryID: yParity)
        guard let publicKey = try? Secp256k1.recover(digest: digest, signature: recoverable),
            let address = Address(publicKey: publicKey)
        else { throw .recoveryFailed }
        return address
    }
}

/// Why a message signature could not be parsed or recovered.
public enum MessageSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
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

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
