import KeccakHashing
import RLPCoding

/// A Merkle-Patricia trie (Yellow Paper appendix D) as a persistent value: every update shares the
/// untouched nodes with the previous version, so a copy is an O(1) snapshot and reverting is assignment.
///
/// Node references (the hash of a node's encoding, or the encoding itself when shorter than 32 bytes) are computed
/// lazily and cached in the nodes, so the root after k updates costs O(k · depth) hashes, not a rebuild.
public struct PatriciaTrie: Sendable {
    var root: TrieNode?

    /// keccak256(rlp("")): the root of the empty trie.
    public static let emptyRoot: [UInt8] = Keccak256.hash([0x80])

    public init() {}

    /// Builds the trie of `values[i]` keyed by `rlp(i)`: the transactions and receipts tries of a block.
    public init(orderedValues values: [[UInt8]]) {
        for (index, value) in values.enumerated() {
            var key = RLPEncoder(capacity: 9)
            key.appendUInt64(UInt64(index))
            set(key.bytes, value)
        }
    }

    public var isEmpty: Bool { root == nil }

    /// Builds the trie holding `entries` bottom-up from the sorted keys: one node per node of the result, no
    /// paths copied on the way (what reopening a large state needs). A key given twice keeps its last value;
    /// empty values are left out, as ``set(_:_:)`` deletes them.
    public init(entries: [(key: [UInt8], value: [UInt8])]) {
        var sorted = entries
        // Byte order is nibble order. A stable sort keeps equal keys in the order given: the last one is kept.
        sorted.sort { $0.key.lexicographicallyPrecedes($1.key) }
        var unique: [(key: [UInt8], value: [UInt8])] = []
        unique.reserveCapacity(sorted.count)
        for entry in sorted {
            if let last = unique.last, last.key == entry.key { unique.removeLast() }
            if !entry.value.isEmpty { unique.append(entry) }
        }
        sorted = []
        root = unique.isEmpty ? nil : TrieNode.build(unique[...], depth: 0)
    }

    /// The 32-byte root hash.
    public var rootHash: [UInt8] {
        guard let root else { return Self.emptyRoot }
        return root.reference.withBytes { $0.count == 32 ? Array($0) : Keccak256.hash($0) }
    }

    /// The value at `key`, or nil.
    public func get(_ key: [UInt8]) -> [UInt8]? {
        let path = Nibbles(key)
        var node = root
        var offset = 0
        while let current = node {
            switch current.kind {
            case .leaf(let encoding):
                let leaf = LeafEncoding(encoding)
                return leaf.pathEquals(path.all[offset...]) ? leaf.value : nil
            case .extension(let prefix, let child):
                guard path.matches(prefix, at: offset) else { return nil }
                offset += prefix.count
                node = child
            case .branch(let children, let value):
                if offset == path.count { return value }
                node = children[Int(path[offset])]
                offset += 1
            }
        }
        return nil
    }

    /// The Merkle proof of `key` (EIP-1186, as geth's `Trie.Prove` builds it): the RLP encodings of the nodes on
    /// the path from the root towards `key`, root first. A node embedded in its parent (encoding shorter than 32
    /// bytes) is not listed on its own; the root always is. For a key the trie does not hold the path ends at the
    /// node where the key leaves the trie (a branch without that child, a leaf or extension with another path):
    /// an exclusion proof. The empty trie's proof is empty.
    ///
    /// - Parameter key: the trie key (for the state and storage tries, keccak256 of the address or slot).
    /// - Returns: the nodes, each the byte string a verifier hashes to find it in its parent.
    public func proof(for key: [UInt8]) -> [[UInt8]] {
        let path = Nibbles(key)
        var nodes: [[UInt8]] = []
        var node = root
        var offset = 0
        while let current = node {
            let encoding = current.encoding
            if nodes.isEmpty || encoding.count >= 32 { nodes.append(encoding) }
            switch current.kind {
            case .leaf:
                node = nil
            case .extension(let prefix, let child):
                guard path.matches(prefix, at: offset) else { return nodes }
                offset += prefix.count
                node = child
            case .branch(let children, _):
                guard offset < path.count else { return nodes }
                node = children[Int(path[offset])]
                offset += 1
            }
        }
        return nodes
    }

    /// Sets `key` to `value`; an empty value deletes the key (as Ethereum's tries do).
    public mutating func set(_ key: [UInt8], _ value: [UInt8]) {
        let path = Nibbles(key).all
        if value.isEmpty {
            root = TrieNode.delete(root, path[...])
        } else {
            TrieNode.insert(&root, path[...], value)
        }
    }

