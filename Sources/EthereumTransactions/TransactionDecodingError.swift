import RLPCoding

/// Why raw transaction bytes were rejected, which field was at fault, and where.
public struct TransactionDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No bytes at all.
        case emptyInput
        /// Text input (``SignedTransaction/init(hex:)``) that is not an even number of hex digits; the offset is
        /// the byte the bad digit would have filled.
        case invalidHex
        /// A first byte that is neither a modelled EIP-2718 type (1, 2) nor an RLP list (≥ 0xc0):
        /// blob (3) and set-code (4) transactions, unknown types, and byte strings where a list belongs.
        case unsupportedType(UInt8)
        /// The RLP is malformed or non-canonical, a field has the wrong shape, or the list has the wrong
        /// number of elements (``RLPDecodingError/Kind/wrongElementCount(expected:actual:)``).
        case rlp(RLPDecodingError.Kind)
        /// An address (the recipient or an access-list entry) that is neither 20 bytes nor, for `to`, empty.
        case invalidAddressLength(Int)
        /// An access-list storage key that is not exactly 32 bytes.
        case invalidStorageKeyLength(Int)
        /// A legacy `v` other than 27, 28 or `35 + 2·chainId + {0, 1}` with a 64-bit chain id (EIP-155).
        case invalidV
        /// A typed transaction's `yParity` other than 0 or 1.
        case invalidYParity
    }

    public let kind: Kind
    /// The field being read, or nil when the envelope itself is at fault.
    public let field: TransactionField?
    /// Offset in bytes from the start of the raw transaction.
    public let offset: Int

    public init(_ kind: Kind, field: TransactionField?, at offset: Int) {
        self.kind = kind
        self.field = field
        self.offset = offset
    }

    /// The text a JSON-RPC error carries. For unsupported types this is geth's exact
    /// `transaction type not supported`; otherwise it is an `rlp:` description with the field and offset.
    public var message: String {
        let what: String
        switch kind {
        case .emptyInput: return "typed transaction too short"
        case .invalidHex: return "invalid hex string"
        case .unsupportedType: return "transaction type not supported"
        case .rlp(let kind): what = RLPDecodingError(kind, at: offset).description.dropPrefix("rlp: ")
        case .invalidAddressLength(let n): what = "address must be 20 bytes, found \(n) at byte \(offset)"
        case .invalidStorageKeyLength(let n): what = "storage key must be 32 bytes, found \(n) at byte \(offset)"
        case .invalidV: what = "invalid v (expected 27, 28 or 35 + 2·chainId + {0,1}) at byte \(offset)"
        case .invalidYParity: what = "yParity must be 0 or 1 at byte \(offset)"
        }
        if let field { return "rlp: \(field.rawValue): \(what)" }
        return "rlp: \(what)"
    }

    public var description: String {
        if case .unsupportedType(let type) = kind {
            return "transaction type not supported (first byte 0x\(String(type, radix: 16)))"
        }
        return message
    }
}

extension String {
    fileprivate func dropPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
