import ByteCoding
import RLPCoding
import Testing

@Suite struct RLPTests {
    func decodeError(_ hex: String) -> RLPDecodingError? {
        do {
            _ = try RLP.decode(try Hex.decode(hex))
            return nil
        } catch let error as RLPDecodingError {
            return error
        } catch {
            return nil
        }
    }

    @Test func errorsCarryKindAndOffset() {
        #expect(decodeError("8100") == RLPDecodingError(.nonCanonicalSingleByte, at: 0))
        #expect(decodeError("c28100") == RLPDecodingError(.nonCanonicalSingleByte, at: 1))
        #expect(decodeError("b801ff") == RLPDecodingError(.nonCanonicalLength, at: 0))
        #expect(decodeError("b90040") == RLPDecodingError(.leadingZeroInLength, at: 0))
        #expect(decodeError("83646f") == RLPDecodingError(.lengthPastInput, at: 0))
        #expect(decodeError("83646f6700") == RLPDecodingError(.trailingBytes, at: 4))
        #expect(decodeError("") == RLPDecodingError(.unexpectedEnd, at: 0))
        #expect(decodeError("c2c3c0") == RLPDecodingError(.lengthPastInput, at: 1))
    }

    @Test func overDeepNestingIsRejected() {
        // 200 nested empty lists: each header is one byte while the payload is < 56 bytes, then long form.
        var item = RLPItem.list([])
        for _ in 0..<200 { item = .list([item]) }
        let encoded = RLP.encode(item)
        #expect(throws: RLPDecodingError.self) { try RLP.decode(encoded) }
        var shallow = RLPItem.list([])
        for _ in 0..<100 { shallow = .list([shallow]) }
        #expect((try? RLP.decode(RLP.encode(shallow))) == shallow)
    }

    @Test func roundTripsLongPayloads() throws {
        let long = RLPItem.bytes([UInt8](repeating: 7, count: 70_000))
        let list = RLPItem.list([long, .bytes([]), .bytes([0x7f]), .bytes([0x80]), .list([])])
        #expect(try RLP.decode(RLP.encode(list)) == list)
    }

    @Test func readerReadsCanonicalIntegers() throws {
        var encoder = RLPEncoder()
        encoder.appendList { e in
            e.appendUInt64(0)
            e.appendUInt64(127)
            e.appendUInt64(128)
            e.appendUInt64(.max)
        }
        var outer = RLPReader(encoder.bytes)
        var list = try outer.readList()
        #expect(try list.readUInt64() == 0)
        #expect(try list.readUInt64() == 127)
        #expect(try list.readUInt64() == 128)
        #expect(try list.readUInt64() == .max)
        #expect(list.isAtEnd)
        var leadingZero = RLPReader([0x82, 0x00, 0x01])
        #expect(throws: RLPDecodingError(.leadingZeroInInteger, at: 0)) { try leadingZero.readUInt64() }
        var tooWide = RLPReader([0x89, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(throws: RLPDecodingError(.integerOverflow, at: 0)) { try tooWide.readUInt64() }
    }
}
