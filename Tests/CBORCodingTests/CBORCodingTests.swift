import CBORCoding
import Testing

func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format2: $0) }.joined() }

extension String {
    init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 0xf)]])
    }
}

func bytes(_ hex: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        out.append(UInt8(hex[index..<next], radix: 16)!)
        index = next
    }
    return out
}

/// CBOR (RFC 8949) in the IC's profile: the examples of RFC 8949 Appendix A that fall inside it, both
/// directions; every decoding error with its offset; hostile inputs.
@Suite struct CBORCodingTests {
    static let appendixA: [(CBORValue, String)] = [
        (.unsigned(0), "00"), (.unsigned(1), "01"), (.unsigned(10), "0a"), (.unsigned(23), "17"),
        (.unsigned(24), "1818"),
        (.unsigned(25), "1819"), (.unsigned(100), "1864"), (.unsigned(1000), "1903e8"),
        (.unsigned(1_000_000), "1a000f4240"),
        (.unsigned(1_000_000_000_000), "1b000000e8d4a51000"), (.unsigned(UInt64.max), "1bffffffffffffffff"),
        (.negative(UInt64.max), "3bffffffffffffffff"), (.negative(0), "20"), (.negative(9), "29"),
        (.negative(99), "3863"),
        (.negative(999), "3903e7"), (.bool(false), "f4"), (.bool(true), "f5"), (.null, "f6"),
        (.tagged(1, .unsigned(1_363_896_240)), "c11a514b67b0"), (.tagged(23, .bytes([1, 2, 3, 4])), "d74401020304"),
        (.tagged(32, .text("http://www.example.com")), "d82076687474703a2f2f7777772e6578616d706c652e636f6d"),
        (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"), (.text(""), "60"), (.text("a"), "6161"),
        (.text("IETF"), "6449455446"), (.text("\"\\"), "62225c"), (.text("\u{00fc}"), "62c3bc"),
        (.text("\u{6c34}"), "63e6b0b4"), (.text("\u{10151}"), "64f0908591"), (.array([]), "80"),
        (.array([.unsigned(1), .unsigned(2), .unsigned(3)]), "83010203"),
        (
            .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])]),
            "8301820203820405"
        ),
        (.array((1...25).map { .unsigned($0) }), "98190102030405060708090a0b0c0d0e0f101112131415161718181819"),
        (.map([]), "a0"),
        (
            .map([
                CBORMapEntry(key: .unsigned(1), value: .unsigned(2)),
                CBORMapEntry(key: .unsigned(3), value: .unsigned(4)),
            ]), "a201020304"
        ),
        (.map(["a": .unsigned(1), "b": .array([.unsigned(2), .unsigned(3)])]), "a26161016162820203"),
        (.array([.text("a"), .map(["b": .text("c")])]), "826161a161626163"),
    ]

    @Test func appendixAExamplesBothDirections() throws {
        for (value, encoding) in Self.appendixA {
            #expect(hex(CBOREncoder.encode(value)) == encoding, "\(value)")
            #expect(try CBORDecoder().decode(bytes(encoding)) == value, "\(encoding)")
        }
    }

    @Test func selfDescribeTagIsOptional() throws {
        let tagged = try CBORDecoder().decode(bytes("d9d9f7a16161f6"))
        #expect(tagged == .tagged(55799, .map(["a": .null])))
        #expect(tagged.untagged == .map(["a": .null]))
        #expect(tagged["a"] == .null && tagged["a"]?.isNull == true)
        #expect(hex(CBOREncoder.encode(.map(["a": .null]), selfDescribed: true)) == "d9d9f7a16161f6")
        #expect(CBORValue.tagged(2, .bytes([0, 0, 1, 0])).uint64Value == 256)
        #expect(CBORValue.tagged(2, .bytes([UInt8](repeating: 1, count: 9))).uint64Value == nil)
    }

    @Test func errorsCarryOffsets() {
        let cases: [(String, CBORDecodingError)] = [
            ("", CBORDecodingError(.unexpectedEnd, offset: 0)),
            ("1903", CBORDecodingError(.unexpectedEnd, offset: 2)),
            ("0001", CBORDecodingError(.trailingBytes, offset: 1)),
            ("1c", CBORDecodingError(.reservedAdditionalInfo(28), offset: 0)),
            ("5f41ff", CBORDecodingError(.indefiniteLength, offset: 0)),
            ("819f", CBORDecodingError(.indefiniteLength, offset: 1)),
            ("829f", CBORDecodingError(.lengthTooLarge(2), offset: 0)),
            ("f93c00", CBORDecodingError(.unsupportedSimpleValue(25), offset: 0)),
            ("f7", CBORDecodingError(.unsupportedSimpleValue(23), offset: 0)),
            ("8162c328", CBORDecodingError(.invalidUTF8, offset: 1)),
            ("5bffffffffffffffff", CBORDecodingError(.lengthTooLarge(UInt64.max), offset: 0)),
            ("44010203", CBORDecodingError(.lengthTooLarge(4), offset: 0)),
            ("9bffffffffffffffff00", CBORDecodingError(.lengthTooLarge(UInt64.max), offset: 0)),
            ("a2010201", CBORDecodingError(.lengthTooLarge(2), offset: 0)),
            ("a3010201030104", CBORDecodingError(.duplicateMapKey, offset: 3)),
        ]
        for (input, error) in cases {
            #expect(throws: error, "\(input)") { try CBORDecoder().decode(bytes(input)) }
        }
        #expect("\(CBORDecodingError(.invalidUTF8, offset: 3))" == "CBOR: text string is not valid UTF-8 at offset 3")
    }

    /// Maps of up to 16 entries are checked for duplicate keys by comparison, larger ones by hashing: both refuse
    /// a repeated key at its offset, whatever its type, and both accept distinct keys that hash or compare close.
    @Test(arguments: [2, 15, 16, 17, 40]) func duplicateKeysAreRefusedInSmallAndLargeMaps(count: Int) throws {
        let keys: [CBORValue] = (0..<count).map { i in
            switch i % 4 {
            case 0: return .unsigned(UInt64(i))
            case 1: return .text("k\(i)")
            case 2: return .bytes([UInt8(i)])
            default: return .negative(UInt64(i))
            }
        }
        let distinct = CBORValue.map(
            keys.enumerated().map { CBORMapEntry(key: $0.element, value: .unsigned(UInt64($0.offset))) })
        #expect(try CBORDecoder().decode(CBOREncoder.encode(distinct)) == distinct)
        for repeated in [0, (count - 1) / 2, count - 2] {
            var entries = keys.dropLast().map { CBORMapEntry(key: $0, value: .null) }
            entries.append(CBORMapEntry(key: keys[repeated], value: .null))
            let encoded = CBOREncoder.encode(.map(entries))
            // The last key starts where the map of the others ends (both heads have the same length for these counts).
            let offset = CBOREncoder.encode(.map(Array(entries.dropLast()))).count
            let expected = CBORDecodingError(.duplicateMapKey, offset: offset)
            #expect(throws: expected, "\(count) keys, repeating \(repeated)") { try CBORDecoder().decode(encoded) }
        }
    }

    @Test func textKeyLookupFindsTheFirstTextKeyOnly() {
        let map = CBORValue.map([
            CBORMapEntry(key: .bytes(Array("a".utf8)), value: .unsigned(0)),
            CBORMapEntry(key: .text("a"), value: .unsigned(1)),
            CBORMapEntry(key: .text("b"), value: .unsigned(2)),
        ])
        #expect(map["a"] == .unsigned(1))
        #expect(map["b"] == .unsigned(2))
        #expect(map["c"] == nil)
        #expect(CBORValue.tagged(CBORValue.selfDescribeTag, map)["b"] == .unsigned(2))
        #expect(CBORValue.array([])["a"] == nil)
    }

    @Test func depthAndCountLimits() throws {
        let deep = [UInt8](repeating: 0x81, count: 65) + [0x00]
        #expect(throws: CBORDecodingError(.tooDeep(limit: 64), offset: 65)) { try CBORDecoder().decode(deep) }
        let tags = [UInt8](repeating: 0xc1, count: 10_000) + [0x00]
        #expect(throws: CBORDecodingError(.tooDeep(limit: 64), offset: 65)) { try CBORDecoder().decode(tags) }
        #expect(try CBORDecoder(maxDepth: 70).decode(deep) != .null)
        #expect(throws: CBORDecodingError(.lengthTooLarge(3), offset: 0)) {
            try CBORDecoder(maxCollectionCount: 2).decode(bytes("83010203"))
        }
        #expect(try CBORDecoder(rejectsDuplicateKeys: false).decode(bytes("a201020103")).mapEntries?.count == 2)
    }

    /// Every prefix of a valid envelope fails cleanly, and deterministic pseudo-random mutations never crash.
    @Test func hostileInputsNeverCrash() {
        let envelope = CBOREncoder.encode(
            .map([
                "content": .map([
                    "request_type": .text("query"), "sender": .bytes([4]), "ingress_expiry": .unsigned(1 << 62),
                    "paths": .array([.array([.bytes(Array("time".utf8))])]),
                ]),
                "sender_pubkey": .null, "sender_sig": .null,
            ]), selfDescribed: true)
        for length in 0..<envelope.count {
            #expect(throws: CBORDecodingError.self) { try CBORDecoder().decode(Array(envelope[0..<length])) }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        var decoded = 0
        for _ in 0..<20_000 {
            var input = envelope
            for _ in 0..<(1 + Int(next() % 4)) {
                input[Int(next() % UInt64(input.count))] = UInt8(truncatingIfNeeded: next())
            }
            if (try? CBORDecoder().decode(input)) != nil { decoded += 1 }
        }
        #expect(decoded < 20_000)
    }

    @Test func canonicalMapSortsByEncodedKey() {
        let map = CBOREncoder.canonicalMap([
            CBORMapEntry(key: .text("bb"), value: .unsigned(1)), CBORMapEntry(key: .unsigned(10), value: .unsigned(2)),
            CBORMapEntry(key: .text("a"), value: .unsigned(3)), CBORMapEntry(key: .unsigned(1), value: .unsigned(4)),
        ])
        #expect(hex(CBOREncoder.encode(map)) == "a401040a0261610362626201")
    }
}
