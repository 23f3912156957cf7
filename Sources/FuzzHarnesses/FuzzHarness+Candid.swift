import CandidCoding

extension FuzzHarness {
    /// Limits that keep one input in the microsecond-to-millisecond range (the defaults allow 20 M units).
    static let candidOptions = CandidDecodingOptions(
        budget: 2_000_000, maximumDepth: 256, maximumTypeTableLength: 1_000)

    /// Candid without an expected type: decode at the wire types, print as text, encode the values again at the
    /// same types and decode that: the values must come back.
    @Sendable public static func candidUntyped(_ data: [UInt8]) {
        guard let message = try? CandidDeserializer.decodeUntyped(data, options: candidOptions) else { return }
        _ = CandidValue.argumentsText(message.values)
        let encoded: [UInt8]
        do {
            encoded = try CandidSerializer.encode(
                message.values, types: message.types, environment: message.environment)
        } catch {
            violated("candid: decoded values re-encode at their wire types", "\(error) for \(data.fuzzHex)")
        }
        // The re-encoding is at most as costly as the input (no LEB128 padding, no skipped values), so the
        // same budget suffices.
        do {
            let again = try CandidDeserializer.decodeUntyped(encoded, options: candidOptions)
            check(again.values == message.values, "candid: decode(encode(values)) == values", data.fuzzHex)
        } catch {
            violated("candid: re-encoding decodes", "\(error) for \(data.fuzzHex) -> \(encoded.fuzzHex)")
        }
    }

    /// Candid with an expected type. Input: Candid type text (`(nat, opt text)`), a NUL byte, then the binary
    /// message. The type text is parsed with the project's own parser (fuzzing it as well); the message is
    /// decoded and coerced to it, then re-encoded at the expected types and decoded again.
    @Sendable public static func candidTyped(_ data: [UInt8]) {
        guard let separator = data.firstIndex(of: 0) else { return }
        let typeText = String(decoding: data[..<separator], as: UTF8.self)
        let message = Array(data[(separator + 1)...])
        guard let parsed = try? CandidTextParser.parseArgumentTypes(typeText),
            let types = try? CandidArgumentTypes(parsed)
        else { return }
        guard let values = try? CandidDeserializer.decode(message, as: types, options: candidOptions) else { return }
        if parsed.count == 1 {
            check(
                (try? CandidDeserializer.decodeOne(message, as: types, options: candidOptions)) == values[0],
                "candid-typed: decodeOne agrees with decode", data.fuzzHex)
        }
        _ = CandidValue.argumentsText(values)
        let encoded: [UInt8]
        do {
            encoded = try CandidSerializer.encode(values, as: types)
        } catch {
            violated("candid-typed: coerced values re-encode at the expected types", "\(error) for \(data.fuzzHex)")
        }
        do {
            let again = try CandidDeserializer.decode(encoded, as: types, options: candidOptions)
            check(again == values, "candid-typed: decode(encode(values)) == values", data.fuzzHex)
        } catch {
            violated("candid-typed: re-encoding decodes", "\(error) for \(data.fuzzHex) -> \(encoded.fuzzHex)")
        }
    }
}
