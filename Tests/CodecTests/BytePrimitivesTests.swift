import ByteCoding
import Testing

/// The shared byte primitives of ByteCoding against published vectors.
@Suite struct BytePrimitivesTests {
    // MARK: Base32

    /// RFC 4648 §10 test vectors (uppercase, padded there; ours writes lowercase without padding).
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="), ("foob", "MZXW6YQ="),
        ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]

    @Test(arguments: rfc4648)
    func base32RFC4648Vectors(plain: String, encoded: String) throws {
        let unpadded = encoded.filter { $0 != "=" }
        #expect(String(decoding: Base32.encode(Array(plain.utf8)), as: UTF8.self) == unpadded.lowercased())
        #expect(try Base32.decode(Array(unpadded.utf8)) == Array(plain.utf8))
        #expect(try Base32.decode(Array(unpadded.lowercased().utf8)) == Array(plain.utf8))
    }

    @Test func base32RefusesWhatNoByteStringEncodesTo() {
        #expect(throws: Base32.DecodingError.invalidLength(1)) { try Base32.decode(Array("m".utf8)) }
        #expect(throws: Base32.DecodingError.invalidLength(3)) { try Base32.decode(Array("mzx".utf8)) }
        #expect(throws: Base32.DecodingError.invalidCharacter(index: 2)) { try Base32.decode(Array("mz1q".utf8)) }
        #expect(throws: Base32.DecodingError.invalidCharacter(index: 0)) { try Base32.decode(Array("=y".utf8)) }
        // "f" is "my": the last digit of "mz" carries a stray 1 bit.
        #expect(throws: Base32.DecodingError.nonZeroPadding) { try Base32.decode(Array("mz".utf8)) }
        #expect("\(Base32.DecodingError.invalidLength(6))" == "6 base32 digits, which no byte string encodes to")
    }

    // MARK: CRC-32

    @Test func crc32CheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.bigEndianChecksum(Array("123456789".utf8)) == [0xCB, 0xF4, 0x39, 0x26])
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    // MARK: LEB128

    /// DWARF 5 §7.6 figure 7.22, plus the 3-byte example of the LEB128 literature and the 64-bit extremes.
    static let unsignedVectors: [(UInt64, [UInt8])] = [
        (0, [0x00]), (2, [0x02]), (127, [0x7f]), (128, [0x80, 0x01]), (129, [0x81, 0x01]), (130, [0x82, 0x01]),
        (12857, [0xb9, 0x64]), (624_485, [0xe5, 0x8e, 0x26]),
        (UInt64.max, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
    ]

    /// DWARF 5 §7.6 figure 7.23, plus -123456 and the 64-bit extremes.
    static let signedVectors: [(Int64, [UInt8])] = [
        (2, [0x02]), (-2, [0x7e]), (127, [0xff, 0x00]), (-127, [0x81, 0x7f]), (128, [0x80, 0x01]),
        (-128, [0x80, 0x7f]), (129, [0x81, 0x01]), (-129, [0xff, 0x7e]), (-123_456, [0xc0, 0xbb, 0x78]),
        (0, [0x00]), (-1, [0x7f]), (63, [0x3f]), (64, [0xc0, 0x00]), (-64, [0x40]), (-65, [0xbf, 0x7f]),
        (Int64.max, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00]),
        (Int64.min, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f]),
    ]

    @Test(arguments: unsignedVectors)
    func leb128Unsigned(value: UInt64, expected: [UInt8]) {
        #expect(LEB128.unsigned(value) == expected)
        #expect(LEB128.size(value) == expected.count)
        var appended: [UInt8] = [0xaa]
        LEB128.append(value, to: &appended)
        #expect(appended == [0xaa] + expected)
        // The same number as a big-endian magnitude, with and without leading zero bytes.
        #expect(LEB128.unsigned(bigEndian: BigEndian.bytes(value)) == expected)
        #expect(LEB128.unsigned(bigEndian: [0, 0] + BigEndian.bytes(value).drop { $0 == 0 }) == expected)
    }

    @Test(arguments: signedVectors)
    func leb128Signed(value: Int64, expected: [UInt8]) {
        #expect(LEB128.signed(value) == expected)
        if value < 0 { #expect(LEB128.signed(negativeOneMinus: UInt64(-1 - value)) == expected) }
    }

    @Test func leb128BeyondSixtyFourBits() {
        #expect(LEB128.unsigned(bigEndian: [UInt8]()) == [0x00])
        // 2^64 and -2^64 (the CBOR negative integer -1 - (2^64 - 1)).
        #expect(LEB128.unsigned(bigEndian: [1, 0, 0, 0, 0, 0, 0, 0, 0]) == [UInt8](repeating: 0x80, count: 9) + [0x02])
        #expect(LEB128.signed(negativeOneMinus: UInt64.max) == [UInt8](repeating: 0x80, count: 9) + [0x7e])
    }

    // MARK: Big-endian integers

    @Test func bigEndianIntegers() {
        #expect(BigEndian.bytes(UInt32(0x0102_0304)) == [1, 2, 3, 4])
        #expect(BigEndian.bytes(UInt64(0x0102_0304_0506_0708)) == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(BigEndian.bytes(UInt16(0xBEEF)) == [0xBE, 0xEF])
        #expect(BigEndian.integer(UInt64.self, from: [1, 2, 3, 4, 5, 6, 7, 8]) == 0x0102_0304_0506_0708)
        #expect(BigEndian.integer(UInt64.self, from: [1, 2, 3, 4, 5, 6, 7]) == nil)
        #expect(BigEndian.integer(UInt32.self, from: [0xCB, 0xF4, 0x39, 0x26][...]) == 0xCBF4_3926)
        #expect(BigEndian.read(UInt32.self, from: [9, 0xCB, 0xF4, 0x39, 0x26, 9], at: 1) == 0xCBF4_3926)
        var out: [UInt8] = [7]
        BigEndian.append(UInt32(0x8000_0000), to: &out)
        #expect(out == [7, 0x80, 0, 0, 0])
    }

    // MARK: Principal text

    @Test func principalTextBothDirections() throws {
        let cases: [([UInt8], String)] = [
            ([], "aaaaa-aa"), ([0x04], "2vxsx-fae"), ([0, 0, 0, 0, 0, 0, 0, 2, 1, 1], "ryjl3-tyaaa-aaaaa-aaaba-cai"),
        ]
        for (bytes, text) in cases {
            #expect(PrincipalText.encode(bytes) == text)
            #expect(try PrincipalText.decode(text) == bytes)
            #expect(try PrincipalText.decode(text.uppercased()) == bytes)
        }
        #expect(throws: PrincipalError.misplacedDash(offset: 8)) { try PrincipalText.decode("aaaaa-aa-") }
        // U+212A KELVIN SIGN lowercases to an ASCII "k"; it is not a base32 digit.
        #expect(throws: PrincipalError.invalidCharacter(offset: 2, character: "\u{212A}")) {
            try PrincipalText.decode("rr\u{212A}ah-fqaaa-aaaaa-aaaaq-cai")
        }
    }
}

extension BytePrimitivesTests {
    /// RFC 4648 §10 base64 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func base64RFC4648Vectors(plain: String, encoded: String) {
        #expect(Base64.decode(encoded) == Array(plain.utf8))
        #expect(Base64.decode(encoded.filter { $0 != "=" }) == Array(plain.utf8))
    }

    @Test func base64Refusals() {
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Zg==Zg") == nil)
        #expect(Base64.decode("Zg===") == nil)
    }
}
