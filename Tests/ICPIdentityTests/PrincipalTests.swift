import ByteCoding
import ICPIdentity
import Testing

/// Principal text ↔ bytes (IC interface spec §Textual representation of principals) beyond the vector file:
/// the examples in the reference notes, every parse error with its offset, and the principal classes.
@Suite struct PrincipalTests {
    @Test(arguments: [
        ("abcd01", "em77e-bvlzu-aq"),
        ("", "aaaaa-aa"),
        ("04", "2vxsx-fae"),
        ("00000000000000010101", "rrkah-fqaaa-aaaaa-aaaaq-cai"),
        ("00000000000000020101", "ryjl3-tyaaa-aaaaa-aaaba-cai"),
        ("caffee", "w7x7r-cok77-xa"),
        ("efcdab000000000001", "2chl6-4hpzw-vqaaa-aaaaa-c"),
        (
            "0102030405060708091011121314151617181920212223242526272829",
            "iineg-fibai-bqibi-ga4ea-searc-ijrif-iwc4m-bsibb-eirsi-jjge4-ucs"
        ),
    ])
    func bothDirections(hex: String, text: String) throws {
        let principal = try Principal(bytes: try Hex.decode(hex))
        #expect(principal.text == text)
        #expect(try Principal(text: text) == principal)
        #expect(try Principal(text: text.uppercased()) == principal)
    }

    @Test func parseErrorsNameTheProblem() {
        #expect(throws: PrincipalError.checksumMismatch(expected: 0x233F_F206, found: 0x233F_F386)) {
            // The last digit of the CRC group changed: "em77e" → "em77h" alters the low bits of the CRC.
            try Principal(text: "em77h-bvlzu-aq")
        }
        #expect(throws: PrincipalError.missingDash(offset: 5)) { try Principal(text: "em77ebvlzu-aq") }
        #expect(throws: PrincipalError.misplacedDash(offset: 4)) { try Principal(text: "em77-ebvlzu-aq") }
        #expect(throws: PrincipalError.misplacedDash(offset: 8)) { try Principal(text: "aaaaa-aa-") }
        #expect(throws: PrincipalError.invalidCharacter(offset: 2, character: "1")) {
            try Principal(text: "em17e-bvlzu-aq")
        }
        #expect(throws: PrincipalError.invalidCharacter(offset: 6, character: "é")) {
            try Principal(text: "em77e-évlzu-aq")
        }
        #expect(throws: PrincipalError.tooShort) { try Principal(text: "") }
        #expect(throws: PrincipalError.tooShort) { try Principal(text: "aaaaa") }
        #expect(throws: PrincipalError.invalidLength(digits: 6)) { try Principal(text: "aaaaa-a") }
        #expect(throws: PrincipalError.nonCanonical) { try Principal(text: "em77e-bvlzu-ar") }
        #expect(throws: PrincipalError.tooLong(30)) { try Principal(bytes: [UInt8](repeating: 1, count: 30)) }
        let thirty = Principal.textOfUnchecked([UInt8](repeating: 1, count: 30))
        #expect(throws: PrincipalError.tooLong(30)) { try Principal(text: thirty) }
        #expect(
            "\(PrincipalError.checksumMismatch(expected: 1, found: 2))".contains("expected 00000001, found 00000002"))
    }

    @Test func kinds() throws {
        #expect(Principal.managementCanister.kind == .managementCanister)
        #expect(Principal.managementCanister.text == "aaaaa-aa")
        #expect(Principal.anonymous.kind == .anonymous && Principal.anonymous.isAnonymous)
        #expect(try Principal(text: "ryjl3-tyaaa-aaaaa-aaaba-cai").kind == .opaque)
        let key = try DERPublicKey(ed25519: [UInt8](repeating: 7, count: 32))
        #expect(key.principal.kind == .selfAuthenticating)
        #expect(key.principal.bytes.count == 29)
        #expect(try Principal(bytes: [UInt8](repeating: 9, count: 28) + [0x03]).kind == .derived)
        #expect(try Principal(bytes: [1, 2, 0x7f]).kind == .reserved)
        #expect(try Principal(bytes: [0x04, 0x04]).kind == .opaque)
    }
}

extension Principal {
    /// The text a 30-byte "principal" would have, for testing that parsing refuses it.
    static func textOfUnchecked(_ bytes: [UInt8]) -> String {
        // Build the text by hand: CRC32 ‖ bytes, base32, grouped.
        let crc = CRC32.bigEndianChecksum(bytes)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var bits: [UInt8] = []
        for byte in crc + bytes { for shift in (0..<8).reversed() { bits.append(byte >> UInt8(shift) & 1) } }
        while bits.count % 5 != 0 { bits.append(0) }
        var digits: [Character] = []
        for start in stride(from: 0, to: bits.count, by: 5) {
            digits.append(alphabet[Int(bits[start..<(start + 5)].reduce(0) { $0 << 1 | $1 })])
        }
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && index % 5 == 0 { text.append("-") }
            text.append(digit)
        }
        return text
    }
}
