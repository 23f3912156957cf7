import ABICoding
import ByteCoding
import EthereumTypes
import Testing

/// Expected bytes were computed independently with eth-abi 6.0.0 and eth-utils (`.venv`):
/// `eth_abi.encode(types, values).hex()`, `function_signature_to_4byte_selector(signature).hex()`.
@Suite struct ABICodingTests {
    static let alice = try! Address(parsing: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
    static let bob = try! Address(parsing: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")

    static func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex) }

    // MARK: Signatures

    @Test(arguments: [
        ("allowance(address,address)(uint256)", "allowance(address,address)", "dd62ed3e", 2, 1),
        ("aggregate3((address,bool,bytes)[])((bool,bytes)[])", "aggregate3((address,bool,bytes)[])", "82ad56cb", 1, 1),
        ("latestRoundData()(uint80,int256,uint256,uint256,uint80)", "latestRoundData()", "feaf968c", 0, 5),
        ("transfer(address to, uint amount) returns (bool)", "transfer(address,uint256)", "a9059cbb", 2, 1),
        (
            "function f(tuple(uint256,string)[2] memory xs, function g)", "f((uint256,string)[2],bytes24)", "2c2b26c8",
            2, 0
        ),
    ])
    func signatures(text: String, canonical: String, selector: String, inputs: Int, outputs: Int) throws {
        let signature = try ABISignature(text)
        #expect(signature.canonical == canonical)
        #expect(Hex.encode(signature.selector) == selector)
        #expect(signature.inputs.count == inputs)
        #expect(signature.outputs.count == outputs)
        #expect(try ABISignature(signature.description) == signature)
    }

    @Test(arguments: [
        ("transfer(address,uint7)", "unknown type \"uint7\""), ("transfer(address", "expected \",\" or \")\""),
        ("(uint256)", "expected a function name"), ("f(uint256)(bool) x", "unexpected text after the signature"),
        ("f(bytes33)", "unknown type \"bytes33\""), ("f(uint256[65537])", "fixed array length over 65536"),
        ("f(uint256[1024][1024][1024])", "static type larger than 1048576 bytes"),
        (
            "f(" + String(repeating: "(", count: 40) + "bool" + String(repeating: ")", count: 40) + ")",
            "type nests deeper than 32 levels"
        ),
    ])
    func refusedSignatures(text: String, reason: String) {
        #expect(throws: ABISignatureError.self) { try ABISignature(text) }
        do {
            _ = try ABISignature(text)
        } catch {
            #expect(error.reason == reason, "\(text)")
        }
    }

    // MARK: Vectors from eth-abi, both directions

