import CandidCoding
import Testing

/// Every Candid type: encode a value, decode it at the same type, compare; also check selected exact bytes.
struct TypeRoundTripTests {
    static let list = CandidTypeEnvironment([
        "List": .opt(.record([CandidFieldType("head", .int), CandidFieldType("tail", .named("List"))]))
    ])

    static let cases: [(CandidType, CandidValue)] = [
        (.null, .null),
        (.bool, .bool(true)),
        (.nat, .nat(CandidNat(decimal: "123456789012345678901234567890")!)),
        (.int, .int(CandidInt(decimal: "-123456789012345678901234567890")!)),
        (.nat8, .nat8(255)), (.nat16, .nat16(65535)), (.nat32, .nat32(4_294_967_295)), (.nat64, .nat64(.max)),
        (.int8, .int8(-128)), (.int16, .int16(-32768)), (.int32, .int32(.min)), (.int64, .int64(.min)),
        (.float32, .float32(-0.5)), (.float64, .float64(3.25)),
        (.text, .text("Motoko ☃ \n")),
        (.reserved, .reserved),
        (.principal, .principal(CandidPrincipal(bytes: [0xca, 0xff, 0xee]))),
        (.opt(.nat8), .opt(.nat8(7))), (.opt(.nat8), .opt(nil)),
        (.vec(.int16), .vec([.int16(1), .int16(-2)])),
        (.blob, .blob([0, 1, 2, 255])),
        (
            .record([CandidFieldType("foo", .int32), CandidFieldType("bar", .bool)]),
            .makeRecord([CandidField("foo", .int32(42)), CandidField("bar", .bool(false))])
        ),
        (.tuple([.text, .nat8]), .tuple([.text("a"), .nat8(1)])),
        (
            .variant([CandidFieldType("Ok", .text), CandidFieldType("Err", .text)]),
            .variant(CandidField("Err", .text("x")))
        ),
        (
            .function(CandidFunctionType(arguments: [.text], results: [.nat], modes: [.query])),
            .function(CandidFunctionReference(service: CandidPrincipal(bytes: [1, 2]), method: "foo"))
        ),
        (
            .service(
                CandidServiceType(methods: [
                    CandidMethod(name: "m", type: .function(CandidFunctionType(arguments: [], results: [])))
                ])), .service(CandidPrincipal(bytes: [9]))
        ),
        (
            .named("List"),
            .opt(
                .makeRecord([
                    CandidField("head", .int(1)),
                    CandidField(
                        "tail",
                        .opt(
                            .makeRecord([
                                CandidField("head", .int(2)), CandidField("tail", .opt(nil)),
                            ]))),
                ]))
        ),
    ]

    @Test(arguments: 0..<cases.count)
    func roundTrip(index: Int) throws {
        let (type, value) = Self.cases[index]
        let types = try CandidArgumentTypes([type], environment: Self.list)
        let bytes = try CandidSerializer.encode([value], as: types)
        #expect(Array(bytes.prefix(4)) == Array("DIDL".utf8))
        let decoded = try CandidDeserializer.decode(bytes, as: types)
        #expect(decoded == [value])
        // The untyped path (wire types only) agrees on the value up to field names.
        let untyped = try CandidDeserializer.decodeUntyped(bytes)
        #expect(untyped.values.count == 1)
        // And the text form parses back to the same value at the same type.
        let text = CandidValue.argumentsText(decoded)
        let reparsed = try CandidTextValue.typed(CandidTextParser.parseArguments(text), as: types)
        #expect(reparsed == [value], "text round trip of \(text)")
    }

