import KeccakHashing
import RLPCoding

extension PatriciaTrie {
    /// The root hash of the trie mapping `rlp(i)` to `values[i]` (transactions and receipts tries),
    /// computed bottom-up from the sorted keys without building nodes: O(n · key length) work and one
    /// encoding per node. Equals `PatriciaTrie(orderedValues:).rootHash`.
    public static func orderedRoot(_ values: [[UInt8]]) -> [UInt8] {
        guard !values.isEmpty else { return emptyRoot }
        var entries: [(path: [UInt8], value: [UInt8])] = []
        entries.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            var key = RLPEncoder(capacity: 9)
            key.appendUInt64(UInt64(index))
            var nibbles = [UInt8]()
            nibbles.reserveCapacity(key.bytes.count * 2)
            for b in key.bytes {
                nibbles.append(b >> 4)
                nibbles.append(b & 0x0f)
            }
            entries.append((nibbles, value))
        }
        entries.sort { $0.path.lexicographicallyPrecedes($1.path) }
        return Keccak256.hash(encodeNode(entries[...], depth: 0))
    }

    /// Encodes the node for `entries` (sorted, all sharing the first `depth` nibbles).
    static func encodeNode(_ entries: ArraySlice<(path: [UInt8], value: [UInt8])>, depth: Int) -> [UInt8] {
        let first = entries[entries.startIndex]
        if entries.count == 1 {
            var e = RLPEncoder(capacity: first.value.count + 40)
            e.appendList { list in
                list.appendBytes(TrieNode.hexPrefix(Array(first.path[depth...]), leaf: true))
                list.appendBytes(first.value)
            }
            return e.bytes
        }
        // Longest common prefix beyond `depth`: the first and last keys bound it for sorted keys.
        let last = entries[entries.endIndex - 1]
        var common = 0
        while depth + common < first.path.count, depth + common < last.path.count,
            first.path[depth + common] == last.path[depth + common]
        {
            common += 1
        }
        if common > 0 {
            let child = encodeNode(entries, depth: depth + common)
            var e = RLPEncoder(capacity: 48)
            e.appendList { list in
                list.appendBytes(TrieNode.hexPrefix(Array(first.path[depth..<(depth + common)]), leaf: false))
                appendReference(child, to: &list)
            }
            return e.bytes
        }
        var e = RLPEncoder(capacity: 560)
        var branchValue: [UInt8]?
        var index = entries.startIndex
        if first.path.count == depth {
            branchValue = first.value
            index += 1
        }
        e.appendList { list in
            for nibble in UInt8(0)..<16 {
                let start = index
                while index < entries.endIndex, entries[index].path[depth] == nibble { index += 1 }
                if start == index {
                    list.appendBytes([UInt8]())
                } else {
                    appendReference(encodeNode(entries[start..<index], depth: depth + 1), to: &list)
                }
            }
            list.appendBytes(branchValue ?? [])
        }
        return e.bytes
    }

    /// n(node): a short encoding verbatim, else its hash as a 32-byte string (the inline digest: no array per node).
    static func appendReference(_ encoding: [UInt8], to list: inout RLPEncoder) {
        if encoding.count < 32 { list.appendRaw(encoding) } else { list.appendBytes(Keccak256.digest(encoding)) }
    }
}
