import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding
import KeccakHashing
import Testing

@Suite struct PersonalMessageTests {
    /// eth-account's documented `sign_message` example.
    @Test func ethAccountExample() throws {
        let key = TestKeys.bytes("b25c7db31feed9122727bf0939dc769a96564b2de4c4726d035b36ecf1e5b364")
        let message = Array("I♥SF".utf8)
        #expect(
            Hex.encode(PersonalMessage.hash(message))
                == "1476abb745d423bf09273f1afd887d951181d25adc66c4834a70491911b7f750")
        let signature = try PersonalMessage.sign(message, privateKey: key)
        #expect(
            signature.description
                == "0xe6ca9bba58c88611fad66a6ce8f996908195593807c4b38bd528d2cff09d4eb33e5bfbbf4d3e39b1a2fd816a7680c19ebebaf3a141b239934ad43cb33fcec8ce1c"
        )
        #expect(signature.v == 28)
        let expected = try Address(parsing: "0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E")
        #expect(try PersonalMessage.recover(message, signature: signature) == expected)
        #expect(try PersonalMessage.recover(message, signature: EthereumSignature(bytes: signature.bytes)) == expected)
        #expect(try PersonalMessage.recover(Array("I♥SF!".utf8), signature: signature) != expected)
    }

    @Test func signatureParsing() throws {
        var bytes = [UInt8](repeating: 1, count: 65)
        bytes[64] = 0
        #expect(try EthereumSignature(bytes: bytes).v == 27)
        bytes[64] = 29
        #expect(throws: SignatureError.invalidV(29)) { try EthereumSignature(bytes: bytes) }
        #expect(throws: SignatureError.invalidLength(64)) {
            try EthereumSignature(bytes: Array(bytes.dropLast()))
        }
        let zero = EthereumSignature(yParity: 0, r: 0, s: 1)
        #expect(throws: SignatureError.invalidValues) {
            try zero.recoverAddress(digest: [UInt8](repeating: 1, count: 32))
        }
        let offCurve = EthereumSignature(yParity: 0, r: 5, s: 1)
        #expect(throws: SignatureError.recoveryFailed) {
            try offCurve.recoverAddress(digest: [UInt8](repeating: 1, count: 32))
        }
    }
}

@Suite struct TypedDataTests {
    static let mail = """
        {
          "types": {
            "EIP712Domain": [
              {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
              {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}
            ],
            "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
            "Mail": [
              {"name": "from", "type": "Person"}, {"name": "to", "type": "Person"},
              {"name": "contents", "type": "string"}
            ]
          },
          "primaryType": "Mail",
          "domain": {
            "name": "Ether Mail", "version": "1", "chainId": 1,
            "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"
          },
          "message": {
            "from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
            "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"},
            "contents": "Hello, Bob!"
          }
        }
        """

