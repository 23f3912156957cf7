import ICPIdentity

/// A piece of the certified state tree before it becomes a ``HashTree``: leaves and labelled subtrees in any order.
/// ``hashTree`` sorts labels and builds the balanced forks the IC uses.
public indirect enum StateTree: Sendable, Equatable {
    case leaf([UInt8])
    case node([[UInt8]: StateTree])

    public static func node(_ children: [(String, StateTree)]) -> StateTree {
        .node(Dictionary(children.map { (Array($0.0.utf8), $0.1) }, uniquingKeysWith: { $1 }))
    }

    /// Inserts `value` at `path`, creating inner nodes on the way (replacing a leaf in the way).
    public mutating func insert(_ path: [[UInt8]], _ value: StateTree) {
        guard let first = path.first else {
            self = value
            return
        }
        var children: [[UInt8]: StateTree] = [:]
        if case .node(let existing) = self { children = existing }
        var child = children[first] ?? .node([:])
        child.insert(Array(path.dropFirst()), value)
        children[first] = child
        self = .node(children)
    }

    public var hashTree: HashTree {
        switch self {
        case .leaf(let value): return .leaf(value)
        case .node(let children):
            let sorted = children.sorted { $0.key.lexicographicallyPrecedes($1.key) }
            return Self.forks(sorted.map { HashTree.labeled($0.key, $0.value.hashTree) }[...])
        }
    }

    static func forks(_ nodes: ArraySlice<HashTree>) -> HashTree {
        switch nodes.count {
        case 0: return .empty
        case 1: return nodes[nodes.startIndex]
        default:
            let middle = nodes.startIndex + (nodes.count + 1) / 2
            return .fork(forks(nodes[..<middle]), forks(nodes[middle...]))
        }
    }
}
