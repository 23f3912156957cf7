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
    public let signature: TransactionSignature
    /// The canonical EIP-2718 encoding.
    public let encoded: [UInt8]
    /// Keccak-256 of ``encoded``: the transaction hash.
    public let hash: [UInt8]

    /// Encodes and hashes a transaction with its signature.
    public init(transaction: Transaction, signature: TransactionSignature) {
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
    init(transaction: Transaction, signature: TransactionSignature, canonicalEncoding: [UInt8]) {
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
            publicKey = try Secp256k1.recover(digest: transaction.signingHash(), signature: recoverable)
        } catch {
            throw .invalidSignature
        }
        guard let address = Address(publicKey: publicKey) else { throw .invalidSignature }
        return address
    }

    public static func == (a: SignedTransaction, b: SignedTransaction) -> Bool { a.encoded == b.encoded }

    public func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
