import ByteCoding
import EthereumTransactions
import EthereumTypes
import RLPCoding
import Testing

/// Every decoding error path, with the field and offset it reports.
@Suite struct DecodingErrorTests {
    func decodeError(_ bytes: [UInt8]) -> TransactionDecodingError? {
        do {
            _ = try SignedTransaction(decoding: bytes)
            return nil
        } catch {
            return error
        }
    }

    /// A legacy transaction list built from raw field encodings.
    func legacy(_ fields: [[UInt8]]) -> [UInt8] {
        var e = RLPEncoder()
        e.appendList { e in for field in fields { e.appendRaw(field) } }
        return e.bytes
    }

    /// Valid legacy fields: nonce 0, gasPrice 1, gas 21000, to, value 0, data, v 27, r 1, s 1.
    var legacyFields: [[UInt8]] {
        [[0x80], [0x01], [0x82, 0x52, 0x08], [0x94] + TestKeys.recipient.bytes, [0x80], [0x80], [27], [1], [1]]
    }

    @Test func validBaselineDecodes() throws {
        let tx = try SignedTransaction(decoding: legacy(legacyFields))
        #expect(tx.transaction.chainID == nil)
        #expect(tx.signature == EthereumSignature(yParity: 0, r: 1, s: 1))
    }

    @Test func emptyInput() {
        #expect(decodeError([]) == TransactionDecodingError(.emptyInput, field: nil, at: 0))
        #expect(decodeError([])?.message == "typed transaction too short")
    }

    @Test(arguments: [UInt8(0x00), 0x03, 0x04, 0x05, 0x7f, 0x80, 0xb8])
    func unsupportedTypes(type: UInt8) {
        let error = decodeError([type, 0xc0])
        #expect(error == TransactionDecodingError(.unsupportedType(type), field: .envelope, at: 0))
        #expect(error?.message == "transaction type not supported")
    }

