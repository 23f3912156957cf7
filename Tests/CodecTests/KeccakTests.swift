import ByteCoding
import KeccakHashing
import Testing

@Suite struct KeccakTests {
    @Test(arguments: [
        ("", "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
        ("abc", "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"),
        ("hello world", "47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad"),
    ])
    func knownDigests(input: String, expected: String) {
        #expect(Hex.encode(Keccak256.hash(Array(input.utf8))) == expected)
        #expect(Hex.encode(Keccak256.hash(utf8: input)) == expected)
    }

    /// Inputs around the 136-byte rate boundary exercise padding in the same block and in a new block.
    @Test func rateBoundaries() {
        // Reference digests computed with pycryptodome's keccak (digest_bits=256).
        let expected: [Int: String] = [
            135: "34367dc248bbd832f4e3e69dfaac2f92638bd0bbd18f2912ba4ef454919cf446",
            136: "a6c4d403279fe3e0af03729caada8374b5ca54d8065329a3ebcaeb4b60aa386e",
            137: "d869f639c7046b4929fc92a4d988a8b22c55fbadb802c0c66ebcd484f1915f39",
        ]
        for (length, digest) in expected {
            let input = [UInt8](repeating: 0x61, count: length)
            #expect(Hex.encode(Keccak256.hash(input)) == digest, "length \(length)")
        }
    }

    @Test func sliceAndArrayAgree() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(Keccak256.hash(bytes[100..<900]) == Keccak256.hash(Array(bytes[100..<900])))
    }
}
