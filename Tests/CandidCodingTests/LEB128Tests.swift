import ByteCoding
import Testing

@testable import CandidCoding

struct LEB128Tests {
    private func read<T>(_ bytes: [UInt8], _ body: (inout CandidByteCursor) throws(CandidDecodingError) -> T)
        -> Result<T, CandidDecodingError>
    {
        bytes.withUnsafeBytes { buffer in
            var cursor = CandidByteCursor(buffer)
            do throws(CandidDecodingError) {
                return .success(try body(&cursor))
            } catch {
                return .failure(error)
            }
        }
    }

    static let unsignedCases: [([UInt8], UInt64)] = [
        ([0x00], 0), ([0x7f], 127), ([0x80, 0x01], 128), ([0xff, 0x7f], 16383), ([0x80, 0x00], 0),
        ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], UInt64.max),
        ([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], 0),
    ]

    static let signedCases: [([UInt8], Int64)] = [
        ([0x00], 0), ([0x7f], -1), ([0x40], -64), ([0xff, 0x00], 127), ([0x80, 0x7f], -128), ([0x80, 0x01], 128),
    ]

    @Test(arguments: unsignedCases)
    func unsignedDecodes(bytes: [UInt8], expected: UInt64) throws {
        let value = try read(bytes) { (cursor) throws(CandidDecodingError) in try cursor.readLEB("test") }.get()
        #expect(value == expected)
    }

    @Test func unsignedRejectsMoreThan64Bits() {
        let result = read([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]) {
            (cursor) throws(CandidDecodingError) in try cursor.readLEB("test")
        }
        #expect(throws: CandidDecodingError.self) { try result.get() }
        if case .failure(let error) = result { #expect(error.reason == .invalidNumber) }
    }

    @Test func truncatedNumberFails() {
        let result = read([0x80, 0x80]) { (cursor) throws(CandidDecodingError) in try cursor.readLEB("test") }
        guard case .failure(let error) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(error.reason == .unexpectedEnd)
        #expect(error.offset == 0)
    }

    @Test func lengthAboveInt32IsRejectedAsImplausible() {
        let result = read([0xff, 0xff, 0xff, 0xff, 0x0f]) { (cursor) throws(CandidDecodingError) in
            try cursor.readLength("vec length")
        }
        guard case .failure(let error) = result else {
            Issue.record("expected failure")
            return
        }
        #expect(error.reason == .limitExceeded)
    }

    @Test(arguments: signedCases)
    func signedDecodes(bytes: [UInt8], expected: Int64) throws {
        let value = try read(bytes) { (cursor) throws(CandidDecodingError) in try cursor.readSLEB("test") }.get()
        #expect(value == expected)
    }

    @Test(arguments: [Int64.min, -129, -128, -65, -64, -1, 0, 1, 63, 64, 127, 128, Int64.max])
    func signedRoundTrips(value: Int64) throws {
        var bytes: [UInt8] = []
        LEB128.append(signed: value, to: &bytes)
        let decoded = try read(bytes) { (cursor) throws(CandidDecodingError) in try cursor.readSLEB("x") }.get()
        #expect(decoded == value)
        let big = try read(bytes) { (cursor) throws(CandidDecodingError) in try cursor.readInt() }.get()
        #expect(big == CandidInt(value))
    }

    @Test(arguments: [
        "0", "1", "127", "128", "18446744073709551615", "18446744073709551616", "60000000000000000",
        "340282366920938463463374607431768211456", "-1", "-64", "-65", "-18446744073709551616",
        "-340282366920938463463374607431768211457",
    ])
    func bigIntegersRoundTrip(text: String) throws {
        let value = try #require(CandidInt(decimal: Substring(text)))
        #expect(value.description == text)
        var bytes: [UInt8] = []
        CandidLEB128.append(value, to: &bytes)
        let decoded = try read(bytes) { (cursor) throws(CandidDecodingError) in try cursor.readInt() }.get()
        #expect(decoded == value)
        if let nat = value.natValue {
            var natBytes: [UInt8] = []
            CandidLEB128.append(nat, to: &natBytes)
            let natDecoded = try read(natBytes) { (cursor) throws(CandidDecodingError) in try cursor.readNat() }.get()
            #expect(natDecoded == nat)
        }
    }

    @Test func knownBigNumberEncodings() throws {
        let nat = try #require(CandidNat(decimal: "60000000000000000"))
        var bytes: [UInt8] = []
        CandidLEB128.append(nat, to: &bytes)
        #expect(bytes == [0x80, 0x80, 0x98, 0xf4, 0xe9, 0xb5, 0xca, 0x6a])
        var negative: [UInt8] = []
        CandidLEB128.append(try #require(CandidInt(decimal: "-60000000000000000")), to: &negative)
        #expect(negative == [0x80, 0x80, 0xe8, 0x8b, 0x96, 0xca, 0xb5, 0x95, 0x7f])
    }
}
