import ByteCoding
import SeededRandom
import Testing

@testable import KeccakHashing

@Suite struct KeccakTests {
    @Test(arguments: [
        ("", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
        ("abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"),
        ("hello world", "47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad"),
    ])
    func knownDigests(input: String, expected: String) {
        #expect(Hex.encode(Keccak256.hash(Array(input.utf8))) == expected)
        #expect(Hex.encode(Keccak256.hash(utf8: input)) == expected)
        let digest = Keccak256.digest(Array(input.utf8))
        #expect(digest.description == "0x" + expected)
        #expect(Hex.encode(digest.bytes) == expected)
        #expect(Hex.encode(Array(digest)) == expected)
    }

    /// Inputs around the 136-byte rate boundary exercise padding in the same block and in a new block; lengths below
    /// 136 take the one-block path, 136 and up the absorb loop.
    @Test(arguments: [
        // Reference digests of `length` bytes 0x61 ("aaa…") computed with pycryptodome's keccak (digest_bits=256).
        (0, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
        (31, "66e65e3db98364fa401e7d5607575d2bf3fdb203a05bda6680f3e3592779b75a"),
        (32, "47a01324181e85459310f8fb9b24dc09744323ebdcef26cbf98959effdc76e02"),
        (33, "123042f642b6ac7cf640e397b0b402cb36384c660d3dc313a3826f9c498ceda3"),
        (64, "1036d73cc8350b0635393d79759b10488165e792073f84d4462e22edec243b92"),
        (135, "34367dc248bbd832f4e3e69dfaac2f92638bd0bbd18f2912ba4ef454919cf446"),
        (136, "a6c4d403279fe3e0af03729caada8374b5ca54d8065329a3ebcaeb4b60aa386e"),
        (137, "d869f639c7046b4929fc92a4d988a8b22c55fbadb802c0c66ebcd484f1915f39"),
        (271, "132f47effd6c8b1b299efa53fe68aece77ec8ae4eb2e294f668eec94f76001e1"),
        (272, "cf7fcd4f705ee749930d19ca84561a9bf62516bd90a471545fa2f49fdc7e63c8"),
        (273, "5a7b8187d2778e614097fac3097573de1fee4d972304d3360796a857029bb176"),
    ])
    func rateBoundaries(length: Int, expected: String) {
        let input = [UInt8](repeating: 0x61, count: length)
        #expect(Hex.encode(Keccak256.hash(input)) == expected)
        #expect(Keccak256.digest(input).description == "0x" + expected)
        var output = [UInt8](repeating: 0xff, count: 32)
        input.withUnsafeBytes { source in output.withUnsafeMutableBytes { Keccak256.hash(source, into: $0) } }
        #expect(Hex.encode(output) == expected)
    }

    /// Every length 0…300 (random bytes from a fixed seed): the digest, the `[UInt8]` hash, the slice and raw-buffer
    /// overloads (the slice starting at an odd address) and `hash(_:into:)` agree; the 301 digests, concatenated and
    /// hashed, equal pycryptodome's result for the same inputs (an independent implementation).
    @Test func everyLengthAgreesWithArrayPathAndReference() {
        var random = SplitMix64(seed: 17)
        var chain = [UInt8]()
        for length in 0...300 {
            let input = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let digest = Keccak256.digest(input)
            let array = Keccak256.hash(input)
            #expect(Array(digest) == array, "length \(length)")
            let shifted = [0x00] + input
            #expect(Keccak256.digest(shifted[1...]) == digest, "length \(length), slice")
            #expect(input.withUnsafeBytes { Keccak256.digest($0) } == digest, "length \(length), raw buffer")
            var output = [UInt8](repeating: 0, count: 33)
            shifted[1...].withUnsafeBytes { source in
                output.withUnsafeMutableBytes { target in
                    Keccak256.hash(source, into: UnsafeMutableRawBufferPointer(rebasing: target[1...]))
                }
            }
            #expect(Array(output[1...]) == array, "length \(length), into a buffer")
            chain += array
        }
        // The same in Python with pycryptodome: the inputs are the low bytes of SplitMix64(seed 17) draws, each hashed
        // with keccak.new(digest_bits=256), the 301 digests concatenated and hashed once more.
        let expected = "0x25c4ef01f34de63a2bb04c7ca7bebc573dd51dbc8183ef9179e2e27f06104618"
        #expect(Keccak256.digest(chain).description == expected)
    }

    /// The one-block fast path (messages shorter than the rate) against the general absorb path, for every length it
    /// takes, with each byte value in the last position.
    @Test func singleBlockMatchesAbsorbPath() {
        var random = SplitMix64(seed: 136)
        for length in 0..<Keccak256.rate {
            for last in [UInt8(0x00), 0x01, 0x7f, 0x80, 0xff] {
                var input = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                if length > 0 { input[length - 1] = last }
                let fast = input.withUnsafeBytes { Keccak256.singleBlock($0) }
                var general = [UInt8](repeating: 0, count: 32)
                input.withUnsafeBytes { source in
                    general.withUnsafeMutableBytes { Keccak256.absorb(source, into: $0) }
                }
                #expect(Keccak256Digest(lanes: fast).bytes == general, "length \(length), last byte \(last)")
            }
        }
    }

    @Test func digestValue() throws {
        let abc = Keccak256.digest(Array("abc".utf8))
        let again = Keccak256.digest(Array("abc".utf8)[...])
        let other = Keccak256.digest(Array("abd".utf8))
        #expect(abc == again)
        #expect(abc != other)
        #expect(abc.hashValue == again.hashValue)
        #expect(Set([abc, again, other]).count == 2)
        #expect(abc.count == 32)
        #expect(abc.indices == 0..<32)
        #expect(abc.first == 0x4e && abc.last == 0x45 && abc[16] == 0xc0)
        #expect(abc.withUnsafeBytes { Array($0) } == abc.bytes)
        #expect(abc.withContiguousStorageIfAvailable { Array($0) } == abc.bytes)
        #expect(try #require(Keccak256Digest(abc.bytes)) == abc)
        #expect(try #require(Keccak256Digest(abc.bytes[...])) == abc)
        #expect(Keccak256Digest(abc.bytes.dropLast()) == nil)
        #expect(Keccak256Digest(abc.bytes + [0]) == nil)
    }

    @Test func sliceAndArrayAgree() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(Keccak256.hash(bytes[100..<900]) == Keccak256.hash(Array(bytes[100..<900])))
    }
}
