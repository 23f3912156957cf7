import ByteCoding
import KeccakHashing
import MerkleTrie
import RLPCoding
import Testing

/// `PatriciaTrie.proof(for:)` checked by an independent verifier written here from Yellow Paper appendix D and
/// EIP-1186 (it only hashes, decodes and walks: it shares no code with the trie). The Python interop test checks
/// the same proofs with py-trie.
@Suite struct TrieProofTests {
    struct ProofError: Error, Equatable { let text: String }

    /// The value `proof` proves for `key` under `root` (nil: proven absent); throws when the proof does not lead
    /// from the root to an answer.
    static func verify(root: [UInt8], key: [UInt8], proof: [[UInt8]]) throws -> [UInt8]? {
        var byHash: [[UInt8]: [UInt8]] = [:]
        for node in proof { byHash[Keccak256.hash(node)] = node }
        var nibbles: [UInt8] = []
        for byte in key { nibbles += [byte >> 4, byte & 0x0f] }
        var offset = 0
        if root == PatriciaTrie.emptyRoot {
            guard proof.isEmpty else { throw ProofError(text: "nodes for the empty trie") }
            return nil
        }
        var reference = RLPItem.bytes(root)
        while true {
            let node: [RLPItem]
            switch reference {
            case .bytes(let hash):
                if hash.isEmpty { return nil }
                guard hash.count == 32, let encoding = byHash[hash] else { throw ProofError(text: "missing node") }
                guard let items = try RLP.decode(encoding).listValue else { throw ProofError(text: "not a list") }
                node = items
            case .list(let items):
                node = items
            }
            if node.count == 17 {
                if offset == nibbles.count { return node[16].bytesValue.flatMap { $0.isEmpty ? nil : $0 } }
                reference = node[Int(nibbles[offset])]
                offset += 1
                continue
            }
            guard node.count == 2, let encodedPath = node[0].bytesValue, let first = encodedPath.first else {
                throw ProofError(text: "bad node")
            }
            var path: [UInt8] = first & 0x10 != 0 ? [first & 0x0f] : []
            for byte in encodedPath.dropFirst() { path += [byte >> 4, byte & 0x0f] }
            let rest = nibbles[offset...]
            if first & 0x20 != 0 {
                return rest.elementsEqual(path) ? node[1].bytesValue : nil
            }
            guard rest.starts(with: path) else { return nil }
            offset += path.count
            reference = node[1]
        }
    }

    static func bytes(_ seed: Int, count: Int) -> [UInt8] { BulkBuildTests.bytes(seed, count: count) }

    /// Hashed 32-byte keys as in the state and storage tries: every present key proves its value, absent keys
    /// (diverging at a branch, inside a leaf) prove absence.
    @Test(arguments: [1, 2, 16, 300]) func hashedKeysProveInclusionAndExclusion(count: Int) throws {
        var trie = PatriciaTrie()
        var entries: [([UInt8], [UInt8])] = []
        for i in 0..<count {
            let entry = (Keccak256.hash(Self.bytes(i, count: 20)), Self.bytes(-i - 1, count: 1 + i % 70))
            trie.set(entry.0, entry.1)
            entries.append(entry)
        }
        let root = trie.rootHash
        for (key, value) in entries {
            let proof = trie.proof(for: key)
            #expect(!proof.isEmpty)
            #expect(Keccak256.hash(proof[0]) == root)
            #expect(try Self.verify(root: root, key: key, proof: proof) == value)
        }
        for i in 0..<50 {
            let absent = Keccak256.hash(Self.bytes(100_000 + i, count: 20))
            let proof = trie.proof(for: absent)
            #expect(try Self.verify(root: root, key: absent, proof: proof) == nil)
        }
        // A key sharing the first 63 nibbles with a present one ends inside that key's leaf.
        var near = entries[0].0
        near[31] ^= 0x01
        #expect(try Self.verify(root: root, key: near, proof: trie.proof(for: near)) == nil)
    }

    /// A proof for another key's value does not verify as this key's: the verifier reaches a different answer.
    @Test func proofOfOneKeyDoesNotProveAnother() throws {
        var trie = PatriciaTrie()
        for i in 0..<40 { trie.set(Keccak256.hash([UInt8(i)]), [UInt8(i + 1)]) }
        let proof = trie.proof(for: Keccak256.hash([3]))
        #expect(try Self.verify(root: trie.rootHash, key: Keccak256.hash([3]), proof: proof) == [4])
        #expect(throws: ProofError.self) {
            try Self.verify(root: trie.rootHash, key: Keccak256.hash([7]), proof: proof)
        }
    }

    /// Short keys and values make nodes shorter than 32 bytes: they are embedded in their parent and not listed,
    /// except the root, which always is (geth's `Prove`).
    @Test func embeddedNodesAreNotListedButTheRootIs() throws {
        var small = PatriciaTrie()
        small.set([0x01], [0x02])
        let proof = small.proof(for: [0x01])
        #expect(proof.count == 1)
        #expect(proof[0].count < 32)
        #expect(try Self.verify(root: small.rootHash, key: [0x01], proof: proof) == [0x02])

        var trie = PatriciaTrie()
        for (key, value) in [("do", "verb"), ("dog", "puppy"), ("doge", "coin"), ("horse", "stallion")] {
            trie.set(Array(key.utf8), Array(value.utf8))
        }
        for (key, value) in [("do", "verb"), ("dog", "puppy"), ("doge", "coin"), ("horse", "stallion")] {
            let proof = trie.proof(for: Array(key.utf8))
            #expect(proof.dropFirst().allSatisfy { $0.count >= 32 })
            #expect(try Self.verify(root: trie.rootHash, key: Array(key.utf8), proof: proof) == Array(value.utf8))
        }
        for absent in ["d", "dogs", "cat", "horses"] {
            let key = Array(absent.utf8)
            #expect(try Self.verify(root: trie.rootHash, key: key, proof: trie.proof(for: key)) == nil)
        }
    }

    @Test func emptyTrieHasAnEmptyProof() throws {
        let key = Keccak256.hash([1])
        #expect(PatriciaTrie().proof(for: key).isEmpty)
        #expect(try Self.verify(root: PatriciaTrie.emptyRoot, key: key, proof: []) == nil)
    }

    /// The bulk-built trie (how a state is reopened) proves as the inserted one does, node for node.
    @Test func bulkBuiltTrieGivesTheSameProofs() {
        let entries = (0..<200).map { i in
            (key: Keccak256.hash(Self.bytes(i, count: 8)), value: Self.bytes(i, count: 40))
        }
        var inserted = PatriciaTrie()
        for (key, value) in entries { inserted.set(key, value) }
        let built = PatriciaTrie(entries: entries)
        for (key, _) in entries.prefix(20) { #expect(built.proof(for: key) == inserted.proof(for: key)) }
    }
}
