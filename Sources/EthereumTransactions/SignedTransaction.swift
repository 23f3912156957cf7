import CryptoCore
import EthereumTypes
import KeccakHashing
import RLPCoding

/// A signed transaction with its canonical encoding and hash computed once.
///
/// Build one by signing a ``Transaction`` or by decoding raw bytes (``init(decoding:)``). The encoding is the
/// EIP-2718 envelope (`type ‖ rlp(…)`, or the bare RLP list for legacy) that `eth_sendRawTransaction` accepts
/// and `eth_getRawTransactionByHash` returns; ``hash`` is Keccak-256 of it.
public struct SignedTransaction: Sendable, Hashable {
    public let transaction: Transaction
    public let signature: EthereumSignature
    /// The canonical EIP-2718 encoding.
    public let encoded: [UInt8]
    /// Keccak-256 of ``encoded``: the transaction hash.
    public let hash: [UInt8]

    /// Encodes and hashes a transaction with its signature.
    public init(transaction: Transaction, signature: EthereumSignature) {
        self.transaction = transaction
        self.signature = signature
        let encoded = RLPEncoder.envelope(
            type: transaction.type == .legacy ? nil : transaction.type.rawValue,
            capacity: 140 + transaction.data.count + transaction.accessList.count * 60
        ) { e in
            transaction.appendUnsignedFields(to: &e)
            if transaction.type == .legacy {
                e.appendUInt256(signature.legacyV(chainID: transaction.chainID))
            } else {
                e.appendUInt64(UInt64(signature.yParity))
            }
            e.appendUInt256(signature.r)
            e.appendUInt256(signature.s)
        }
        self.encoded = encoded
        self.hash = Keccak256.hash(encoded)
    }

    /// Wraps already-validated parts; `encoded` must be the canonical encoding of `transaction` and `signature`.
    init(transaction: Transaction, signature: EthereumSignature, canonicalEncoding: [UInt8]) {
        self.transaction = transaction
        self.signature = signature
        self.encoded = canonicalEncoding
        self.hash = Keccak256.hash(canonicalEncoding)
    }

    public var type: TransactionType { transaction.type }

    /// The signature's `v` as it appears on the wire and in JSON-RPC: 27/28 or `35 + 2·chainId + yParity` for
    /// legacy transactions (EIP-155), `yParity` for typed ones.
    public var v: UInt256 {
        transaction.type == .legacy
            ? signature.legacyV(chainID: transaction.chainID) : UInt256(UInt64(signature.yParity))
    }

    /// Recovers the sender's address from the signature.
    ///
    /// Rejects r or s of zero or ≥ n and s > n/2 (EIP-2) before calling libsecp256k1. It does not check the
    /// chain id; ``validate(_:)`` does.
    /// - Returns: The last 20 bytes of keccak256 of the recovered public key.
    /// - Throws: ``TransactionValidationError/invalidSignature``.
    public func recoverSender() throws(TransactionValidationError) -> Address {
        guard signature.hasValidValues else { throw .invalidSignature }
        let recoverable = RecoverableSignature(
            r: signature.r.bigEndianBytes, s: signature.s.bigEndianBytes, recoveryID: signature.yParity)
        let publicKey: [UInt8]
        do {
            publicKey = try Secp256k1.recover(digest: signingHash(), signature: recoverable)
        } catch {
            throw .invalidSignature
        }
        guard let address = Address(publicKey: publicKey) else { throw .invalidSignature }
        return address
    }

    /// The digest the sender signed; equal to `transaction.signingHash()`, but read from ``encoded``: the
    /// unsigned fields are already there in canonical form, so only the list header (and for EIP-155 legacy
    /// transactions the `chainId, 0, 0` suffix) is written before hashing, in a stack buffer.
    public func signingHash() -> [UInt8] {
        let typeLength = transaction.type == .legacy ? 0 : 1
        let prefix = encoded[typeLength]
        let fieldsStart = typeLength + (prefix <= 0xf7 ? 1 : 1 + Int(prefix - 0xf7))
        let signatureLength =
            RLPLength.of(v) + RLPLength.of(signature.r) + RLPLength.of(signature.s)
        let fieldsEnd = encoded.count - signatureLength
        var suffix: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var suffixLength = 0
        if case .legacy(let tx) = transaction, let chainID = tx.chainID {
            withUnsafeMutableBytes(of: &suffix) { out in
                suffixLength = RLPLength.write(chainID, into: out)
                out[suffixLength] = 0x80
                out[suffixLength + 1] = 0x80
            }
            suffixLength += 2
        }
        let payloadLength = fieldsEnd - fieldsStart + suffixLength
        let lengthBytes = payloadLength < 56 ? 0 : (Int.bitWidth - payloadLength.leadingZeroBitCount + 7) / 8
        let total = typeLength + 1 + lengthBytes + payloadLength
        return withUnsafeTemporaryAllocation(byteCount: total, alignment: 1) { buffer in
            var at = 0
            if typeLength == 1 {
                buffer[0] = transaction.type.rawValue
                at = 1
            }
            if lengthBytes == 0 {
                buffer[at] = 0xc0 + UInt8(payloadLength)
            } else {
                buffer[at] = 0xf7 + UInt8(lengthBytes)
                for i in 0..<lengthBytes {
                    buffer[at + 1 + i] = UInt8(truncatingIfNeeded: payloadLength >> ((lengthBytes - 1 - i) * 8))
                }
            }
            at += 1 + lengthBytes
            encoded.withUnsafeBytes { raw in
                UnsafeMutableRawBufferPointer(rebasing: buffer[at..<(at + fieldsEnd - fieldsStart)])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[fieldsStart..<fieldsEnd]))
            }
            at += fieldsEnd - fieldsStart
            withUnsafeBytes(of: suffix) { bytes in
                for i in 0..<suffixLength { buffer[at + i] = bytes[i] }
            }
            return Keccak256.hash(UnsafeRawBufferPointer(buffer))
        }
    }

    public static func == (a: SignedTransaction, b: SignedTransaction) -> Bool { a.encoded == b.encoded }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