    /// The EIP-712 specification's Mail example (`assets/eip-712/Example.js`) and its published values.
    @Test func eipMailExample() throws {
        let data = try TypedData(json: Array(Self.mail.utf8))
        #expect(
            try data.encodeType("Mail")
                == "Mail(Person from,Person to,string contents)Person(string name,address wallet)")
        #expect(
            Hex.encode(try data.typeHash("Mail")) == "a0cedeb2dc280ba39b857546d74f5549c3a1d7bdc2dd96bf881f76108e23dac2")
        #expect(
            Hex.encode(try data.messageHash()) == "c52c0ee5d84264471806290a3f2c4cecfc5490626bf912d01f240d7a274b371e")
        #expect(
            Hex.encode(try data.domainSeparator()) == "f2cee375fa42b42143804025fc449deafd50cc031ca257e0b194a650a912090f"
        )
        #expect(
            Hex.encode(try data.signingHash()) == "be609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2")
        let key = Keccak256.hash(utf8: "cow")
        let signature = try data.sign(privateKey: key)
        #expect(signature.v == 28)
        #expect(signature.r.hexDigits == "4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d")
        #expect(signature.s.hexDigits == "7299936d304c153f6443dfa05f40ff007d72911b6f72307f996231605b91562")
        #expect(
            try data.recover(signature: signature) == Address(parsing: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"))
    }

    /// Nested struct arrays, dynamic and fixed arrays, bytes32 and a negative int64; expected digest and
    /// signature computed with eth-account 0.14's `encode_typed_data`.
    @Test func arraysAndNestedStructs() throws {
        let json = """
            {"types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
              {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
              "Person": [{"name": "name", "type": "string"}, {"name": "wallets", "type": "address[]"}],
              "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person[]"},
                {"name": "contents", "type": "string"}, {"name": "tags", "type": "bytes32[2]"},
                {"name": "amount", "type": "int64"}]},
             "primaryType": "Mail",
             "domain": {"name": "Ether Mail", "version": "1", "chainId": 1,
               "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
             "message": {"from": {"name": "Cow", "wallets": ["0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
                 "0xDeaDbeefdEAdbeefdEadbEEFdeadbeEFdEaDbeeF"]},
               "to": [{"name": "Bob", "wallets": ["0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB",
                 "0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57", "0xB0B0b0b0b0b0B000000000000000000000000000"]}],
               "contents": "Hello, Bob!",
               "tags": ["0x1111111111111111111111111111111111111111111111111111111111111111",
                 "0x2222222222222222222222222222222222222222222222222222222222222222"],
               "amount": -42}}
            """
        let data = try TypedData(json: Array(json.utf8))
        #expect(
            try data.encodeType("Mail")
                == "Mail(Person from,Person[] to,string contents,bytes32[2] tags,int64 amount)Person(string name,address[] wallets)"
        )
        #expect(
            Hex.encode(try data.signingHash()) == "25e067c3514a5753a2cb8234695af9c85ad907090be214f9da810af6f46a3426")
        let signature = try data.sign(privateKey: Keccak256.hash(utf8: "cow"))
        #expect(
            signature.description
                == "0x04084c7866d546273d665de54bc6f8e8e6aec686ea7cfcdb25f8c22c84211e2165fe3d4d06deb16118dcc4700104ebd1fe6055d1979fef75710942b76caa9cbf1c"
        )
    }

    @Test func domainOnlyDocumentsHashTheDomain() throws {
        var data = try TypedData(json: Array(Self.mail.utf8))
        data.primaryType = "EIP712Domain"
        #expect(try data.signingHash() == Keccak256.hash([0x19, 0x01] + (try data.domainSeparator())))
    }

    @Test func domainTypeIsDerivedWhenAbsent() throws {
        var data = try TypedData(json: Array(Self.mail.utf8))
        let separator = try data.domainSeparator()
        data.types["EIP712Domain"] = nil
        #expect(try data.domainSeparator() == separator)
    }

    @Test func errorsNameThePath() throws {
        let base = try TypedData(json: Array(Self.mail.utf8))
        func failure(_ change: (inout TypedData) -> Void) -> TypedDataError? {
            var data = base
            change(&data)
            do {
                _ = try data.signingHash()
                return nil
            } catch {
                return error
            }
        }
        #expect(
            failure { $0.types["Mail"]![2].type = "strin" }
                == TypedDataError(.unknownType("strin"), at: "Mail.contents"))
        #expect(failure { $0.message = .object([("from", $0.message["from"]!)]) }?.kind == .missingField("to"))
        #expect(failure { $0.types["Person"]![1].type = "uint8" }?.path == "message.from.wallet")
        #expect(
            failure {
                $0.domain = .object([
                    ("name", .string("x")), ("version", .string("1")), ("chainId", .number("-1")),
                    ("verifyingContract", .string("0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC")),
                ])
            }?
            .kind == .invalidValue(type: "uint256", reason: "negative value for an unsigned type"))
        #expect(throws: TypedDataError.self) { try TypedData(json: Array("{\"types\": {}}".utf8)) }
    }

    /// Numbers keep their exact text: a uint256 written as a JSON number above 2^64 hashes as the same value written
    /// as a string (it used to be read through a Double, rounded to 1.1805916207174113e+21, and refused).
    @Test func largeJSONNumbersAreExact() throws {
        func document(_ value: String) -> [UInt8] {
            Array(
                """
                {"types": {"EIP712Domain": [], "T": [{"name": "x", "type": "uint256"}]}, "primaryType": "T",
                 "domain": {}, "message": {"x": \(value)}}
                """.utf8)
        }
        let number = try TypedData(json: document("1180591620717411303424"))
        let text = try TypedData(json: document("\"1180591620717411303424\""))
        #expect(number.message["x"] == .number("1180591620717411303424"))
        #expect(try number.messageHash() == text.messageHash())
    }

    @Test func atomicEncodings() throws {
        func word(_ type: String, _ value: JSON) throws -> String {
            let data = TypedData(
                types: ["T": [TypedData.Member(name: "x", type: type)]], primaryType: "T", domain: .object([]),
                message: .object([("x", value)]))
            // hashStruct = keccak(typeHash ‖ word): compare against hashing the expected word ourselves.
            return Hex.encode(try data.messageHash())
        }
        func expected(_ type: String, _ wordHex: String) -> String {
            Hex.encode(Keccak256.hash(Keccak256.hash(utf8: "T(\(type) x)") + TestKeys.bytes(wordHex)))
        }
        let max8 = String(repeating: "0", count: 62) + "ff"
        #expect(try word("uint8", .number("255")) == expected("uint8", max8))
        #expect(throws: TypedDataError.self) { try word("uint8", .number("256")) }
        #expect(try word("int8", .number("-128")) == expected("int8", String(repeating: "f", count: 62) + "80"))
        #expect(throws: TypedDataError.self) { try word("int8", .number("-129")) }
        #expect(throws: TypedDataError.self) { try word("int8", .number("128")) }
        #expect(try word("uint256", .string("0xff")) == expected("uint256", max8))
        #expect(try word("bool", .bool(true)) == expected("bool", String(repeating: "0", count: 63) + "1"))
        #expect(
            try word("bytes4", .string("0xdeadbeef"))
                == expected("bytes4", "deadbeef" + String(repeating: "0", count: 56)))
        #expect(throws: TypedDataError.self) { try word("bytes4", .string("0xdead")) }
        #expect(throws: TypedDataError.self) { try word("address", .string("0x1234")) }
        #expect(throws: TypedDataError.self) { try word("uint7", .number("1")) }
    }
}
