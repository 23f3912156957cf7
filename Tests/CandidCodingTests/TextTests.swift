import CandidCoding
import Foundation
import Testing

struct TextTests {
    @Test func principalTextRoundTrips() throws {
        #expect(CandidPrincipal.managementCanister.text == "aaaaa-aa")
        #expect(CandidPrincipal.anonymous.text == "2vxsx-fae")
        #expect(CandidPrincipal(bytes: [0xca, 0xff, 0xee]).text == "w7x7r-cok77-xa")
        #expect(CandidPrincipal(bytes: [0xef, 0xcd, 0xab, 0, 0, 0, 0, 0, 1]).text == "2chl6-4hpzw-vqaaa-aaaaa-c")
        #expect(try CandidPrincipal(text: "ryjl3-tyaaa-aaaaa-aaaba-cai").bytes == [0, 0, 0, 0, 0, 0, 0, 2, 1, 1])
        #expect(throws: CandidTextError.self) { try CandidPrincipal(text: "w7x7r-cok77-xb") }
        #expect(throws: CandidTextError.self) { try CandidPrincipal(text: "not a principal") }
    }

    /// Candid's `principal` and ICPIdentity's `Principal` read text with the one parser in ByteCoding: the same
    /// texts are refused, and the error says why.
    @Test func principalTextErrorsNameTheReason() throws {
        func refusal(_ text: String, _ reason: String) -> CandidTextError {
            CandidTextError(line: 1, column: 1, "invalid principal text \"\(text)\": \(reason)")
        }
        #expect(throws: refusal("aaaaa-aa-", "misplaced '-' at offset 8 of the principal text")) {
            try CandidPrincipal(text: "aaaaa-aa-")
        }
        // U+212A KELVIN SIGN lowercases to ASCII "k"; lowercasing the whole text first accepted it.
        let kelvin = "rr\u{212A}ah-fqaaa-aaaaa-aaaaq-cai"
        #expect(throws: refusal(kelvin, "invalid character '\u{212A}' at offset 2 of the principal text")) {
            try CandidPrincipal(text: kelvin)
        }
        #expect(throws: refusal("w7x7r-cok77-xb", "principal text is not canonical (non-zero padding bits)")) {
            try CandidPrincipal(text: "w7x7r-cok77-xb")
        }
        #expect(try CandidPrincipal(text: "RYJL3-TYAAA-AAAAA-AAABA-CAI").bytes == [0, 0, 0, 0, 0, 0, 0, 2, 1, 1])
    }

    /// The published principal examples in `icp/icp_principal_account_examples.json`, both directions.
    @Test func principalVectorsFromSharedFile() throws {
        // swift-format-ignore: AlwaysUseLowerCamelCase
        struct Example: Decodable {
            var text: String
            var bytes_hex: String
        }
        // swift-format-ignore: AlwaysUseLowerCamelCase
        struct File: Decodable {
            var principal_text: [Example]
        }
        let json = try VectorDirectory.read("icp/icp_principal_account_examples.json")
        let examples = try JSONDecoder().decode(File.self, from: Data(json.utf8)).principal_text
        #expect(examples.count == 7)
        for example in examples {
            let expectedText = example.text
            let hex = example.bytes_hex
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(try #require(UInt8(hex[index..<next], radix: 16)))
                index = next
            }
            #expect(CandidPrincipal(bytes: bytes).text == expectedText)
            #expect(try CandidPrincipal(text: expectedText).bytes == bytes)
        }
    }

    @Test func encodesTextualArgumentsWithAnnotations() throws {
        let bytes = try CandidTextCodec.encode(
            "(42 : nat, \"x\", opt record { a = 1 : nat8 }, blob \"\\01\\02\", principal \"aaaaa-aa\")")
        let text = try CandidTextCodec.decode(bytes, types: "(nat, text, opt record { a : nat8 }, blob, principal)")
        #expect(text == "(42, \"x\", opt record { a = 1 }, blob \"\\01\\02\", principal \"aaaaa-aa\")")
    }

    @Test func numbersWithUnderscoresHexAndFloats() throws {
        let bytes = try CandidTextCodec.encode(
            "(1_000_000, 0xff, 3., -0.5, 1e3)", types: "(nat, nat8, float32, float64, float64)")
        #expect(try CandidTextCodec.decode(bytes) == "(1000000, 255, 3.0, -0.5, 1000.0)")
    }

    @Test func specialFloatsRoundTrip() throws {
        let types = try CandidArgumentTypes([.float64, .float64, .float32])
        let values: [CandidValue] = [.float64(-.infinity), .float64(.infinity), .float32(.nan)]
        let text = CandidValue.argumentsText(values)
        #expect(text == "(-inf, inf, nan)")
        #expect(try CandidTextValue.typed(CandidTextParser.parseArguments(text), as: types) == values)
    }

    @Test func variantsRecordsAndFieldIds() throws {
        let types =
            "(variant { Ok : nat; Err : text }, record { 1 : bool; name : text; \"☃\" : null }, variant { nil; cons })"
        let text = "(variant { Err = \"bad\" }, record { 1 = true; name = \"n\" }, variant { cons })"
        let bytes = try CandidTextCodec.encode(text, types: types)
        #expect(
            try CandidTextCodec.decode(bytes, types: types)
                == "(variant { Err = \"bad\" }, record { 1 = true; \"☃\" = null; name = \"n\" }, variant { cons })")
    }

    @Test func referencesInText() throws {
        let types = "(func (text) -> (nat) query, service { m : () -> () })"
        let text = "(func \"w7x7r-cok77-xa\".\"my method\", service \"aaaaa-aa\")"
        let bytes = try CandidTextCodec.encode(text, types: types)
        #expect(
            try CandidTextCodec.decode(bytes, types: types)
                == "(func \"w7x7r-cok77-xa\".\"my method\", service \"aaaaa-aa\")")
    }

    @Test func textEscapesRoundTrip() throws {
        let value = CandidValue.text("tab\tquote\"back\\slash\u{1}☃")
        let printed = value.candidText
        let parsed = try CandidTextValue.typed(
            CandidTextParser.parseArguments("(\(printed))"), as: CandidArgumentTypes([.text]))
        #expect(parsed == [value])
    }

    @Test func parseErrorsCarryLineAndColumn() {
        do {
            _ = try CandidTextParser.parseArguments("(1,\n  record { a = })")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 16)
        }
        #expect(throws: CandidTextError.self) { try CandidTextParser.parseArguments("(\"\\u{2603\")") }
        #expect(throws: CandidTextError.self) { try CandidTextParser.parseArguments("(variant {})") }
    }

    @Test func typesPrintAndReparse() throws {
        let text =
            "record { to : blob; fee : opt nat; kind : variant { a; b : vec text }; f : func (nat) -> () oneway }"
        let type = try CandidTextParser.parseType(text)
        let reparsed = try CandidTextParser.parseType(type.candidText)
        #expect(reparsed.candidText == type.candidText)
        #expect(type.candidText.contains("f : func (nat) -> () oneway"))
    }
}