    /// Removes `key`.
    public mutating func remove(_ key: [UInt8]) { set(key, []) }

    /// How many nodes of each kind the trie holds (a walk over every node: for measurements and tests).
    public var nodeCounts: (leaves: Int, extensions: Int, branches: Int) {
        var counts = (leaves: 0, extensions: 0, branches: 0)
        var stack: [TrieNode] = root.map { [$0] } ?? []
        while let node = stack.popLast() {
            switch node.kind {
            case .leaf: counts.leaves += 1
            case .extension(_, let child):
                counts.extensions += 1
                stack.append(child)
            case .branch(let children, _):
                counts.branches += 1
                for child in children { if let child { stack.append(child) } }
            }
        }
        return counts
    }
}

/// Nibbles of a key, high nibble first.
struct Nibbles {
    let all: [UInt8]
    init(_ key: [UInt8]) {
        var n = [UInt8]()
        n.reserveCapacity(key.count * 2)
        for b in key {
            n.append(b >> 4)
            n.append(b & 0x0f)
        }
        all = n
    }
    var count: Int { all.count }
    subscript(i: Int) -> UInt8 { all[i] }
    func matches(_ part: [UInt8], at offset: Int) -> Bool {
        guard offset + part.count <= all.count else { return false }
        for i in 0..<part.count where all[offset + i] != part[i] { return false }
        return true
    }
}

/// A trie node with a lazily cached reference (its hash, or its encoding when shorter than 32 bytes).
///
/// `@unchecked Sendable`: a node reachable from more than one trie value is never mutated (updates copy the
/// path); a uniquely referenced node is updated in place by its only owner. `cachedReference` is a pure
/// function of `kind`, reset on every change, and all access is serialised by the ledger's single owner.
final class TrieNode: @unchecked Sendable {
    enum Kind {
        /// rlp([hex-prefix(path, leaf), value]): the leaf's own encoding is all it holds (one heap block per leaf,
        /// instead of a path array and a value array; read through ``LeafEncoding``).
        case leaf(encoding: [UInt8])
        case `extension`(path: [UInt8], child: TrieNode)
        case branch(children: [TrieNode?], value: [UInt8]?)
    }

    /// Changed in place only while the node is uniquely referenced (never shared with a snapshot).
    var kind: Kind
    /// n(node) of Yellow Paper appendix D once computed (empty until then): rlp(node) when shorter than 32
    /// bytes, else keccak256(rlp(node)). Cached instead of the encoding: a parent re-encodes from its children's
    /// references without hashing the unchanged ones again, and a branch keeps 32 bytes inline instead of its
    /// ~530-byte encoding.
    private var cachedReference = NodeReference()

    init(_ kind: Kind) { self.kind = kind }

    static func leaf(_ path: ArraySlice<UInt8>, _ value: [UInt8]) -> TrieNode {
        TrieNode(.leaf(encoding: LeafEncoding.encode(path: path, value: value)))
    }

    /// rlp(node), from the children's cached references.
    var encoding: [UInt8] {
        switch kind {
        case .leaf(let encoding):
            return encoding
        case .extension(let path, let child):
            var encoder = RLPEncoder(capacity: path.count / 2 + 40)
            encoder.appendList { list in
                list.appendBytes(Self.hexPrefix(path, leaf: false))
                child.appendReference(to: &list)
            }
            return encoder.bytes
        case .branch(let children, let value):
            var encoder = RLPEncoder(capacity: 16 * 33 + (value?.count ?? 0) + 8)
            encoder.appendList { list in
                for child in children {
                    if let child { child.appendReference(to: &list) } else { list.bytes.append(0x80) }
                }
                list.appendBytes(value ?? [])
            }
            return encoder.bytes
        }
    }

    /// n(node), computed once per change.
    var reference: NodeReference {
        if !cachedReference.isEmpty { return cachedReference }
        cachedReference = NodeReference(encoding: encoding)
        return cachedReference
    }

    /// A child is embedded when its encoding is shorter than 32 bytes, else referenced by hash.
    func appendReference(to encoder: inout RLPEncoder) { reference.append(to: &encoder) }

    /// Nibble `index` of `key` (high nibble first).
    @inline(__always)
    static func nibble(_ key: [UInt8], _ index: Int) -> UInt8 {
        index & 1 == 0 ? key[index >> 1] >> 4 : key[index >> 1] & 0x0f
    }