    @Test func decodeOneUsesFastAndCoercingPaths() throws {
        let types = try CandidArgumentTypes([.record([CandidFieldType("a", .nat), CandidFieldType("b", .opt(.text))])])
        let value = CandidValue.makeRecord([CandidField("a", .nat(1)), CandidField("b", .opt(.text("x")))])
        let exact = try CandidSerializer.encode([value], as: types)
        #expect(try CandidDeserializer.decodeOne(exact, as: types) == value)
        #expect(throws: CandidDecodingError.self) { try CandidDeserializer.decodeOne(exact + [0], as: types) }
        // A different wire type (field b missing) goes through the coercing path.
        let other = try CandidSerializer.encode(
            [.makeRecord([CandidField("a", .nat(1))])],
            types: [.record([CandidFieldType("a", .nat)])])
        #expect(
            try CandidDeserializer.decodeOne(other, as: types)
                == .makeRecord([CandidField("a", .nat(1)), CandidField("b", .opt(nil))]))
    }

    @Test func exactBytesForSimpleMessages() throws {
        #expect(
            try CandidSerializer.encode([.nat(42)], types: [.nat]) == Array("DIDL".utf8) + [0x00, 0x01, 0x7d, 0x2a])
        #expect(try CandidSerializer.encode([], types: []) == Array("DIDL".utf8) + [0x00, 0x00])
        let record = try CandidSerializer.encode(
            [.makeRecord([CandidField("foo", .int(42)), CandidField("bar", .bool(true))])],
            types: [.record([CandidFieldType("foo", .int), CandidFieldType("bar", .bool)])])
        // Fields are sorted by hash: bar (4895187) before foo (5097222).
        #expect(
            record == Array("DIDL".utf8) + [
                0x01, 0x6c, 0x02, 0xd3, 0xe3, 0xaa, 0x02, 0x7e, 0x86, 0x8e, 0xb7, 0x02,
                0x7c, 0x01, 0x00, 0x01, 0x2a,
            ])
    }

    @Test func fieldHashes() {
        #expect(CandidLabel.hash("foo") == 5_097_222)
        #expect(CandidLabel.hash("e8s") == 5_035_232)
        #expect(CandidLabel.hash("from_subaccount") == 1_835_347_746)
        #expect(CandidLabel.hash("☃") == 11_272_781)
    }

    @Test func encodingRejectsMismatchedValuesWithPath() {
        let type = CandidType.record([CandidFieldType("a", .vec(.nat8))])
        #expect(throws: CandidEncodingError.self) {
            try CandidSerializer.encode([.makeRecord([CandidField("a", .vec([.text("x")]))])], types: [type])
        }
        do {
            _ = try CandidSerializer.encode([.makeRecord([CandidField("a", .vec([.text("x")]))])], types: [type])
        } catch {
            #expect(error.path == "arg 0 / field a / [0]")
        }
        #expect(throws: CandidEncodingError.self) { try CandidSerializer.encode([.nat8(1)], types: [.empty]) }
        #expect(throws: CandidEncodingError.self) { try CandidSerializer.encode([.int(-1)], types: [.nat]) }
        #expect(throws: CandidEncodingError.self) { try CandidSerializer.encode([.nat(300)], types: [.nat8]) }
    }

    @Test func missingOptFieldIsEncodedAsNull() throws {
        let type = CandidType.record([CandidFieldType("a", .opt(.nat)), CandidFieldType("b", .nat)])
        let types = try CandidArgumentTypes([type])
        let bytes = try CandidSerializer.encode([.makeRecord([CandidField("b", .nat(1))])], as: types)
        let decoded = try CandidDeserializer.decode(bytes, as: types)
        #expect(decoded == [.makeRecord([CandidField("a", .opt(nil)), CandidField("b", .nat(1))])])
    }

    @Test func vacuousAndUnknownTypesAreRejected() {
        #expect(throws: CandidTypeError.self) {
            try CandidArgumentTypes([.named("T")], environment: CandidTypeEnvironment(["T": .named("T")]))
        }
        #expect(throws: CandidTypeError.self) { try CandidArgumentTypes([.named("Missing")]) }
        #expect(throws: CandidTypeError.self) {
            try CandidArgumentTypes([
                .record([CandidFieldType(CandidLabel(id: 1), .nat), CandidFieldType(CandidLabel(id: 1), .int)])
            ])
        }
    }
}