    @Test func allowanceCall() throws {
        let signature = ABISignature(literal: "allowance(address,address)(uint256)")
        let calldata = try signature.encodeCall([.address(Self.alice), .address(Self.bob)])
        #expect(
            Hex.encode(calldata)
                == "dd62ed3e000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb9226600000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8"
        )
        #expect(try signature.decodeCall(calldata) == [.address(Self.alice), .address(Self.bob)])
        #expect(try signature.decodeOutput(ABI.word(UInt64(7))) == [.uint(7)])
    }

    static let aggregate3Arguments =
        "0000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000100000000000000000000000000121212121212121212121212121212121212121200000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000002470a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb9226600000000000000000000000000000000000000000000000000000000000000000000000000000000ca11ca11ca11ca11ca11ca11ca11ca11ca11ca11000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000000"

    @Test func aggregate3() throws {
        let signature = ABISignature(literal: "aggregate3((address,bool,bytes)[])((bool,bytes)[])")
        let first = Address(Array(repeating: 0x12, count: 20))!
        let multicall = Address((0..<10).flatMap { _ in [0xca, 0x11] as [UInt8] })!
        let calls: ABIValue = .array([
            .tuple([.address(first), .bool(true), .bytes(Self.bytes("70a08231") + ABI.word(Self.alice))]),
            .tuple([.address(multicall), .bool(false), .bytes([])]),
        ])
        let calldata = try signature.encodeCall([calls])
        #expect(Hex.encode(calldata) == "82ad56cb" + Self.aggregate3Arguments)
        #expect(try signature.decodeCall(calldata) == [calls])

        let results: ABIValue = .array([
            .tuple([.bool(true), .bytes(ABI.word(UInt256(1_000_000_000_000_000_000 as UInt64)))]),
            .tuple([.bool(false), .bytes([])]),
        ])
        let output = Self.bytes(
            "00000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000c00000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000de0b6b3a7640000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000000"
        )
        #expect(try signature.encodeOutput([results]) == output)
        #expect(try signature.decodeOutput(output) == [results])
    }

    @Test func latestRoundData() throws {
        let signature = ABISignature(literal: "latestRoundData()(uint80,int256,uint256,uint256,uint80)")
        let round = ABIValue.uint(UInt256(decimal: "18446744073709562301")!)
        let values: [ABIValue] = [round, .signed(-123_456_789), .uint(1_700_000_000), .uint(1_700_000_012), round]
        let output = Self.bytes(
            "00000000000000000000000000000000000000000000000100000000000029bdfffffffffffffffffffffffffffffffffffffffffffffffffffffffff8a432eb000000000000000000000000000000000000000000000000000000006553f100000000000000000000000000000000000000000000000000000000006553f10c00000000000000000000000000000000000000000000000100000000000029bd"
        )
        #expect(try signature.encodeOutput(values) == output)
        let decoded = try signature.decodeOutput(output)
        #expect(decoded == values)
        #expect(decoded[1].description == "-123456789")
        #expect(Hex.encode(try signature.encodeCall([])) == "feaf968c")
    }

    @Test func nestedStaticAndDynamic() throws {
        let types = try ["uint8[2]", "string", "bytes[]", "(bool,bytes32)[]", "int8"].map {
            try ABIType(parsing: $0)
        }
        let values: [ABIValue] = [
            .array([.uint(7), .uint(255)]), .string("héllo"),
            .array([.bytes([]), .bytes(Array(repeating: 1, count: 33))]),
            .array([.tuple([.bool(true), .fixedBytes(Array(repeating: 0xaa, count: 32))])]), .signed(-128),
        ]
        let encoded = Self.bytes(
            "000000000000000000000000000000000000000000000000000000000000000700000000000000000000000000000000000000000000000000000000000000ff00000000000000000000000000000000000000000000000000000000000000c0000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001e0ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff80000000000000000000000000000000000000000000000000000000000000000668c3a96c6c6f0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000210101010101010101010101010101010101010101010101010101010101010101010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000001aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
        )
        #expect(try ABI.encode(values, as: types) == encoded)
        #expect(try ABIDecoder.decode(types, from: encoded[...]) == values)
    }

    @Test func valuesThatDoNotFitTheirTypes() {
        #expect(throws: ABIEncodingError.self) { try ABI.encode([.uint(256)], as: [.uint(bits: 8)]) }
        #expect(throws: ABIEncodingError.self) { try ABI.encode([.signed(128)], as: [.int(bits: 8)]) }
        #expect(throws: ABIEncodingError.self) { try ABI.encode([.fixedBytes([1])], as: [.bytes32]) }
        #expect(throws: ABIEncodingError.self) { try ABI.encode([.bool(true)], as: [.address]) }
        #expect(throws: ABIEncodingError.self) { try ABI.encode([], as: [.address]) }
    }

    // MARK: Strict decoding

    static func decode(_ types: [String], _ data: [UInt8], _ options: ABIDecoder.Options = .strict)
        throws(ABIDecodingError) -> [ABIValue]
    {
        try ABIDecoder.decode(types.map { try! ABIType(parsing: $0) }, from: data[...], options: options)
    }

    @Test func wordsOutOfRangeForTheirType() throws {
        let dirtyAddress = [1] + [UInt8](repeating: 0, count: 31)
        #expect(throws: ABIDecodingError(.dirtyWord, at: 0)) { try Self.decode(["address"], dirtyAddress) }
        #expect(throws: ABIDecodingError(.dirtyWord, at: 0)) { try Self.decode(["bool"], ABI.word(UInt64(2))) }
        #expect(throws: ABIDecodingError(.dirtyWord, at: 32)) {
            try Self.decode(["uint256", "uint8"], ABI.word(UInt64(1)) + ABI.word(UInt64(256)))
        }
        // int8 −1 must be sign-extended: 0xff alone in the low byte is 255, not an int8.
        #expect(throws: ABIDecodingError(.dirtyWord, at: 0)) { try Self.decode(["int8"], ABI.word(UInt64(0xff))) }
        #expect(try Self.decode(["int8"], ABI.word(UInt256.max)) == [.signed(-1)])
        #expect(throws: ABIDecodingError(.dirtyWord, at: 0)) {
            try Self.decode(["bytes1"], [0xaa, 0x01] + [UInt8](repeating: 0, count: 30))
        }
    }

    @Test func lengthsOffsetsPaddingAndTrailingBytes() throws {
        let good = ABI.string("A")
        #expect(try Self.decode(["string"], good) == [.string("A")])
        var dirtyPadding = good
        dirtyPadding[95] = 1
        // eth-abi: NonEmptyPaddingBytes; Solidity's decoder does not read the padding.
        #expect(throws: ABIDecodingError(.nonZeroPadding, at: 65)) { try Self.decode(["string"], dirtyPadding) }
        #expect(try Self.decode(["string"], dirtyPadding, .solidity) == [.string("A")])
        #expect(throws: ABIDecodingError(.wrongLength(expected: 96, actual: 97), at: 96)) {
            try Self.decode(["string"], good + [0])
        }
        #expect(try Self.decode(["string"], good + [0], .solidity) == [.string("A")])
        #expect(throws: ABIDecodingError(.wrongLength(expected: 32, actual: 33), at: 0)) {
            try Self.decode(["uint256"], ABI.word(UInt64(1)) + [0])
        }
        var farOffset = good
        farOffset[31] = 0x80
        #expect(throws: ABIDecodingError(.offsetOutOfRange, at: 0)) { try Self.decode(["string"], farOffset) }
        // An offset into its own head: eth-abi's InvalidPointer; Solidity's decoder reads the offset word again as
        // the length, which the budget refuses (64 bytes decoded from 32).
        let intoHead = [UInt8](repeating: 0, count: 32)
        #expect(throws: ABIDecodingError(.offsetOutOfRange, at: 0)) { try Self.decode(["string"], intoHead) }
        #expect(throws: ABIDecodingError(.budgetExceeded(limit: 32), at: 0)) {
            try Self.decode(["string"], intoHead, .solidity)
        }
        var longString = good
        longString[63] = 0x41
        #expect(throws: ABIDecodingError(.lengthOutOfRange, at: 32)) { try Self.decode(["string"], longString) }
        // 2^64 elements claimed in 64 bytes: refused before anything is allocated.
        let hugeArray = ABI.word(UInt64(32)) + ABI.word(UInt64.max)
        #expect(throws: ABIDecodingError(.lengthOutOfRange, at: 32)) { try Self.decode(["uint256[]"], hugeArray) }
        let notUTF8 = ABI.word(UInt64(32)) + ABI.tail([0xff])
        #expect(throws: ABIDecodingError(.invalidString, at: 64)) { try Self.decode(["string"], notUTF8) }
    }

    // MARK: The budget: elements that share one offset cannot amplify

    /// `(address,bool,bytes)[]` of `count` elements whose offsets all point at one tuple carrying `inner`.
    static func sharedOffsets(count: Int, inner: [UInt8]) -> [UInt8] {
        var out = ABI.word(UInt64(32)) + ABI.word(UInt64(count))
        for _ in 0..<count { out += ABI.word(UInt64(32 * count)) }
        out += ABI.word(Address.zero) + ABI.word(true) + ABI.word(UInt64(96)) + ABI.tail(inner)
        return out
    }

    @Test func sharedOffsetsAreRefused() throws {
        let type = try ABIType(parsing: "(address,bool,bytes)[]")
        let one = Self.sharedOffsets(count: 1, inner: Array(repeating: 7, count: 64))
        #expect(try ABIDecoder.decode([type], from: one[...]).count == 1)
        // 100 elements sharing one 4 KB tuple: 7 KB of data that would decode to 400 KB.
        let shared = Self.sharedOffsets(count: 100, inner: Array(repeating: 7, count: 4_096))
        #expect(throws: ABIDecodingError(.budgetExceeded(limit: shared.count), at: 3_264 + 96)) {
            try ABIDecoder.decode([type], from: shared[...], options: .solidity)
        }
        // A budget given explicitly allows it.
        let roomy = ABIDecoder.Options(
            allowsTrailingBytes: true, checksPadding: false, checksOffsets: false, budget: 1 << 20)
        #expect(try ABIDecoder.decode([type], from: shared[...], options: roomy)[0].elements.count == 100)
    }

    @Test func aCanonicalEncodingMeetsTheBudgetExactly() throws {
        let types = try ["(address,bool,bytes)[]"].map { try ABIType(parsing: $0) }
        let data = Self.bytes(Self.aggregate3Arguments)
        let exact = ABIDecoder.Options(
            allowsTrailingBytes: false, checksPadding: true, checksOffsets: true, budget: data.count)
        #expect(try ABIDecoder.decode(types, from: data[...], options: exact).count == 1)
        let short = ABIDecoder.Options(
            allowsTrailingBytes: false, checksPadding: true, checksOffsets: true, budget: data.count - 1)
        #expect(throws: ABIDecodingError.self) { try ABIDecoder.decode(types, from: data[...], options: short) }
    }
}
