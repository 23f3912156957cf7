/// A decoded RLP value: a byte string or a list of items (Yellow Paper appendix B).
public enum RLPItem: Equatable, Hashable, Sendable {
    case bytes([UInt8])
    case list([RLPItem])

    /// The byte string, or nil for a list.
    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// The list items, or nil for a byte string.
    public var listValue: [RLPItem]? {
        if case .list(let l) = self { return l }
        return nil
    }
}

/// One-shot RLP encoding and strict decoding.
public enum RLP {
    /// Maximum list nesting the decoder accepts; deeper input is rejected with ``RLPDecodingError/Kind/tooDeep``.
    public static let maximumDepth = 128

    /// Encodes `item` canonically.
    public static func encode(_ item: RLPItem) -> [UInt8] {
        var encoder = RLPEncoder()
        encoder.append(item)
        return encoder.bytes
    }

    /// Decodes exactly one item spanning all of `bytes`.
    /// - Throws: ``RLPDecodingError`` with the byte offset of the first problem.
    public static func decode(_ bytes: [UInt8]) throws(RLPDecodingError) -> RLPItem {
        var reader = RLPReader(bytes)
        let item = try reader.readItem()
        try reader.finish()
        return item
    }
}

extension RLPEncoder {
    /// Appends a generic item tree.
    public mutating func append(_ item: RLPItem) {
        switch item {
        case .bytes(let b): appendBytes(b)
        case .list(let items):
            appendList { encoder in
                for child in items { encoder.append(child) }
            }
        }
    }
}

extension RLPReader {
    /// Reads the next item as a tree, enforcing ``RLP/maximumDepth``.
    public mutating func readItem() throws(RLPDecodingError) -> RLPItem {
        try readItem(depth: 0)
    }

    mutating func readItem(depth: Int) throws(RLPDecodingError) -> RLPItem {
        let header = try peekHeader()
        if header.isList {
            guard depth < RLP.maximumDepth else { throw RLPDecodingError(.tooDeep, at: position) }
            var inner = try readList()
            var items: [RLPItem] = []
            while !inner.isAtEnd {
                items.append(try inner.readItem(depth: depth + 1))
            }
            return .list(items)
        }
        return .bytes(Array(try readBytes()))
    }
}
