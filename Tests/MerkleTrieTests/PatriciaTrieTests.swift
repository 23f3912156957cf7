import ByteCoding
import Foundation
import MerkleTrie
import TestSupport
import Testing

@Suite struct PatriciaTrieTests {
    @Test func emptyRootConstant() {
        #expect(
            Hex.encode(PatriciaTrie().rootHash) == "56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")
    }

    @Test func yellowPaperStyleExample() {
        var trie = PatriciaTrie()
        trie.set(Array("doe".utf8), Array("reindeer".utf8))
        trie.set(Array("dog".utf8), Array("puppy".utf8))
        trie.set(Array("dogglesworth".utf8), Array("cat".utf8))
        #expect(Hex.encode(trie.rootHash) == "8aad789dff2f538bca5d8ea56e8abe10f4c7ba3a5dea95fea4cd6e7c3a1168d3")
        #expect(trie.get(Array("dog".utf8)) == Array("puppy".utf8))
        #expect(trie.get(Array("do".utf8)) == nil)
    }

    /// Roots after puts and deletes, computed by py-trie (scripts/generate-trie-vectors.py).
    @Test func matchesPyTrie() throws {
        let url = URL(fileURLWithPath: TestVectors.packageRoot + "/Vectors/generated/trie.json")
        struct File: Decodable {
            struct Case: Decodable {
                let name: String
                let ops: [[String]]
                let root: String
            }
            let cases: [Case]
        }
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
        #expect(file.cases.count == 32)
        for c in file.cases {
            var trie = PatriciaTrie()
            var model: [[UInt8]: [UInt8]] = [:]
            for op in c.ops {
                let key = try Hex.decode(op[1])
                if op[0] == "put" {
                    let value = try Hex.decode(op[2])
                    trie.set(key, value)
                    model[key] = value
                } else {
                    trie.remove(key)
                    model[key] = nil
                }
            }
            #expect(Hex.encode(trie.rootHash) == c.root, "\(c.name)")
            for (k, v) in model { #expect(trie.get(k) == v, "\(c.name)") }
        }
    }

    @Test func snapshotsAreIndependent() {
        var trie = PatriciaTrie()
        trie.set([1, 2, 3], [9])
        let snapshot = trie
        let before = trie.rootHash
        trie.set([1, 2, 4], [8])
        #expect(snapshot.rootHash == before)
        #expect(trie.rootHash != before)
        trie.remove([1, 2, 4])
        #expect(trie.rootHash == before)
    }

    @Test func orderedRootBuilderMatchesTheTrie() {
        for count in [1, 2, 3, 15, 16, 17, 127, 128, 129, 300, 1_000] {
            let values = (0..<count).map { i in [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: 1 + i % 40) }
            #expect(PatriciaTrie.orderedRoot(values) == PatriciaTrie(orderedValues: values).rootHash, "\(count)")
        }
        #expect(PatriciaTrie.orderedRoot([]) == PatriciaTrie.emptyRoot)
    }

    @Test func orderedTrieOfNoValuesIsEmptyRoot() {
        #expect(PatriciaTrie(orderedValues: []).rootHash == PatriciaTrie.emptyRoot)
    }
}
