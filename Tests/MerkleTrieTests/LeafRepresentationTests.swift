import KeccakHashing
import MerkleTrie
import RLPCoding
import Testing

/// Leaves hold only their own encoding, and large states are built from inline keys (`PatriciaTrie(sortedCount:)`):
/// the roots, values and proofs are checked against a reference written here from Yellow Paper appendices C and D
/// (a recursive encoder over sorted nibble paths that shares no code with the trie) and against the trie built one
/// `set` at a time, on random key sets with inserts, overwrites and deletes.
@Suite struct LeafRepresentationTests {
    static func nibbles(_ key: [UInt8]) -> [UInt8] { key.flatMap { [$0 >> 4, $0 & 0x0f] } }

    static func hexPrefix(_ path: ArraySlice<UInt8>, leaf: Bool) -> [UInt8] {
        let flag: UInt8 = leaf ? 0x20 : 0
        var out: [UInt8] = path.count % 2 == 1 ? [flag | 0x10 | path.first!] : [flag]
        var rest = path.count % 2 == 1 ? path.dropFirst() : path
        while let high = rest.first {
            out.append(high << 4 | rest.dropFirst().first!)
            rest = rest.dropFirst(2)
        }
        return out
    }

    /// The node for `entries` (sorted by path, distinct, all sharing the first `depth` nibbles).
    static func node(_ entries: ArraySlice<(path: [UInt8], value: [UInt8])>, depth: Int) -> RLPItem {
        let first = entries.first!
        if entries.count == 1 {
            return .list([.bytes(hexPrefix(first.path[depth...], leaf: true)), .bytes(first.value)])
        }
        var common = 0
        while entries.allSatisfy({
            $0.path.count > depth + common && $0.path[depth + common] == first.path[depth + common]
        }) {
            common += 1
        }
        if common > 0 {
            return .list([
                .bytes(hexPrefix(first.path[depth..<(depth + common)], leaf: false)),
                reference(node(entries, depth: depth + common)),
            ])
        }
        var items: [RLPItem] = []
        for nibble in UInt8(0)..<16 {
            let group = entries.filter { $0.path.count > depth && $0.path[depth] == nibble }
            items.append(group.isEmpty ? .bytes([]) : reference(node(group[...], depth: depth + 1)))
        }
        items.append(.bytes(entries.first { $0.path.count == depth }?.value ?? []))
        return .list(items)
    }

    static func reference(_ item: RLPItem) -> RLPItem {
        let encoding = RLP.encode(item)
        return encoding.count < 32 ? item : .bytes(Keccak256.hash(encoding))
    }

    /// keccak256(rlp(root node)) of the map, computed without the trie.
    static func referenceRoot(_ map: [[UInt8]: [UInt8]]) -> [UInt8] {
        let entries = map.filter { !$0.value.isEmpty }.map { (path: nibbles($0.key), value: $0.value) }
            .sorted { $0.path.lexicographicallyPrecedes($1.path) }
        guard !entries.isEmpty else { return PatriciaTrie.emptyRoot }
        return Keccak256.hash(RLP.encode(node(entries[...], depth: 0)))
    }

    static func bytes(_ seed: Int, count: Int) -> [UInt8] { BulkBuildTests.bytes(seed, count: count) }

