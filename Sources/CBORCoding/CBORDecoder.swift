/// Decodes one CBOR item (RFC 8949) from untrusted bytes: definite lengths only, bounded depth and sizes,
/// every failure a ``CBORDecodingError`` with the offset; no input can crash it or make it allocate more
/// than the input's size.
public struct CBORDecoder: Sendable {
    /// The deepest nesting of arrays, maps and tags accepted.
    public var maxDepth: Int
    /// The most elements of one array or entries of one map accepted.
    public var maxCollectionCount: Int
    /// Whether two equal keys in one map are an error (the IC forbids them).
    public var rejectsDuplicateKeys: Bool

    public init(maxDepth: Int = 64, maxCollectionCount: Int = 1 << 20, rejectsDuplicateKeys: Bool = true) {
        self.maxDepth = maxDepth
        self.maxCollectionCount = maxCollectionCount
        self.rejectsDuplicateKeys = rejectsDuplicateKeys
    }

    /// Decodes exactly one item that spans all of `bytes`.
    public func decode(_ bytes: [UInt8]) throws(CBORDecodingError) -> CBORValue {
        try bytes.withUnsafeBufferPointer { buffer throws(CBORDecodingError) in
            var cursor = Cursor(buffer: buffer, decoder: self)
            let value = try cursor.item(depth: 0)
            guard cursor.offset == buffer.count else { throw CBORDecodingError(.trailingBytes, offset: cursor.offset) }
            return value
        }
    }

    /// A non-allocating reader over the input.
    struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        let decoder: CBORDecoder
        var offset = 0

        init(buffer: UnsafeBufferPointer<UInt8>, decoder: CBORDecoder) {
            self.buffer = buffer
            self.decoder = decoder
        }

        var remaining: Int { buffer.count - offset }

        /// Maps with at most this many entries are checked for duplicate keys by comparison, larger ones by hashing.
        static let linearDuplicateCheckLimit = 16

        mutating func byte() throws(CBORDecodingError) -> UInt8 {
            guard offset < buffer.count else { throw CBORDecodingError(.unexpectedEnd, offset: offset) }
            defer { offset += 1 }
            return buffer[offset]
        }

        /// The argument of a head (RFC 8949 §3): the value for ints and tags, the length for strings and containers.
        mutating func argument(_ info: UInt8, headOffset: Int) throws(CBORDecodingError) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                let count = 1 << Int(info - 24)
                guard remaining >= count else { throw CBORDecodingError(.unexpectedEnd, offset: buffer.count) }
                var value: UInt64 = 0
                for _ in 0..<count {
                    value = value << 8 | UInt64(buffer[offset])
                    offset += 1
                }
                return value
            case 31: throw CBORDecodingError(.indefiniteLength, offset: headOffset)
            default: throw CBORDecodingError(.reservedAdditionalInfo(info), offset: headOffset)
            }
        }

        mutating func item(depth: Int) throws(CBORDecodingError) -> CBORValue {
            let headOffset = offset
            guard depth <= decoder.maxDepth else {
                throw CBORDecodingError(.tooDeep(limit: decoder.maxDepth), offset: headOffset)
            }
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1f
            if major == 7 {
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw CBORDecodingError(.unsupportedSimpleValue(info), offset: headOffset)
                }
            }
            let argument = try argument(info, headOffset: headOffset)
            switch major {
            case 0: return .unsigned(argument)
            case 1: return .negative(argument)
            case 2: return .bytes(Array(try slice(argument, headOffset: headOffset)))
            case 3:
                let raw = try slice(argument, headOffset: headOffset)
                guard let text = String(validating: raw, as: UTF8.self) else {
                    throw CBORDecodingError(.invalidUTF8, offset: headOffset)
                }
                return .text(text)
            case 4:
                // Every element takes at least one byte, so a count above what remains is refused before
                // anything is allocated for it.
                let count = try collectionCount(argument, minimumItemSize: 1, headOffset: headOffset)
                var elements: [CBORValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try item(depth: depth + 1)) }
                return .array(elements)
            case 5:
                let count = try collectionCount(argument, minimumItemSize: 2, headOffset: headOffset)
                var entries: [CBORMapEntry] = []
                entries.reserveCapacity(count)
                // Duplicate keys: small maps (every map the IC sends) by comparing with the keys before, without
                // hashing; larger ones through a set.
                var seen = Set<CBORValue>()
                let linear = count <= Self.linearDuplicateCheckLimit
                for _ in 0..<count {
                    let keyOffset = offset
                    let key = try item(depth: depth + 1)
                    if decoder.rejectsDuplicateKeys {
                        let duplicate = linear ? entries.contains { $0.key == key } : !seen.insert(key).inserted
                        guard !duplicate else { throw CBORDecodingError(.duplicateMapKey, offset: keyOffset) }
                    }
                    entries.append(CBORMapEntry(key: key, value: try item(depth: depth + 1)))
                }
                return .map(entries)
            default:  // 6
                return .tagged(argument, try item(depth: depth + 1))
            }
        }

        mutating func slice(_ length: UInt64, headOffset: Int) throws(CBORDecodingError) -> UnsafeBufferPointer<UInt8> {
            guard length <= UInt64(remaining) else {
                throw CBORDecodingError(.lengthTooLarge(length), offset: headOffset)
            }
            let start = offset
            offset += Int(length)
            return UnsafeBufferPointer(rebasing: buffer[start..<offset])
        }

        func collectionCount(_ count: UInt64, minimumItemSize: Int, headOffset: Int) throws(CBORDecodingError) -> Int {
            guard count <= UInt64(remaining / minimumItemSize), count <= UInt64(decoder.maxCollectionCount) else {
                throw CBORDecodingError(.lengthTooLarge(count), offset: headOffset)
            }
            return Int(count)
        }
    }
}
