import CryptoCore
import EthereumTypes
import KeccakHashing
import RLPCoding

/// An unsigned transaction of one of the modelled EIP-2718 types.
///
/// Sign it with ``signed(privateKey:)``; decode signed transactions with ``SignedTransaction/init(decoding:)``.
public enum Transaction: Sendable, Hashable {
    case legacy(LegacyTransaction)
    case accessList(AccessListTransaction)
    case dynamicFee(DynamicFeeTransaction)

    public var type: TransactionType {
        switch self {
        case .legacy: return .legacy
        case .accessList: return .accessList
        case .dynamicFee: return .dynamicFee
        }
    }

    /// The chain id the signature commits to; nil only for a pre-EIP-155 legacy transaction.
    public var chainID: UInt64? {
        switch self {
        case .legacy(let tx): return tx.chainID
        case .accessList(let tx): return tx.chainID
        case .dynamicFee(let tx): return tx.chainID
        }
    }

    public var nonce: UInt64 {
        switch self {
        case .legacy(let tx): return tx.nonce
        case .accessList(let tx): return tx.nonce
        case .dynamicFee(let tx): return tx.nonce
        }
    }

    /// The gas limit.
    public var gas: UInt64 {
        switch self {
        case .legacy(let tx): return tx.gas
        case .accessList(let tx): return tx.gas
        case .dynamicFee(let tx): return tx.gas
        }
    }

    /// The recipient, or nil for contract creation.
    public var to: Address? {
        switch self {
        case .legacy(let tx): return tx.to
        case .accessList(let tx): return tx.to
        case .dynamicFee(let tx): return tx.to
        }
    }

    public var value: UInt256 {
        switch self {
        case .legacy(let tx): return tx.value
        case .accessList(let tx): return tx.value
        case .dynamicFee(let tx): return tx.value
        }
    }

    /// Calldata, or init code for contract creation.
    public var data: [UInt8] {
        switch self {
        case .legacy(let tx): return tx.data
        case .accessList(let tx): return tx.data
        case .dynamicFee(let tx): return tx.data
        }
    }

    /// The EIP-2930 access list (always empty for legacy transactions).
    public var accessList: [AccessListEntry] {
        switch self {
        case .legacy: return []
        case .accessList(let tx): return tx.accessList
        case .dynamicFee(let tx): return tx.accessList
        }
    }

    /// The most the sender pays per gas: `gasPrice`, or EIP-1559 `maxFeePerGas`.
    public var gasFeeCap: UInt256 {
        switch self {
        case .legacy(let tx): return tx.gasPrice
        case .accessList(let tx): return tx.gasPrice
        case .dynamicFee(let tx): return tx.maxFeePerGas
        }
    }

    /// The most the block producer receives per gas: `gasPrice`, or EIP-1559 `maxPriorityFeePerGas`.
    public var gasTipCap: UInt256 {
        switch self {
        case .legacy(let tx): return tx.gasPrice
        case .accessList(let tx): return tx.gasPrice
        case .dynamicFee(let tx): return tx.maxPriorityFeePerGas
        }
    }

    /// True when `to` is empty: the data is init code and a contract is created.
    public var isContractCreation: Bool { to == nil }

    /// The bytes whose Keccak-256 is signed: `rlp([…, chainId, 0, 0])` for EIP-155, `rlp([…])` before it
    /// (Yellow Paper §4.3), and `type ‖ rlp([…fields without signature])` for typed transactions (EIP-2718).
    public func signingPayload() -> [UInt8] {
        RLPEncoder.envelope(
            type: type == .legacy ? nil : type.rawValue, capacity: 64 + data.count + accessList.count * 60
        ) { e in
            appendUnsignedFields(to: &e)
            if case .legacy(let tx) = self, let chainID = tx.chainID {
                e.appendUInt64(chainID)
                e.appendUInt64(0)
                e.appendUInt64(0)
            }
        }
    }

    /// Keccak-256 of ``signingPayload()``: the digest the sender's key signs.
    public func signingHash() -> [UInt8] {
        Keccak256.hash(signingPayload())
    }

    /// Signs with a secp256k1 private key (RFC 6979 nonce, low s as EIP-2 requires).
    /// - Parameter privateKey: 32 bytes in [1, n−1].
    /// - Returns: The signed transaction with its encoding and hash.
    /// - Throws: ``Secp256k1Error/invalidPrivateKey``.
    public func signed(privateKey: [UInt8]) throws(Secp256k1Error) -> SignedTransaction {
        let signature = try Secp256k1.sign(digest: signingHash(), privateKey: privateKey)
        return SignedTransaction(
            transaction: self,
            signature: EthereumSignature(
                yParity: signature.recoveryID, r: UInt256(bigEndianWord: signature.r[...]),
                s: UInt256(bigEndianWord: signature.s[...])))
    }

    /// Appends every field before the signature, in wire order.
    func appendUnsignedFields(to e: inout RLPEncoder) {
        switch self {
        case .legacy(let tx):
            e.appendUInt64(tx.nonce)
            e.appendUInt256(tx.gasPrice)
            e.appendUInt64(tx.gas)
            e.appendAddress(tx.to)
            e.appendUInt256(tx.value)
            e.appendBytes(tx.data)
        case .accessList(let tx):
            e.appendUInt64(tx.chainID)
            e.appendUInt64(tx.nonce)
            e.appendUInt256(tx.gasPrice)
            e.appendUInt64(tx.gas)
            e.appendAddress(tx.to)
            e.appendUInt256(tx.value)
            e.appendBytes(tx.data)
            e.appendAccessList(tx.accessList)
        case .dynamicFee(let tx):
            e.appendUInt64(tx.chainID)
            e.appendUInt64(tx.nonce)
            e.appendUInt256(tx.maxPriorityFeePerGas)
            e.appendUInt256(tx.maxFeePerGas)
            e.appendUInt64(tx.gas)
            e.appendAddress(tx.to)
            e.appendUInt256(tx.value)
            e.appendBytes(tx.data)
            e.appendAccessList(tx.accessList)
        }
    }
}
