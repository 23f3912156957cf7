import ByteCoding
import CBORCoding
import CryptoCore
import ICPIdentity
import Testing

/// The representation-independent hash (IC interface spec §Representation-independent hashing).
@Suite struct RequestIDTests {
    /// The spec's example request and its id.
    @Test func interfaceSpecExample() throws {
        let content = CBORValue.map([
            "request_type": .text("call"),
            "sender": .bytes([0x04]),
            "ingress_expiry": .unsigned(1_685_570_400_000_000_000),
            "canister_id": .bytes([0, 0, 0, 0, 0, 0, 0x04, 0xD2]),
            "method_name": .text("hello"),
            "arg": .bytes(Array("DIDL".utf8) + [0x00, 0xFD, 0x2A]),
        ])
        let expected = "1d1091364d6bb8a6c16b203ee75467d59ead468f523eb058880ae8ec80e2b101"
        #expect(Hex.encode(try RequestID.of(content: content)) == expected)
        // Field order, a self-describe tag and a bignum holding the same natural change nothing.
        guard case .map(let entries) = content else { return }
        var reordered = CBORValue.map(entries.reversed())
        reordered = .tagged(CBORValue.selfDescribeTag, reordered)
        #expect(Hex.encode(try RequestID.of(content: reordered)) == expected)
        let bignum = CBORValue.map(
            entries.map {
                $0.key == .text("ingress_expiry")
                    ? CBORMapEntry(
                        key: $0.key, value: .tagged(2, .bytes([0, 0x17, 0x64, 0x59, 0x59, 0x27, 0xE9, 0xC0, 0x00])))
                    : $0
            })
        #expect(Hex.encode(try RequestID.of(content: bignum)) == expected)
    }

    @Test func arraysNestedMapsAndErrors() throws {
        let sha = { (bytes: [UInt8]) in Digest.sha256.hash(bytes) }
        // paths: [[ "time" ]] hashes as H(H(H("time"))).
        let readState = CBORValue.map(["paths": .array([.array([.bytes(Array("time".utf8))])])])
        let expected = sha(sha(Array("paths".utf8)) + sha(sha(sha(Array("time".utf8)))))
        #expect(try RequestID.of(content: readState) == expected)
        let nested = CBORValue.map(["delegation": .map(["expiration": .unsigned(0)])])
        let inner = sha(sha(Array("expiration".utf8)) + sha([0]))
        #expect(try RequestID.hashOfMap(nested) == sha(sha(Array("delegation".utf8)) + inner))
        // -1 is SLEB128 0x7f; -129 is 0xff 0x7e.
        let negative = CBORValue.map(["n": .negative(0), "m": .negative(128)])
        let pairs = [sha(Array("n".utf8)) + sha([0x7f]), sha(Array("m".utf8)) + sha([0xff, 0x7e])].sorted {
            $0.lexicographicallyPrecedes($1)
        }
        #expect(try RequestID.hashOfMap(negative) == sha(pairs.flatMap { $0 }))
        #expect(throws: RequestIDError.notAMap) { try RequestID.of(content: .array([])) }
        #expect(throws: RequestIDError.nonTextKey) {
            try RequestID.of(content: .map([CBORMapEntry(key: .unsigned(1), value: .null)]))
        }
        #expect(throws: RequestIDError.unhashableValue(field: "sender_sig")) {
            try RequestID.of(content: .map(["sender_sig": .null]))
        }
    }
}
