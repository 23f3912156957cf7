import EthereumTypes
import RLPCoding

extension SignedTransaction {
    /// Decodes a raw transaction strictly (EIP-2718 envelope; Yellow Paper appendix B RLP).
    ///
    /// Accepts exactly the canonical encoding: integers without leading zeros and within their width (64 bits
    /// for chain id, nonce, gas; 256 for fees, value, r, s), exact field counts, a 20-byte or empty `to`, 20-byte
    /// access-list addresses and 32-byte storage keys, `yParity` 0 or 1, legacy `v` of 27, 28 or
    /// `35 + 2·chainId + {0, 1}`, and no trailing bytes. Re-encoding the result therefore gives back `raw`.
    /// - Parameter raw: `type ‖ rlp(…)` for types 1 and 2, or the RLP list of a legacy transaction.
    /// - Throws: ``TransactionDecodingError`` naming the field and offset; types 3 and 4 throw
    ///   ``TransactionDecodingError/Kind/unsupportedType(_:)``.
    public init(decoding raw: [UInt8]) throws(TransactionDecodingError) {
        guard let first = raw.first else { throw TransactionDecodingError(.emptyInput, field: nil, at: 0) }
        if first >= 0xc0 {
            var fields = try FieldReader(envelope: raw, offset: 0, expectedCount: 9)
            let nonce = try fields.uint64(.nonce)
            let gasPrice = try fields.uint256(.gasPrice)
            let gas = try fields.uint64(.gas)
            let to = try fields.recipient()
            let value = try fields.uint256(.value)
            let data = try fields.bytes(.data)
            let (chainID, yParity) = try fields.legacyV()
            let r = try fields.uint256(.r)
            let s = try fields.uint256(.s)
            try fields.finish()
            let tx = LegacyTransaction(
                chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: to, value: value, data: data)
            self.init(
                transaction: .legacy(tx), signature: EthereumSignature(yParity: yParity, r: r, s: s),
                canonicalEncoding: raw)
            return
        }
        switch first {
        case TransactionType.accessList.rawValue:
            var fields = try FieldReader(envelope: Array(raw[1...]), offset: 1, expectedCount: 11)
            let chainID = try fields.uint64(.chainID)
            let nonce = try fields.uint64(.nonce)
            let gasPrice = try fields.uint256(.gasPrice)
            let gas = try fields.uint64(.gas)
            let to = try fields.recipient()
            let value = try fields.uint256(.value)
            let data = try fields.bytes(.data)
            let accessList = try fields.accessList()
            let yParity = try fields.yParity()
            let r = try fields.uint256(.r)
            let s = try fields.uint256(.s)
            try fields.finish()
            let tx = AccessListTransaction(
                chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: to, value: value, data: data,
                accessList: accessList)
            self.init(
                transaction: .accessList(tx), signature: EthereumSignature(yParity: yParity, r: r, s: s),
                canonicalEncoding: raw)
        case TransactionType.dynamicFee.rawValue:
            var fields = try FieldReader(envelope: Array(raw[1...]), offset: 1, expectedCount: 12)
            let chainID = try fields.uint64(.chainID)
            let nonce = try fields.uint64(.nonce)
            let tip = try fields.uint256(.maxPriorityFeePerGas)
            let feeCap = try fields.uint256(.maxFeePerGas)
            let gas = try fields.uint64(.gas)
            let to = try fields.recipient()
            let value = try fields.uint256(.value)
            let data = try fields.bytes(.data)
            let accessList = try fields.accessList()
            let yParity = try fields.yParity()
            let r = try fields.uint256(.r)
            let s = try fields.uint256(.s)
            try fields.finish()
            let tx = DynamicFeeTransaction(
                chainID: chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap, gas: gas, to: to,
                value: value, data: data, accessList: accessList)
            self.init(
                transaction: .dynamicFee(tx), signature: EthereumSignature(yParity: yParity, r: r, s: s),
                canonicalEncoding: raw)
        default:
            throw TransactionDecodingError(.unsupportedType(first), field: .envelope, at: 0)
        }
    }

    /// Decodes `0x`-prefixed (or bare) hex.
    /// - Throws: ``TransactionDecodingError``; ``TransactionDecodingError/Kind/invalidHex`` for bad digits.
    public init(hex: String) throws(TransactionDecodingError) {
        var digits = Substring(hex)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard digits.utf8.count % 2 == 0 else {
            throw TransactionDecodingError(.invalidHex, field: nil, at: digits.utf8.count / 2)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.utf8.count / 2)
        var high: UInt8? = nil
        for (index, c) in digits.utf8.enumerated() {
            guard let nibble = hexNibble(c) else {
                throw TransactionDecodingError(.invalidHex, field: nil, at: index / 2)
            }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        try self.init(decoding: bytes)
    }
}

private func hexNibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
}

/// Reads the fields of one transaction list in order, attributing every error to its field.
private struct FieldReader {
    var list: RLPReader
    /// Added to reader offsets so errors point into the caller's raw bytes (1 for typed envelopes).
    let offset: Int
    let expectedCount: Int
    var index = 0

    init(envelope: [UInt8], offset: Int, expectedCount: Int) throws(TransactionDecodingError) {
        self.offset = offset
        self.expectedCount = expectedCount
        var outer = RLPReader(envelope)
        do {
            list = try outer.readList()
            try outer.finish()
        } catch {
            throw TransactionDecodingError(.rlp(error.kind), field: .envelope, at: error.offset + offset)
        }
    }

