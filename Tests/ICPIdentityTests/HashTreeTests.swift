import ByteCoding
import CBORCoding
import ICPIdentity
import Testing

/// The example tree of the IC interface spec §Certification (also in agent-js, agent-rs and IcpKit tests).
@Suite struct HashTreeTests {
    static let treeCBOR =
        "8301830183024161830183018302417882034568656c6c6f810083024179820345776f726c6483024162820344676f6f6483"
        + "01830241638100830241648203476d6f726e696e67"
    static let prunedCBOR =
        "83018301830241618301820458201b4feff9bef8131788b0c9dc6dbad6e81e524249c879e9f10f71ce3749f5a6388302417982"
        + "0345776f726c6483024162820458207b32ac0c6ba8ce35ac82c255fc7906f7fc130dab2a090f80fe12f9c2cae83ba683018204"
        + "5820ec8324b8a1f1ac16bd2e806edba78006479c9877fed4eb464a25485465af601d830241648203476d6f726e696e67"
    static let root = "eb5c5b2195e62d996b84c9bcc8259d19a83786a2f59e0878cec84c811f669aa0"

    static let tree = HashTree.fork(
        .fork(
            .labeled(
                "a",
                .fork(
                    .fork(.labeled("x", .leaf(Array("hello".utf8))), .empty), .labeled("y", .leaf(Array("world".utf8))))
            ),
            .labeled("b", .leaf(Array("good".utf8)))),
        .fork(.labeled("c", .empty), .labeled("d", .leaf(Array("morning".utf8)))))

    @Test func exampleTreeEncodingAndRootHash() throws {
        #expect(Hex.encode(CBOREncoder.encode(Self.tree.cbor)) == Self.treeCBOR)
        #expect(try HashTree(cbor: CBORDecoder().decode(Hex.decode(Self.treeCBOR))) == Self.tree)
        #expect(Hex.encode(Self.tree.rootHash) == Self.root)
        let pruned = try HashTree(cbor: CBORDecoder().decode(Hex.decode(Self.prunedCBOR)))
        #expect(Hex.encode(pruned.rootHash) == Self.root)
        #expect(Hex.encode(CBOREncoder.encode(pruned.cbor)) == Self.prunedCBOR)
    }

    @Test func lookupTableOfTheSpec() throws {
        let pruned = try HashTree(cbor: CBORDecoder().decode(Hex.decode(Self.prunedCBOR)))
        #expect(pruned.lookup("a", "a") == .unknown)
        #expect(pruned.lookup("a", "y") == .found(Array("world".utf8)))
        #expect(pruned.lookup("aa") == .absent)
        #expect(pruned.lookup("ax") == .absent)
        #expect(pruned.lookup("b") == .unknown)
        #expect(pruned.lookup("bb") == .unknown)
        #expect(pruned.lookup("d") == .found(Array("morning".utf8)))
        #expect(pruned.lookup("e") == .absent)
        #expect(Self.tree.lookup("a") == .error)
        #expect(Self.tree.lookup("c") == .absent)
        #expect(Self.tree.lookup("a", "x") == .found(Array("hello".utf8)))
    }

    @Test func malformedTrees() {
        #expect(throws: HashTreeError.malformedNode("tag 5 with 0 fields")) {
            try HashTree(cbor: .array([.unsigned(5)]))
        }
        #expect(throws: HashTreeError.malformedNode("pruned hash is not 32 bytes")) {
            try HashTree(cbor: .array([.unsigned(4), .bytes([1])]))
        }
        #expect(throws: HashTreeError.malformedNode("not a tagged array")) { try HashTree(cbor: .null) }
    }
}