    /// Nibbles `range` of `key`.
    static func nibbles(_ key: [UInt8], _ range: Range<Int>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: range.count) { out, count in
            for (i, index) in range.enumerated() { out[i] = nibble(key, index) }
            count = range.count
        }
    }

    /// The node holding the sorted, distinct, non-empty `entries`, whose keys share their first `depth` nibbles.
    static func build(_ entries: ArraySlice<(key: [UInt8], value: [UInt8])>, depth: Int) -> TrieNode {
        let first = entries[entries.startIndex]
        let firstLength = first.key.count * 2
        if entries.count == 1 {
            let path = (depth..<firstLength).lazy.map { nibble(first.key, $0) }
            return TrieNode(.leaf(encoding: LeafEncoding.encode(path: path, value: first.value)))
        }
        // For sorted keys the first and the last bound the common prefix.
        let last = entries[entries.endIndex - 1]
        let lastLength = last.key.count * 2
        var common = 0
        while depth + common < firstLength, depth + common < lastLength,
            nibble(first.key, depth + common) == nibble(last.key, depth + common)
        {
            common += 1
        }
        if common > 0 {
            let child = build(entries, depth: depth + common)
            return TrieNode(.extension(path: nibbles(first.key, depth..<(depth + common)), child: child))
        }
        var children = emptyChildren()
        var value: [UInt8]?
        var index = entries.startIndex
        if firstLength == depth {
            value = first.value
            index += 1
        }
        while index < entries.endIndex {
            let branch = nibble(entries[index].key, depth)
            let start = index
            while index < entries.endIndex, nibble(entries[index].key, depth) == branch { index += 1 }
            children[Int(branch)] = build(entries[start..<index], depth: depth + 1)
        }
        return TrieNode(.branch(children: children, value: value))
    }

    /// Hex-prefix encoding (Yellow Paper appendix C).
    static func hexPrefix(_ path: [UInt8], leaf: Bool) -> [UInt8] {
        let flag: UInt8 = leaf ? 2 : 0
        var out = [UInt8]()
        out.reserveCapacity(path.count / 2 + 1)
        var i = 0
        if path.count % 2 == 1 {
            out.append((flag | 1) << 4 | path[0])
            i = 1
        } else {
            out.append(flag << 4)
        }
        while i < path.count {
            out.append(path[i] << 4 | path[i + 1])
            i += 2
        }
        return out
    }

    static func commonPrefixLength(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        var n = 0
        var ia = a.startIndex
        var ib = b.startIndex
        while ia < a.endIndex && ib < b.endIndex && a[ia] == b[ib] {
            n += 1
            ia += 1
            ib += 1
        }
        return n
    }

    static func emptyChildren() -> [TrieNode?] { [TrieNode?](repeating: nil, count: 16) }

    func invalidate() { cachedReference = NodeReference() }

    /// Inserts into the subtree at `slot`: nodes only this trie references are updated in place, shared ones
    /// are copied along the path (so snapshots never change).
    static func insert(_ slot: inout TrieNode?, _ path: ArraySlice<UInt8>, _ value: [UInt8]) {
        guard slot != nil else {
            slot = leaf(path, value)
            return
        }
        let unique = isKnownUniquelyReferenced(&slot)
        let node = slot!
        switch node.kind {
        case .branch(var children, let branchValue):
            guard let first = path.first else {
                if unique {
                    node.kind = .branch(children: children, value: value)
                    node.invalidate()
                } else {
                    slot = TrieNode(.branch(children: children, value: value))
                }
                return
            }
            if unique {
                // Drop the enum's reference to the children so the array and the child are unique too.
                node.kind = .leaf(encoding: [])
                insert(&children[Int(first)], path.dropFirst(), value)
                node.kind = .branch(children: children, value: branchValue)
                node.invalidate()
            } else {
                insert(&children[Int(first)], path.dropFirst(), value)
                slot = TrieNode(.branch(children: children, value: branchValue))
            }
        case .extension(let prefix, let child):
            let common = commonPrefixLength(prefix[...], path)
            if common == prefix.count {
                var childSlot: TrieNode? = child
                if unique { node.kind = .leaf(encoding: []) }
                insert(&childSlot, path.dropFirst(common), value)
                if unique {
                    node.kind = .extension(path: prefix, child: childSlot!)
                    node.invalidate()
                } else {
                    slot = TrieNode(.extension(path: prefix, child: childSlot!))
                }
                return
            }
            slot = split(node, path, value)
        case .leaf:
            slot = split(node, path, value)
        }
    }

    /// Inserting a key that diverges inside a leaf or an extension: a new branch (behind an extension for the
    /// shared prefix).
    static func split(_ node: TrieNode, _ path: ArraySlice<UInt8>, _ value: [UInt8]) -> TrieNode {
        switch node.kind {
        case .leaf(let encoding):
            let stored = LeafEncoding(encoding)
            if stored.pathEquals(path) { return leaf(path, value) }
            let leafPath = stored.path
            let leafValue = stored.value
            let common = commonPrefixLength(leafPath[...], path)
            var children = emptyChildren()
            var branchValue: [UInt8]?
            if leafPath.count == common {
                branchValue = leafValue
            } else {
                children[Int(leafPath[common])] = leaf(leafPath[(common + 1)...], leafValue)
            }
            let p = path.startIndex + common
            if path.count == common {
                branchValue = value
            } else {
                children[Int(path[p])] = leaf(path[(p + 1)...], value)
            }
            let branch = TrieNode(.branch(children: children, value: branchValue))
            return common > 0 ? TrieNode(.extension(path: Array(path.prefix(common)), child: branch)) : branch
        case .extension(let prefix, let child):
            let common = commonPrefixLength(prefix[...], path)
            var children = emptyChildren()
            var branchValue: [UInt8]?
            children[Int(prefix[common])] =
                prefix.count - common == 1
                ? child : TrieNode(.extension(path: Array(prefix[(common + 1)...]), child: child))
            let p = path.startIndex + common
            if path.count == common {
                branchValue = value
            } else {
                children[Int(path[p])] = leaf(path[(p + 1)...], value)
            }
            let branch = TrieNode(.branch(children: children, value: branchValue))
            return common > 0 ? TrieNode(.extension(path: Array(prefix.prefix(common)), child: branch)) : branch
        case .branch:
            preconditionFailure("split is only for leaves and extensions")
        }
    }

    static func delete(_ node: TrieNode?, _ path: ArraySlice<UInt8>) -> TrieNode? {
        guard let node else { return nil }
        switch node.kind {
        case .leaf(let encoding):
            return LeafEncoding(encoding).pathEquals(path) ? nil : node
        case .extension(let prefix, let child):
            guard path.starts(with: prefix) else { return node }
            let newChild = delete(child, path.dropFirst(prefix.count))
            if newChild === child { return node }
            guard let newChild else { return nil }
            return prepend(prefix, to: newChild)
        case .branch(var children, var branchValue):
            if let first = path.first {
                let old = children[Int(first)]
                let updated = delete(old, path.dropFirst())
                if updated === old { return node }
                children[Int(first)] = updated
            } else {
                if branchValue == nil { return node }
                branchValue = nil
            }
            let live = children.indices.filter { children[$0] != nil }
            if live.isEmpty {
                guard let branchValue else { return nil }
                return leaf([], branchValue)
            }
            if live.count == 1 && branchValue == nil {
                let index = live[0]
                return prepend([UInt8(index)], to: children[index]!)
            }
            return TrieNode(.branch(children: children, value: branchValue))
        }
    }

    /// `prefix` followed by `node`, collapsed to keep the trie canonical.
    static func prepend(_ prefix: [UInt8], to node: TrieNode) -> TrieNode {
        if prefix.isEmpty { return node }
        switch node.kind {
        case .leaf(let encoding):
            let stored = LeafEncoding(encoding)
            return leaf((prefix + stored.path)[...], stored.value)
        case .extension(let path, let child): return TrieNode(.extension(path: prefix + path, child: child))
        case .branch: return TrieNode(.extension(path: prefix, child: node))
        }
    }
}

/// A node's reference held inline (no allocation): up to 32 bytes, the hash when `count` is 32, the embedded
/// encoding when shorter, nothing yet when 0 (an encoding is never empty).
struct NodeReference {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var count: UInt8 = 0

    init() {}

    /// n(node) for a node whose RLP encoding is `encoding`.
    init(encoding: [UInt8]) {
        encoding.withUnsafeBytes { source in
            withUnsafeMutableBytes(of: &words) { target in
                if source.count < 32 {
                    target.copyMemory(from: source)
                } else {
                    Keccak256.hash(source, into: target)
                }
            }
        }
        count = UInt8(Swift.min(encoding.count, 32))
    }

    var isEmpty: Bool { count == 0 }

    func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeBytes(of: words) { body(UnsafeRawBufferPointer(rebasing: $0[0..<Int(count)])) }
    }

    /// As an item of the parent's list: the hash as a 32-byte string, a short encoding verbatim.
    func append(to encoder: inout RLPEncoder) {
        withBytes { bytes in
            if bytes.count == 32 { encoder.appendBytes(bytes) } else { encoder.appendRaw(bytes) }
        }
    }
}
