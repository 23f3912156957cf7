import KeccakHashing

/// A 32-byte trie key held inline, as the state and storage tries use them (keccak256 of an address or a slot):
/// four big-endian words, so sorting a million of them and reading their nibbles touches no heap block per key.
public struct TrieKey: Sendable, Hashable, Comparable {
    /// Bytes 0–7, 8–15, 16–23 and 24–31, each as a big-endian number: word order is byte order is nibble order.
    let words: (UInt64, UInt64, UInt64, UInt64)

    /// keccak256(`bytes`).
    public init(hashing bytes: [UInt8]) {
        var digest: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        bytes.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &digest) { Keccak256.hash(source, into: $0) }
        }
        words = (
            UInt64(bigEndian: digest.0), UInt64(bigEndian: digest.1), UInt64(bigEndian: digest.2),
            UInt64(bigEndian: digest.3)
        )
    }

    /// The 32 bytes.
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            let raw = UnsafeMutableRawBufferPointer(out)
            raw.storeBytes(of: words.0.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: words.1.bigEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: words.2.bigEndian, toByteOffset: 16, as: UInt64.self)
            raw.storeBytes(of: words.3.bigEndian, toByteOffset: 24, as: UInt64.self)
            count = 32
        }
    }

    /// Nibble `index` (0…63), high nibble first.
    @inline(__always)
    func nibble(_ index: Int) -> UInt8 {
        let word: UInt64
        switch index >> 4 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return UInt8(truncatingIfNeeded: word >> UInt64(60 - (index & 15) * 4)) & 0x0f
    }

    public static func == (a: TrieKey, b: TrieKey) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    public static func < (a: TrieKey, b: TrieKey) -> Bool {
        if a.words.0 != b.words.0 { return a.words.0 < b.words.0 }
        if a.words.1 != b.words.1 { return a.words.1 < b.words.1 }
        if a.words.2 != b.words.2 { return a.words.2 < b.words.2 }
        return a.words.3 < b.words.3
    }
}

extension PatriciaTrie {
    /// Builds the trie holding `count` leaves bottom-up from their sorted keys (what reopening or creating a large
    /// state needs): the caller keeps the keys inline, and each value is asked for once, as its leaf is made, so no
    /// key or value array is held per leaf on the way. Equals setting `value(i)` at `key(i).bytes` for every `i`.
    ///
    /// Not generic on purpose: the caller's arrays are read through two closures, so the caller's concrete code (its
    /// sort) is specialised where it is written and this module's loops need no generic metadata.
    ///
    /// - Parameters:
    ///   - count: the number of leaves.
    ///   - key: the key of leaf `i`, strictly ascending in `i` (keccak256 of distinct addresses, sorted).
    ///   - value: the value of leaf `i`; never empty (an empty value means "no key": leave the leaf out).
    public init(sortedCount count: Int, key: (Int) -> TrieKey, value: (Int) -> [UInt8]) {
        for i in 1..<max(count, 1) { precondition(key(i - 1) < key(i), "keyed trie leaves sorted and distinct") }
        root = count == 0 ? nil : TrieNode.build(keyed: 0..<count, depth: 0, key: key, value: value)
    }
}

extension TrieNode {
    /// The node holding leaves `range` (sorted, distinct 64-nibble keys sharing their first `depth` nibbles).
    static func build(
        keyed range: Range<Int>, depth: Int, key: (Int) -> TrieKey, value: (Int) -> [UInt8]
    ) -> TrieNode {
        let first = key(range.lowerBound)
        if range.count == 1 {
            let bytes = value(range.lowerBound)
            precondition(!bytes.isEmpty, "a keyed trie leaf's value is never empty")
            let path = (depth..<64).lazy.map { first.nibble($0) }
            return TrieNode(.leaf(encoding: LeafEncoding.encode(path: path, value: bytes)))
        }
        // Sorted keys: the first and the last bound the common prefix. Distinct keys of equal length part before
        // their end, so there is never a branch value.
        let last = key(range.upperBound - 1)
        var common = 0
        while depth + common < 64, first.nibble(depth + common) == last.nibble(depth + common) { common += 1 }
        if common > 0 {
            let child = build(keyed: range, depth: depth + common, key: key, value: value)
            let path = (depth..<(depth + common)).map { first.nibble($0) }
            return TrieNode(.extension(path: path, child: child))
        }
        var children = emptyChildren()
        var index = range.lowerBound
        while index < range.upperBound {
            let branch = key(index).nibble(depth)
            let start = index
            while index < range.upperBound, key(index).nibble(depth) == branch { index += 1 }
            children[Int(branch)] = build(keyed: start..<index, depth: depth + 1, key: key, value: value)
        }
        return TrieNode(.branch(children: children, value: nil))
    }
}
