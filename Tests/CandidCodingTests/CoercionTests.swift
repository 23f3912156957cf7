import CandidCoding
import Testing

/// Coercion rules of the current Candid spec ("Coercion"), checked by encoding at one type and decoding at another.
struct CoercionTests {
    private func coerce(_ value: CandidValue, from wire: CandidType, to expected: CandidType) throws -> CandidValue {
        let bytes = try CandidSerializer.encode([value], types: [wire])
        return try CandidDeserializer.decode(bytes, as: CandidArgumentTypes([expected]))[0]
    }

    @Test func natCoercesToIntButNotToNat8() throws {
        #expect(try coerce(.nat(5), from: .nat, to: .int) == .int(5))
        #expect(throws: CandidDecodingError.self) { try coerce(.nat(5), from: .nat, to: .nat8) }
        #expect(throws: CandidDecodingError.self) { try coerce(.int(5), from: .int, to: .nat) }
    }

    @Test func specialOptRule() throws {
        // A non-opt value at an opt type is wrapped when it coerces...
        #expect(try coerce(.bool(true), from: .bool, to: .opt(.opt(.bool))) == .opt(.opt(.bool(true))))
        // ...and becomes null when it does not.
        #expect(try coerce(.bool(true), from: .bool, to: .opt(.nat)) == .opt(nil))
        #expect(try coerce(.opt(.bool(true)), from: .opt(.bool), to: .opt(.nat)) == .opt(nil))
        #expect(try coerce(.null, from: .null, to: .opt(.nat)) == .opt(nil))
        #expect(try coerce(.reserved, from: .reserved, to: .opt(.nat)) == .opt(nil))
        // A variant tag unknown to the expected type recovers to null under opt.
        let wire = CandidType.variant([CandidFieldType("a", .nat), CandidFieldType("b", .nat)])
        let expected = CandidType.variant([CandidFieldType("a", .nat)])
        #expect(try coerce(.variant(CandidField("b", .nat(1))), from: wire, to: .opt(expected)) == .opt(nil))
        #expect(
            try coerce(.variant(CandidField("a", .nat(1))), from: wire, to: .opt(expected))
                == .opt(.variant(CandidField("a", .nat(1)))))
        #expect(throws: CandidDecodingError.self) {
            try coerce(.variant(CandidField("b", .nat(1))), from: wire, to: expected)
        }
    }

    @Test func recordFieldsDefaultOnlyForNullOptReserved() throws {
        let wire = CandidType.record([CandidFieldType("a", .nat)])
        let value = CandidValue.makeRecord([CandidField("a", .nat(1))])
        let widened = CandidType.record([
            CandidFieldType("a", .nat), CandidFieldType("b", .opt(.text)), CandidFieldType("c", .null),
            CandidFieldType("d", .reserved),
        ])
        let decoded = try coerce(value, from: wire, to: widened)
        guard case .record(let fields) = decoded else {
            Issue.record("not a record")
            return
        }
        #expect(fields.map(\.value).contains(.opt(nil)))
        #expect(fields.count == 4)
        #expect(throws: CandidDecodingError.self) {
            try coerce(value, from: wire, to: .record([CandidFieldType("a", .nat), CandidFieldType("b", .text)]))
        }
        // Extra wire fields are skipped.
        #expect(try coerce(value, from: wire, to: .record([])) == .record([]))
    }

    @Test func argumentsExtraIgnoredAndMissingOptionalFilled() throws {
        let bytes = try CandidSerializer.encode([.nat(1), .text("x")], types: [.nat, .text])
        #expect(try CandidDeserializer.decode(bytes, as: CandidArgumentTypes([.nat])) == [.nat(1)])
        let filled = try CandidDeserializer.decode(bytes, as: CandidArgumentTypes([.nat, .text, .opt(.nat), .null]))
        #expect(filled == [.nat(1), .text("x"), .opt(nil), .null])
        #expect(throws: CandidDecodingError.self) {
            try CandidDeserializer.decode(bytes, as: CandidArgumentTypes([.nat, .text, .nat]))
        }
    }

    @Test func reservedIsTopButNotNull() throws {
        #expect(try coerce(.text("x"), from: .text, to: .reserved) == .reserved)
        #expect(throws: CandidDecodingError.self) { try coerce(.reserved, from: .reserved, to: .null) }
    }

    @Test func serviceDecodesAtPrincipalButNotReverse() throws {
        let service = CandidType.service(CandidServiceType(methods: []))
        let principal = CandidPrincipal(bytes: [1, 2, 3])
        #expect(try coerce(.service(principal), from: service, to: .principal) == .principal(principal))
        #expect(throws: CandidDecodingError.self) { try coerce(.principal(principal), from: .principal, to: service) }
    }

    @Test func functionSubtyping() throws {
        let reference = CandidValue.function(CandidFunctionReference(service: .managementCanister, method: "m"))
        let wire = CandidType.function(CandidFunctionType(arguments: [.text], results: [.nat]))
        // Contravariant arguments (extra optional argument), covariant results (nat <: int, dropped result).
        let wider = CandidType.function(CandidFunctionType(arguments: [.text, .opt(.text)], results: [.int]))
        #expect(try coerce(reference, from: wire, to: wider) == reference)
        let query = CandidType.function(CandidFunctionType(arguments: [.text], results: [.nat], modes: [.query]))
        #expect(throws: CandidDecodingError.self) { try coerce(reference, from: wire, to: query) }
        #expect(try coerce(reference, from: wire, to: .opt(query)) == .opt(nil))
    }

    @Test func vecElementsCoercePointwise() throws {
        #expect(try coerce(.vec([.nat(1)]), from: .vec(.nat), to: .vec(.int)) == .vec([.int(1)]))
        #expect(
            try coerce(.vec([.null, .null]), from: .vec(.null), to: .vec(.opt(.nat))) == .vec([.opt(nil), .opt(nil)]))
    }
}
