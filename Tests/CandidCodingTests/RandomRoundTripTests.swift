import CandidCoding
import Testing

/// Seeded random types and values: binary and text round trips (the official suite recommends random round-trip
/// tests because it does not test encoding).
struct RandomRoundTripTests {
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

        mutating func type(depth: Int) -> CandidType {
            let primitives: [CandidType] = [
                .null, .bool, .nat, .int, .nat8, .nat16, .nat32, .nat64, .int8, .int16, .int32, .int64, .float32,
                .float64, .text, .reserved, .principal,
            ]
            if depth == 0 || below(3) == 0 { return primitives[below(primitives.count)] }
            switch below(5) {
            case 0: return .opt(type(depth: depth - 1))
            case 1: return .vec(type(depth: depth - 1))
            case 2, 3:
                let names = ["a", "b", "foo", "bar", "☃", "_1", "amount"]
                var fields: [CandidFieldType] = []
                for name in names.shuffled(using: &self).prefix(below(4) + (below(2))) {
                    fields.append(CandidFieldType(name, type(depth: depth - 1)))
                }
                if below(2) == 0 { return .record(fields) }
                return fields.isEmpty ? .variant([CandidFieldType("only", .null)]) : .variant(fields)
            default:
                return .tuple((0..<below(3)).map { _ in type(depth: depth - 1) })
            }
        }

        mutating func value(_ type: CandidType) -> CandidValue {
            switch type {
            case .null: return .null
            case .reserved: return .reserved
            case .bool: return .bool(below(2) == 0)
            case .nat: return .nat(CandidNat(limbs: [next(), below(2) == 0 ? 0 : next()]))
            case .int:
                return .int(
                    CandidInt(
                        isNegative: below(2) == 0, magnitude: CandidNat(limbs: [next(), below(2) == 0 ? 0 : next()])))
            case .nat8: return .nat8(UInt8(truncatingIfNeeded: next()))
            case .nat16: return .nat16(UInt16(truncatingIfNeeded: next()))
            case .nat32: return .nat32(UInt32(truncatingIfNeeded: next()))
            case .nat64: return .nat64(next())
            case .int8: return .int8(Int8(truncatingIfNeeded: next()))
            case .int16: return .int16(Int16(truncatingIfNeeded: next()))
            case .int32: return .int32(Int32(truncatingIfNeeded: next()))
            case .int64: return .int64(Int64(truncatingIfNeeded: next()))
            case .float32: return .float32(Float(Int32(truncatingIfNeeded: next())) / 64)
            case .float64: return .float64(Double(Int64(truncatingIfNeeded: next())) / 1024)
            case .text: return .text(["", "x", "☃ \"q\"\n", "\\u{1F402}🐂", "tab\t"][below(5)])
            case .principal:
                return .principal(
                    CandidPrincipal(bytes: (0..<below(30)).map { _ in UInt8(truncatingIfNeeded: next()) }))
            case .opt(let inner): return below(3) == 0 ? .opt(nil) : .opt(value(inner))
            case .vec(.nat8): return .blob((0..<below(5)).map { _ in UInt8(truncatingIfNeeded: next()) })
            case .vec(let inner): return .vec((0..<below(4)).map { _ in value(inner) })
            case .record(let fields):
                return .makeRecord(fields.map { CandidField($0.label, value($0.type)) })
            case .variant(let fields):
                let field = fields[below(fields.count)]
                return .variant(CandidField(field.label, value(field.type)))
            default: return .null
            }
        }
    }

    @Test(arguments: 0..<200)
    func randomRoundTrip(seed: Int) throws {
        var generator = Generator(state: UInt64(seed) &* 7919)
        let types = (0..<(generator.below(3) + 1)).map { _ in generator.type(depth: 3) }
        let values = types.map { generator.value($0) }
        let compiled = try CandidArgumentTypes(types)
        let bytes = try CandidSerializer.encode(values, as: compiled)
        // Typed (fast path) decode.
        #expect(try CandidDeserializer.decode(bytes, as: compiled) == values)
        // Untyped decode equals up to labels, and re-encodes to the same bytes at the wire types.
        let message = try CandidDeserializer.decodeUntyped(bytes)
        #expect(message.values == values)
        let reencoded = try CandidSerializer.encode(
            message.values, types: message.types, environment: message.environment)
        #expect(try CandidDeserializer.decode(reencoded, as: compiled) == values)
        // Text round trip at the same types.
        let text = CandidValue.argumentsText(values)
        let parsed = try CandidTextValue.typed(CandidTextParser.parseArguments(text), as: compiled)
        #expect(parsed == values, "\(text)")
        // Type text round trip.
        for type in types {
            #expect(try CandidTextParser.parseType(type.candidText).candidText == type.candidText)
        }
    }
}

extension RandomRoundTripTests.Generator: RandomNumberGenerator {}