    /// Runs `read` on the next element, mapping a missing element to a count error.
    mutating func next<T>(
        _ field: TransactionField, _ read: (inout RLPReader) throws(RLPDecodingError) -> T
    ) throws(TransactionDecodingError) -> T {
        guard !list.isAtEnd else {
            throw TransactionDecodingError(
                .rlp(.wrongElementCount(expected: expectedCount, actual: index)), field: .envelope,
                at: list.position + offset)
        }
        do {
            let value = try read(&list)
            index += 1
            return value
        } catch {
            throw TransactionDecodingError(.rlp(error.kind), field: field, at: error.offset + offset)
        }
    }

    mutating func uint64(_ field: TransactionField) throws(TransactionDecodingError) -> UInt64 {
        try next(field) { (r: inout RLPReader) throws(RLPDecodingError) in try r.readUInt64() }
    }

    mutating func uint256(_ field: TransactionField) throws(TransactionDecodingError) -> UInt256 {
        let bytes = try next(field) { (r: inout RLPReader) throws(RLPDecodingError) in
            try r.readUnsignedIntegerBytes(maxBytes: 32)
        }
        return UInt256(bigEndianWord: bytes)
    }

    mutating func bytes(_ field: TransactionField) throws(TransactionDecodingError) -> [UInt8] {
        Array(try next(field) { (r: inout RLPReader) throws(RLPDecodingError) in try r.readBytes() })
    }

    /// `to`: 20 bytes, or empty for contract creation.
    mutating func recipient() throws(TransactionDecodingError) -> Address? {
        let at = list.position + offset
        let bytes = try next(.to) { (r: inout RLPReader) throws(RLPDecodingError) in try r.readBytes() }
        if bytes.isEmpty { return nil }
        guard let address = Address(bytes) else {
            throw TransactionDecodingError(.invalidAddressLength(bytes.count), field: .to, at: at)
        }
        return address
    }

    /// Typed transactions: `yParity` ∈ {0, 1}.
    mutating func yParity() throws(TransactionDecodingError) -> UInt8 {
        let at = list.position + offset
        let value = try uint64(.yParity)
        guard value < 2 else { throw TransactionDecodingError(.invalidYParity, field: .yParity, at: at) }
        return UInt8(value)
    }

    /// Legacy `v`: 27/28 (no chain id) or `35 + 2·chainId + yParity` (EIP-155).
    mutating func legacyV() throws(TransactionDecodingError) -> (chainID: UInt64?, yParity: UInt8) {
        let at = list.position + offset
        let v = try uint256(.v)
        if v == UInt256(27) || v == UInt256(28) { return (nil, UInt8(v.limbs.0 - 27)) }
        guard v >= UInt256(35) else { throw TransactionDecodingError(.invalidV, field: .v, at: at) }
        let (q, r) = (v - UInt256(35)).quotientAndRemainder(dividingBy: UInt256(2))
        guard let chainID = q.uint64Value else { throw TransactionDecodingError(.invalidV, field: .v, at: at) }
        return (chainID, UInt8(r.limbs.0))
    }

    /// `[[address, [key, …]], …]` with 20-byte addresses and 32-byte keys.
    mutating func accessList() throws(TransactionDecodingError) -> [AccessListEntry] {
        var entries = try next(.accessList) { (r: inout RLPReader) throws(RLPDecodingError) in try r.readList() }
        var result: [AccessListEntry] = []
        while !entries.isAtEnd {
            var entry = try accessListRLP { () throws(RLPDecodingError) in try entries.readList() }
            let addressAt = entry.position + offset
            let addressBytes = try accessListRLP { () throws(RLPDecodingError) in try entry.readBytes() }
            guard let address = Address(addressBytes) else {
                throw TransactionDecodingError(
                    .invalidAddressLength(addressBytes.count), field: .accessList, at: addressAt)
            }
            var keysReader = try accessListRLP { () throws(RLPDecodingError) in try entry.readList() }
            var keys: [UInt256] = []
            while !keysReader.isAtEnd {
                let keyAt = keysReader.position + offset
                let key = try accessListRLP { () throws(RLPDecodingError) in try keysReader.readBytes() }
                guard key.count == 32 else {
                    throw TransactionDecodingError(.invalidStorageKeyLength(key.count), field: .accessList, at: keyAt)
                }
                keys.append(UInt256(bigEndianWord: key))
            }
            if !entry.isAtEnd {
                var extra = 0
                while !entry.isAtEnd {
                    _ = try accessListRLP { () throws(RLPDecodingError) in try entry.skipItem() }
                    extra += 1
                }
                throw TransactionDecodingError(
                    .rlp(.wrongElementCount(expected: 2, actual: 2 + extra)), field: .accessList,
                    at: addressAt)
            }
            result.append(AccessListEntry(address: address, storageKeys: keys))
        }
        return result
    }

    /// Runs one RLP read inside the access list, attributing its error to the access-list field.
    func accessListRLP<T>(_ body: () throws(RLPDecodingError) -> T) throws(TransactionDecodingError) -> T {
        do {
            return try body()
        } catch {
            throw TransactionDecodingError(.rlp(error.kind), field: .accessList, at: error.offset + offset)
        }
    }

    /// Throws a count error when elements remain after the last field.
    mutating func finish() throws(TransactionDecodingError) {
        guard !list.isAtEnd else { return }
        let at = list.position + offset
        var extra = 0
        while !list.isAtEnd {
            do { _ = try list.skipItem() } catch {
                throw TransactionDecodingError(.rlp(error.kind), field: .envelope, at: error.offset + offset)
            }
            extra += 1
        }
        throw TransactionDecodingError(
            .rlp(.wrongElementCount(expected: expectedCount, actual: expectedCount + extra)), field: .envelope,
            at: at)
    }
}