    /// Keys of 0–4 bytes (paths that are prefixes of others: branch values, leaves with empty and odd paths after
    /// a split) and values of 1–120 bytes (one byte below 0x80 is its own encoding; 56 and more take a long
    /// header): after every step the root equals the reference, every value reads back and proves.
    @Test(arguments: [1, 2, 3]) func randomUpdatesMatchTheReference(seed: Int) throws {
        var trie = PatriciaTrie()
        var map: [[UInt8]: [UInt8]] = [:]
        let stream = Self.bytes(seed * 7_919, count: 4_000)
        var p = 0
        func next() -> Int {
            p += 1
            return Int(stream[p % stream.count])
        }
        for step in 0..<400 {
            let key = (0..<(next() % 5)).map { _ in UInt8(next() % 6) }
            let roll = next()
            let value: [UInt8]
            switch roll % 6 {
            case 0: value = []
            case 1: value = [UInt8(next() % 0x80)]
            case 2: value = [0x80 | UInt8(next() % 0x80)]
            default: value = Self.bytes(step + seed * 1_000, count: 1 + next() % 120)
            }
            trie.set(key, value)
            map[key] = value.isEmpty ? nil : value
            #expect(trie.rootHash == Self.referenceRoot(map), "step \(step)")
        }
        let root = trie.rootHash
        for (key, value) in map {
            #expect(trie.get(key) == value)
            #expect(try TrieProofTests.verify(root: root, key: key, proof: trie.proof(for: key)) == value)
        }
        for absent in [[0x0a], [0x01, 0x02, 0x03, 0x04, 0x05], [0xff, 0xff]] as [[UInt8]] where map[absent] == nil {
            #expect(trie.get(absent) == nil)
            #expect(try TrieProofTests.verify(root: root, key: absent, proof: trie.proof(for: absent)) == nil)
        }
    }

    /// A state-like trie (keccak keys, ~70-byte account encodings, some one-byte values): built from inline keys it
    /// has the reference's root, the root, values and proofs (node for node) of the trie built by `set`, and takes
    /// updates and deletes like it, without changing a snapshot taken before.
    @Test(arguments: [1, 2, 33, 1_000]) func keyedBuildEqualsInsertion(count: Int) throws {
        let entries = (0..<count).map { i in
            (key: Self.bytes(i, count: 20), value: i % 11 == 0 ? [UInt8(i % 0x80)] : Self.bytes(-i, count: 60 + i % 20))
        }
        var map: [[UInt8]: [UInt8]] = [:]
        var inserted = PatriciaTrie()
        for (address, value) in entries {
            inserted.set(Keccak256.hash(address), value)
            map[Keccak256.hash(address)] = value
        }
        let keyed = entries.map { (key: TrieKey(hashing: $0.key), value: $0.value) }.sorted { $0.key < $1.key }
        var built = PatriciaTrie(sortedCount: keyed.count, key: { keyed[$0].key }, value: { keyed[$0].value })
        #expect(built.rootHash == Self.referenceRoot(map))
        #expect(built.rootHash == inserted.rootHash)
        #expect(built.nodeCounts == inserted.nodeCounts)
        for (address, value) in entries {
            let key = Keccak256.hash(address)
            #expect(TrieKey(hashing: address).bytes == key)
            #expect(built.get(key) == value)
            #expect(built.proof(for: key) == inserted.proof(for: key))
            #expect(try TrieProofTests.verify(root: built.rootHash, key: key, proof: built.proof(for: key)) == value)
        }
        let snapshot = built
        let snapshotRoot = built.rootHash
        for (i, (address, _)) in entries.enumerated() where i % 3 == 0 {
            let key = Keccak256.hash(address)
            let value = i % 2 == 0 ? [] : Self.bytes(i + 5_000, count: 70)
            built.set(key, value)
            inserted.set(key, value)
            map[key] = value.isEmpty ? nil : value
        }
        #expect(built.rootHash == inserted.rootHash)
        #expect(built.rootHash == Self.referenceRoot(map))
        #expect(snapshot.rootHash == snapshotRoot)
    }

    @Test func keyedBuildOfNothingIsTheEmptyTrie() {
        let trie = PatriciaTrie(sortedCount: 0, key: { _ in preconditionFailure() }, value: { _ in [] })
        #expect(trie.isEmpty)
        #expect(trie.rootHash == PatriciaTrie.emptyRoot)
    }

    /// Inline keys order as their bytes do.
    @Test func trieKeysSortAsTheirBytes() {
        let keys = (0..<200).map { TrieKey(hashing: Self.bytes($0, count: 8)) }
        let byWords = keys.sorted().map(\.bytes)
        let byBytes = keys.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(byWords == byBytes)
    }
}