    @Test func envelopeErrors() {
        #expect(
            decodeError(legacy(legacyFields) + [0])
                == TransactionDecodingError(.rlp(.trailingBytes), field: .envelope, at: 32))
        #expect(decodeError([0x02, 0x80]) == TransactionDecodingError(.rlp(.expectedList), field: .envelope, at: 1))
        #expect(decodeError([0x02]) == TransactionDecodingError(.rlp(.unexpectedEnd), field: .envelope, at: 1))
        #expect(decodeError([0xc3, 0x80]) == TransactionDecodingError(.rlp(.lengthPastInput), field: .envelope, at: 0))
    }

    @Test func wrongElementCounts() {
        #expect(
            decodeError(legacy(Array(legacyFields.dropLast())))
                == TransactionDecodingError(.rlp(.wrongElementCount(expected: 9, actual: 8)), field: .envelope, at: 31))
        #expect(
            decodeError(legacy(legacyFields + [[0x80]]))
                == TransactionDecodingError(.rlp(.wrongElementCount(expected: 9, actual: 10)), field: .envelope, at: 32)
        )
        #expect(decodeError([0x02, 0xc0])?.kind == .rlp(.wrongElementCount(expected: 12, actual: 0)))
        #expect(decodeError([0x01, 0xc1, 0x01])?.kind == .rlp(.wrongElementCount(expected: 11, actual: 1)))
    }

    @Test func nonCanonicalIntegers() {
        var fields = legacyFields
        fields[0] = [0x82, 0x00, 0x01]
        #expect(
            decodeError(legacy(fields)) == TransactionDecodingError(.rlp(.leadingZeroInInteger), field: .nonce, at: 1))
        fields = legacyFields
        fields[0] = [0x81, 0x05]
        #expect(
            decodeError(legacy(fields)) == TransactionDecodingError(.rlp(.nonCanonicalSingleByte), field: .nonce, at: 1)
        )
        fields = legacyFields
        fields[2] = [0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0]
        #expect(decodeError(legacy(fields))?.kind == .rlp(.integerOverflow))
        #expect(decodeError(legacy(fields))?.field == .gas)
        fields = legacyFields
        fields[4] = [0xa1, 1] + [UInt8](repeating: 0, count: 32)
        #expect(decodeError(legacy(fields))?.kind == .rlp(.integerOverflow))
        #expect(decodeError(legacy(fields))?.field == .value)
        fields = legacyFields
        fields[7] = [0xa1, 1] + [UInt8](repeating: 0, count: 32)
        #expect(decodeError(legacy(fields))?.field == .r)
    }

    @Test func listWhereBytesBelong() {
        var fields = legacyFields
        fields[5] = [0xc0]
        #expect(decodeError(legacy(fields))?.kind == .rlp(.expectedBytes))
        #expect(decodeError(legacy(fields))?.field == .data)
    }

    @Test func addressLengths() {
        var fields = legacyFields
        fields[3] = [0x93] + [UInt8](repeating: 1, count: 19)
        #expect(decodeError(legacy(fields)) == TransactionDecodingError(.invalidAddressLength(19), field: .to, at: 6))
        fields[3] = [0x95, 0] + TestKeys.recipient.bytes
        #expect(decodeError(legacy(fields))?.kind == .invalidAddressLength(21))
    }

    @Test func legacyVRules() throws {
        for bad in [[0x80], [29], [34], [0x01]] as [[UInt8]] {
            var fields = legacyFields
            fields[6] = bad
            #expect(decodeError(legacy(fields))?.kind == .invalidV, "v \(bad)")
            #expect(decodeError(legacy(fields))?.field == .v)
        }
        var fields = legacyFields
        // v = 35 + 2 × 2^64: the chain id does not fit 64 bits.
        fields[6] = [0x89, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x23]
        #expect(decodeError(legacy(fields))?.kind == .invalidV)
        fields[6] = [0x26]  // 38 = 35 + 2·1 + 1
        let tx = try SignedTransaction(decoding: legacy(fields))
        #expect(tx.transaction.chainID == 1)
        #expect(tx.signature.yParity == 1)
    }

    /// The raw fields of a valid EIP-1559 transaction, so single fields can be replaced.
    func typed(_ replace: (inout [[UInt8]]) -> Void) -> [UInt8] {
        var fields: [[UInt8]] = [
            [0x01], [0x80], [0x01], [0x02], [0x82, 0x52, 0x08], [0x94] + TestKeys.recipient.bytes, [0x80], [0x80],
            [0xc0], [0x80], [0x01], [0x01],
        ]
        replace(&fields)
        var e = RLPEncoder()
        e.bytes = [0x02]
        e.appendList { e in for field in fields { e.appendRaw(field) } }
        return e.bytes
    }

    @Test func yParityMustBeZeroOrOne() throws {
        #expect(try SignedTransaction(decoding: typed { _ in }).signature.yParity == 0)
        let error = decodeError(typed { $0[9] = [0x02] })
        #expect(error?.kind == .invalidYParity)
        #expect(error?.field == .yParity)
    }

    @Test func accessListShapes() {
        func list(_ entries: [[UInt8]]) -> [UInt8] {
            var e = RLPEncoder()
            e.appendList { e in for entry in entries { e.appendRaw(entry) } }
            return e.bytes
        }
        func entry(address: [UInt8], keys: [[UInt8]], extra: [[UInt8]] = []) -> [UInt8] {
            var e = RLPEncoder()
            e.appendList { e in
                e.appendBytes(address)
                e.appendList { e in for key in keys { e.appendBytes(key) } }
                for x in extra { e.appendRaw(x) }
            }
            return e.bytes
        }
        let address = TestKeys.recipient.bytes
        let key = [UInt8](repeating: 7, count: 32)
        let good = decodeError(typed { $0[8] = list([entry(address: address, keys: [key])]) })
        #expect(good == nil)
        let shortAddress = decodeError(typed { $0[8] = list([entry(address: Array(address.dropLast()), keys: [])]) })
        #expect(shortAddress?.kind == .invalidAddressLength(19))
        #expect(shortAddress?.field == .accessList)
        let longKey = decodeError(typed { $0[8] = list([entry(address: address, keys: [key + [0]])]) })
        #expect(longKey?.kind == .invalidStorageKeyLength(33))
        let shortKey = decodeError(typed { $0[8] = list([entry(address: address, keys: [[0, 1]])]) })
        #expect(shortKey?.kind == .invalidStorageKeyLength(2))
        let extra = decodeError(typed { $0[8] = list([entry(address: address, keys: [], extra: [[0x80]])]) })
        #expect(extra?.kind == .rlp(.wrongElementCount(expected: 2, actual: 3)))
        let notAList = decodeError(typed { $0[8] = [0x80] })
        #expect(notAList?.kind == .rlp(.expectedList))
        #expect(notAList?.field == .accessList)
    }

    @Test func badHexInput() {
        #expect(throws: TransactionDecodingError(.invalidHex, field: nil, at: 1)) {
            try SignedTransaction(hex: "0x02f")
        }
        #expect(throws: TransactionDecodingError(.invalidHex, field: nil, at: 1)) {
            try SignedTransaction(hex: "0x02zz")
        }
        #expect(throws: TransactionDecodingError(.emptyInput, field: nil, at: 0)) { try SignedTransaction(hex: "0x") }
    }

    @Test func messagesNameTheField() {
        var fields = legacyFields
        fields[0] = [0x82, 0x00, 0x01]
        #expect(decodeError(legacy(fields))?.message == "rlp: nonce: integer has leading zero bytes at byte 1")
    }
}
