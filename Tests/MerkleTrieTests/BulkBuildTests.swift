import ByteCoding
import KeccakHashing
import MerkleTrie
import Testing

/// `PatriciaTrie(entries:)` builds bottom-up what inserting the same entries one by one builds.
@Suite struct BulkBuildTests {
    /// Deterministic pseudo-random bytes (no global RNG: the same keys on every machine).
    static func bytes(_ seed: Int, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        var state = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        while out.count < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            out.append(UInt8(truncatingIfNeeded: state))
        }
        return out
    }

    @Test(arguments: [1, 2, 17, 256, 3_000]) func hashedKeysMatchInsertion(count: Int) {
        let entries = (0..<count).map { i in
            (key: Keccak256.hash(Self.bytes(i, count: 20)), value: Self.bytes(-i, count: 1 + i % 90))
        }
        var inserted = PatriciaTrie()
        for (key, value) in entries { inserted.set(key, value) }
        let built = PatriciaTrie(entries: entries)
        #expect(built.rootHash == inserted.rootHash)
        for (key, value) in entries.prefix(50) { #expect(built.get(key) == value) }
    }

    /// Keys that are prefixes of others (branch values), a key given twice (the last value wins) and an empty
    /// value (left out, as `set` deletes).
    @Test func prefixesDuplicatesAndEmptyValues() {
        let entries: [(key: [UInt8], value: [UInt8])] = [
            (Array("do".utf8), Array("verb".utf8)), (Array("dog".utf8), Array("puppy".utf8)),
            (Array("doge".utf8), Array("coin".utf8)), (Array("horse".utf8), Array("stallion".utf8)),
            (Array("dog".utf8), Array("hound".utf8)), (Array("cat".utf8), []), ([], Array("root value".utf8)),
        ]
        var inserted = PatriciaTrie()
        for (key, value) in entries { inserted.set(key, value) }
        let built = PatriciaTrie(entries: entries)
        #expect(built.rootHash == inserted.rootHash)
        #expect(built.get(Array("dog".utf8)) == Array("hound".utf8))
        #expect(built.get(Array("cat".utf8)) == nil)
        #expect(PatriciaTrie(entries: []).rootHash == PatriciaTrie.emptyRoot)
        #expect(PatriciaTrie(entries: [(Array("x".utf8), [])]).rootHash == PatriciaTrie.emptyRoot)
    }

    /// A bulk-built trie takes updates and snapshots like any other (its nodes are shared, then copied on write).
    @Test func aBuiltTrieUpdatesAndSnapshots() {
        let entries = (0..<500).map { i in
            (key: Keccak256.hash(Self.bytes(i, count: 20)), value: Self.bytes(i, count: 70))
        }
        var built = PatriciaTrie(entries: entries)
        var inserted = PatriciaTrie()
        for (key, value) in entries { inserted.set(key, value) }
        let snapshot = built
        let before = built.rootHash
        for (key, _) in entries.prefix(100) {
            built.set(key, [1, 2, 3])
            inserted.set(key, [1, 2, 3])
        }
        for (key, _) in entries.suffix(100) {
            built.remove(key)
            inserted.remove(key)
        }
        #expect(built.rootHash == inserted.rootHash)
        #expect(snapshot.rootHash == before)
        #expect(Hex.encode(before) != Hex.encode(built.rootHash))
    }
}
