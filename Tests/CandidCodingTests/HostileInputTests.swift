import CandidCoding
import Testing

/// Crafted hostile messages must fail with a clear error, quickly and without large allocations.
struct HostileInputTests {
    private func decodeError(_ bytes: [UInt8], _ types: [CandidType]) throws -> CandidDecodingError {
        let compiled = try CandidArgumentTypes(types)
        do {
            let values = try CandidDeserializer.decode(bytes, as: compiled)
            throw VectorError(message: "decoded unexpectedly: \(values)")
        } catch let error as CandidDecodingError {
            return error
        }
    }

    private let magic = Array("DIDL".utf8)

    @Test func hugeVecOfNullExhaustsBudget() throws {
        // vec null with one billion elements: zero bytes per element, caught by the cost budget.
        let bytes = magic + [0x01, 0x6d, 0x7f, 0x01, 0x00, 0x80, 0x94, 0xeb, 0xdc, 0x03]
        #expect(try decodeError(bytes, [.vec(.null)]).reason == .budgetExceeded)
        #expect(try decodeError(bytes, []).reason == .budgetExceeded)
        #expect(try decodeError(bytes, [.opt(.nat)]).reason == .budgetExceeded)
    }

    @Test func typedFastPathIsMeteredToo() throws {
        // A header identical to the expected one takes the typed fast path; it must be metered the same way.
        for type in [CandidType.vec(.record([])), .vec(.vec(.null)), .vec(.reserved), .vec(.opt(.null))] {
            let header = try CandidSerializer.encode([.vec([])], types: [type]).dropLast()
            let bytes = Array(header) + [0x80, 0xad, 0xe2, 0x04]  // 10,000,000 elements
            let error = try decodeError(bytes, [type])
            // Zero-sized elements exhaust the budget; elements of at least one byte are implausible for the input.
            #expect(error.reason == .budgetExceeded || error.reason == .limitExceeded)
        }
    }

    @Test func hugeVecOfBoolIsImplausible() throws {
        let bytes = magic + [0x01, 0x6d, 0x7e, 0x01, 0x00, 0x80, 0x94, 0xeb, 0xdc, 0x03, 0x00]
        let error = try decodeError(bytes, [.vec(.bool)])
        #expect(error.reason == .limitExceeded)
        #expect(error.offset == 9)
    }

    @Test func overlongLEBIsRejected() throws {
        let bytes = magic + [0x00, 0x01, 0x7d] + [UInt8](repeating: 0x80, count: 64)
        #expect(try decodeError(bytes, [.nat]).reason == .unexpectedEnd)
        let tooBig = magic + [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]
        #expect(try decodeError(tooBig, []).reason == .invalidNumber)
    }

    @Test func hugeCountsAreImplausible() throws {
        #expect(try decodeError(magic + [0x80, 0x94, 0xeb, 0xdc, 0x03, 0x00], []).reason == .limitExceeded)
        #expect(try decodeError(magic + [0x00, 0x80, 0x94, 0xeb, 0xdc, 0x03], []).reason == .limitExceeded)
        let text = magic + [0x00, 0x01, 0x71, 0x80, 0x94, 0xeb, 0xdc, 0x03] + Array("Motoko".utf8)
        #expect(try decodeError(text, [.text]).reason == .budgetExceeded)
        let record = magic + [0x01, 0x6c, 0x80, 0x94, 0xeb, 0xdc, 0x03, 0x00, 0x7f, 0x00, 0x7f]
        #expect(try decodeError(record, []).reason == .limitExceeded)
    }

    @Test func deepNestingHitsDepthLimit() throws {
        // A chain of 2000 opt entries, each pointing to the next, ending in null, with a matching value.
        let depth = 2000
        var bytes = magic
        var table: [UInt8] = []
        for index in 0..<depth {
            table.append(0x6e)
            var reference: [UInt8] = []
            let next = index + 1 < depth ? Int64(index + 1) : -1
            var value = next
            while true {
                let byte = UInt8(truncatingIfNeeded: value) & 0x7f
                value >>= 7
                if (value == 0 && byte & 0x40 == 0) || (value == -1 && byte & 0x40 != 0) {
                    reference.append(byte)
                    break
                }
                reference.append(byte | 0x80)
            }
            table += reference
        }
        bytes += [0xd0, 0x0f] + table + [0x01, 0x00] + [UInt8](repeating: 0x01, count: depth)
        let error = try decodeError(bytes, [])
        #expect(error.reason == .depthExceeded)
    }

