import ByteCoding
import ICPIdentity
import Testing

/// ICP account identifiers and ICRC-1 account texts beyond the vector file.
@Suite struct AccountTests {
    @Test func accountIdentifiersOfSpecialPrincipals() throws {
        #expect(
            AccountIdentifier(principal: .anonymous).hex
                == "1c7a48ba6a562aa9eaa2481a9049cdf0433b9738c992d698c31d8abf89cadc79")
        #expect(
            AccountIdentifier(principal: .managementCanister, subaccount: .default).hex
                == "2d0e897f7e862d2b57d9bc9ea5c65f9a24ac6c074575f47898314b8d6cb0929d")
        let zeroHash = try AccountIdentifier(bytes: [UInt8](repeating: 0, count: 28))
        #expect(Hex.encode(zeroHash.checksum) == "807077e9")
        #expect(try AccountIdentifier(hex: String(repeating: "0", count: 56)) == zeroHash)
        #expect(try AccountIdentifier(hex: "807077E9" + String(repeating: "0", count: 56)) == zeroHash)
    }

    @Test func accountIdentifierErrors() {
        #expect(throws: AccountIdentifierError.checksumMismatch(expected: 0x8070_77e9, found: 0)) {
            try AccountIdentifier(hex: String(repeating: "0", count: 64))
        }
        #expect(throws: AccountIdentifierError.invalidHexLength(58)) {
            try AccountIdentifier(hex: String(repeating: "0", count: 58))
        }
        #expect(throws: AccountIdentifierError.invalidHexDigit(offset: 3)) {
            try AccountIdentifier(hex: "807g77e9" + String(repeating: "0", count: 56))
        }
        #expect(throws: AccountIdentifierError.invalidLength(29)) {
            try AccountIdentifier(bytes: [UInt8](repeating: 0, count: 29))
        }
        let message = "\(AccountIdentifierError.checksumMismatch(expected: 0xd3e1_3d47, found: 0xbad1_3d47))"
        #expect(message == "account identifier checksum mismatch: expected d3e13d47, found bad13d47")
    }

    @Test func subaccounts() throws {
        #expect(Subaccount(index: 255).description == String(repeating: "0", count: 62) + "ff")
        #expect(Subaccount.default.isDefault)
        #expect(throws: SubaccountError.invalidLength(31)) { try Subaccount(bytes: [UInt8](repeating: 0, count: 31)) }
    }

    static let owner = "k2t6j-2nvnp-4zjm3-25dtz-6xhaa-c7boj-5gayf-oj3xs-i43lp-teztq-6ae"

    @Test func icrc1TextRoundTrips() throws {
        let owner = try Principal(text: Self.owner)
        let one = Account(owner: owner, subaccount: Subaccount(index: 1))
        #expect(one.text == Self.owner + "-6cc627i.1")
        #expect(try Account(text: one.text) == one)
        #expect(Account(owner: owner, subaccount: .default) == Account(owner: owner))
        #expect(Account(owner: owner, subaccount: .default).text == Self.owner)
        #expect(Set([Account(owner: owner, subaccount: .default), Account(owner: owner)]).count == 1)
        #expect(AccountIdentifier(Account(owner: owner)) == AccountIdentifier(principal: owner))
    }

    @Test func icrc1TextErrors() {
        #expect(throws: AccountTextError.emptySubaccount) { try Account(text: Self.owner + "-q6bn32y.") }
        #expect(throws: AccountTextError.leadingZeros) { try Account(text: Self.owner + "-6cc627i.01") }
        #expect(throws: AccountTextError.missingChecksum) { try Account(text: Self.owner + ".1") }
        #expect(throws: AccountTextError.checksumMismatch(expected: "6cc627i", found: "6cc627a")) {
            try Account(text: Self.owner + "-6cc627a.1")
        }
        #expect(throws: AccountTextError.invalidSubaccountHex(offset: 1)) {
            try Account(text: Self.owner + "-6cc627i.1x")
        }
        #expect(throws: AccountTextError.subaccountTooLong(digits: 65)) {
            try Account(text: Self.owner + "-6cc627i.1" + String(repeating: "0", count: 64))
        }
        #expect(throws: AccountTextError.invalidOwner(.missingDash(offset: 5))) {
            try Account(text: "k2t6j2nvnp4zjm3-25dtz6xhaac7boj5gayfoj3xs-i43lp-teztq-6ae")
        }
    }
}
