import CBORCoding
import CryptoCore

/// A certificate's hash tree (IC interface spec §Certification, §Encoding of certificates): its CBOR form,
/// root hash and path lookup. The HTTP interface builds one for `read_state` and signs its root hash.
public indirect enum HashTree: Hashable, Sendable {
    case empty
    case fork(HashTree, HashTree)
    case labeled([UInt8], HashTree)
    case leaf([UInt8])
    /// A subtree replaced by its root hash (32 bytes).
    case pruned([UInt8])

    /// A labeled subtree with a text label.
    public static func labeled(_ label: String, _ tree: HashTree) -> HashTree { .labeled(Array(label.utf8), tree) }

    /// Reads the CBOR form: `[0]`, `[1, left, right]`, `[2, label, tree]`, `[3, value]`, `[4, hash]`.
    ///
    /// - Throws: ``HashTreeError`` naming the first node that has another shape.
    public init(cbor: CBORValue) throws(HashTreeError) {
        guard let items = cbor.arrayValue, let tag = items.first?.uint64Value else {
            throw .malformedNode("not a tagged array")
        }
        switch (tag, items.count) {
        case (0, 1): self = .empty
        case (1, 3): self = .fork(try HashTree(cbor: items[1]), try HashTree(cbor: items[2]))
        case (2, 3):
            guard let label = items[1].bytesValue else { throw .malformedNode("label is not a byte string") }
            self = .labeled(label, try HashTree(cbor: items[2]))
        case (3, 2):
            guard let value = items[1].bytesValue else { throw .malformedNode("leaf is not a byte string") }
            self = .leaf(value)
        case (4, 2):
            guard let hash = items[1].bytesValue, hash.count == 32 else {
                throw .malformedNode("pruned hash is not 32 bytes")
            }
            self = .pruned(hash)
        default: throw .malformedNode("tag \(tag) with \(items.count - 1) fields")
        }
    }

    /// The CBOR form.
    public var cbor: CBORValue {
        switch self {
        case .empty: return .array([.unsigned(0)])
        case .fork(let left, let right): return .array([.unsigned(1), left.cbor, right.cbor])
        case .labeled(let label, let tree): return .array([.unsigned(2), .bytes(label), tree.cbor])
        case .leaf(let value): return .array([.unsigned(3), .bytes(value)])
        case .pruned(let hash): return .array([.unsigned(4), .bytes(hash)])
        }
    }

    static func domain(_ name: String) -> [UInt8] { [UInt8(name.utf8.count)] + Array(name.utf8) }

    /// The root hash (`reconstruct` in the spec): SHA-256 with a domain separator per node kind.
    public var rootHash: [UInt8] {
        switch self {
        case .empty: return Digest.sha256.hash(Self.domain("ic-hashtree-empty"))
        case .fork(let left, let right):
            return Digest.sha256.hash(Self.domain("ic-hashtree-fork") + left.rootHash + right.rootHash)
        case .labeled(let label, let tree):
            return Digest.sha256.hash(Self.domain("ic-hashtree-labeled") + label + tree.rootHash)
        case .leaf(let value): return Digest.sha256.hash(Self.domain("ic-hashtree-leaf") + value)
        case .pruned(let hash): return hash
        }
    }

    /// What a path lookup proves.
    public enum LookupResult: Hashable, Sendable {
        case found([UInt8])
        /// The tree proves there is no value at the path.
        case absent
        /// Pruned parts hide whether there is one.
        case unknown
        /// The path ends at an inner node.
        case error
    }

    /// Looks a path of labels up (IC interface spec §Lookup).
    public func lookup(_ path: [[UInt8]]) -> LookupResult {
        guard let label = path.first else {
            switch self {
            case .empty: return .absent
            case .leaf(let value): return .found(value)
            case .pruned: return .unknown
            case .labeled, .fork: return .error
            }
        }
        let nodes = flattenForks()
        for node in nodes {
            if case .labeled(let other, let subtree) = node, other == label {
                return subtree.lookup(Array(path.dropFirst()))
            }
        }
        func labelOf(_ node: HashTree) -> [UInt8]? {
            if case .labeled(let l, _) = node { return l }
            return nil
        }
        let less = { (a: [UInt8], b: [UInt8]) in a.lexicographicallyPrecedes(b) }
        if nodes.isEmpty { return .absent }
        if nodes.count == 1, case .leaf = nodes[0] { return .absent }
        if let first = labelOf(nodes[0]), less(label, first) { return .absent }
        if let last = labelOf(nodes[nodes.count - 1]), less(last, label) { return .absent }
        for index in 0..<(nodes.count - 1) {
            if let l1 = labelOf(nodes[index]), let l2 = labelOf(nodes[index + 1]), less(l1, label), less(label, l2) {
                return .absent
            }
        }
        return .unknown
    }

    /// A path of text labels.
    public func lookup(_ path: String...) -> LookupResult { lookup(path.map { Array($0.utf8) }) }

    func flattenForks() -> [HashTree] {
        switch self {
        case .empty: return []
        case .fork(let left, let right): return left.flattenForks() + right.flattenForks()
        default: return [self]
        }
    }
}

/// A CBOR value that is not a hash tree.
public enum HashTreeError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformedNode(String)
    public var description: String {
        switch self {
        case .malformedNode(let reason): return "malformed hash tree node: \(reason)"
        }
    }
}