    @Test func longTypeChainIsConvertedWithoutRecursion() throws {
        // 10,000 table entries `opt <next>`; the value is `null`, so decoding succeeds and the wire type
        // (10,000 levels deep) must still be converted to `CandidType` without exhausting the stack.
        let count = 10_000
        var bytes = magic + [0x90, 0x4e]  // LEB128 10,000
        for index in 0..<count {
            bytes.append(0x6e)
            let next = index + 1 < count ? index + 1 : 0
            // SLEB128 of a non-negative index below 2^20: 7 bits per byte, sign bit clear in the last byte.
            var value = next
            while true {
                let byte = UInt8(value & 0x7f)
                value >>= 7
                if value == 0 && byte & 0x40 == 0 {
                    bytes.append(byte)
                    break
                }
                bytes.append(byte | 0x80)
            }
        }
        bytes += [0x01, 0x00, 0x00]
        let message = try CandidDeserializer.decodeUntyped(bytes)
        #expect(message.values == [.opt(nil)])
        #expect(message.environment.definitions.count == count)
        #expect(message.types == [.named("t0")])
    }

    @Test func emptyRecursionFailsInsteadOfLooping() throws {
        // type T = record { T }; a value of it would be infinite.
        let bytes = magic + [0x01, 0x6c, 0x01, 0x00, 0x00, 0x01, 0x00]
        let types = [CandidType.named("T")]
        let environment = CandidTypeEnvironment(["T": .record([CandidFieldType(CandidLabel(id: 0), .named("T"))])])
        let compiled = try CandidArgumentTypes(types, environment: environment)
        #expect(throws: CandidDecodingError.self) { try CandidDeserializer.decode(bytes, as: compiled) }
    }

    @Test func budgetIsConfigurable() throws {
        let bytes = try CandidSerializer.encode([.vec((0..<100).map { .nat64(UInt64($0)) })], types: [.vec(.nat64)])
        let types = try CandidArgumentTypes([.vec(.nat64)])
        #expect(throws: CandidDecodingError.self) {
            try CandidDeserializer.decode(bytes, as: types, options: CandidDecodingOptions(budget: 100))
        }
        #expect(try CandidDeserializer.decode(bytes, as: types).count == 1)
    }

    @Test func truncatedPrefixesOfAValidMessageAllFailCleanly() throws {
        let type = CandidType.record([
            CandidFieldType("a", .vec(.text)), CandidFieldType("b", .opt(.int)), CandidFieldType("c", .principal),
        ])
        let value = CandidValue.makeRecord([
            CandidField("a", .vec([.text("x"), .text("yz")])), CandidField("b", .opt(.int(-300))),
            CandidField("c", .principal(.anonymous)),
        ])
        let types = try CandidArgumentTypes([type])
        let bytes = try CandidSerializer.encode([value], as: types)
        for length in 0..<bytes.count {
            #expect(throws: CandidDecodingError.self) {
                try CandidDeserializer.decode(Array(bytes.prefix(length)), as: types)
            }
        }
        #expect(try CandidDeserializer.decode(bytes, as: types) == [value])
        #expect(throws: CandidDecodingError.self) { try CandidDeserializer.decode(bytes + [0], as: types) }
    }

    @Test func everySingleByteCorruptionIsHandled() throws {
        let type = CandidType.variant([CandidFieldType("ok", .vec(.nat16)), CandidFieldType("err", .text)])
        let types = try CandidArgumentTypes([type])
        let bytes = try CandidSerializer.encode([.variant(CandidField("ok", .vec([.nat16(1), .nat16(2)])))], as: types)
        var decodedCount = 0
        for index in bytes.indices {
            for replacement: UInt8 in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                var corrupted = bytes
                corrupted[index] = replacement
                if (try? CandidDeserializer.decode(corrupted, as: types)) != nil { decodedCount += 1 }
                _ = try? CandidDeserializer.decodeUntyped(corrupted)
            }
        }
        #expect(decodedCount < bytes.count * 5)
    }
}
