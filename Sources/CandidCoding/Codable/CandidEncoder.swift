/// Encodes `Encodable` Swift values as Candid (Candid spec, "Binary format").
///
/// Mapping: structs → `record` (field ids are hashes of the property names), enums with associated values →
/// `variant` (a single unlabeled payload `_0` is unwrapped; cases without payload carry `null`), `Optional` →
/// `opt`, arrays → `vec`, `[UInt8]` → `blob`, `String` → `text`, `Bool` → `bool`, `Int`/`Int64`... → `int64`...,
/// `UInt`/`UInt64`... → `nat64`..., `Float`/`Double` → `float32`/`float64`, `CandidNat` → `nat`, `CandidInt` → `int`,
/// `CandidPrincipal` → `principal`. Without an explicit type, types are inferred from the value; `nil` and empty
/// arrays infer `opt empty` and `vec empty`, which decode at any `opt`/`vec` type.
public struct CandidEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// Encodes one value as a single-argument Candid message with an inferred type.
    ///
    /// - Throws: `CandidEncodingError` when the value cannot be represented.
    public func encode<T: Encodable>(_ value: T) throws(CandidEncodingError) -> [UInt8] {
        let (type, candid) = try encodeValue(value)
        return try CandidSerializer.encode([candid], types: [type])
    }

    /// Encodes one value at an explicit Candid type (for example a type from a `.did` file).
    ///
    /// - Throws: `CandidEncodingError` when the value does not match the type.
    public func encode<T: Encodable>(
        _ value: T,
        as type: CandidType,
        environment: CandidTypeEnvironment = .init()
    ) throws(CandidEncodingError) -> [UInt8] {
        let (_, candid) = try encodeValue(value)
        return try CandidSerializer.encode([candid], types: [type], environment: environment)
    }

    /// Converts a value to a Candid value and its inferred type.
    ///
    /// - Throws: `CandidEncodingError` when the value cannot be represented.
    public func encodeValue<T: Encodable>(_ value: T) throws(CandidEncodingError) -> (
        type: CandidType, value: CandidValue
    ) {
        let node = CandidEncodingNode()
        do {
            try CandidEncodingNode.encode(value, into: node, codingPath: [])
        } catch let error as CandidEncodingError {
            throw error
        } catch {
            throw CandidEncodingError(path: "", "\(error)")
        }
        return try node.result(path: "")
    }
}

/// Mutable tree built while an `Encodable` value encodes itself.
final class CandidEncodingNode {
    enum Content {
        case unset
        case leaf(CandidType, CandidValue)
        case keyed([(key: String, node: CandidEncodingNode)], isVariant: Bool)
        case unkeyed([CandidEncodingNode])
    }

    var content: Content = .unset

    static func encode<T: Encodable>(_ value: T, into node: CandidEncodingNode, codingPath: [any CodingKey]) throws {
        if let leaf = CandidEncodingNode.leaf(value) {
            node.content = .leaf(leaf.0, leaf.1)
            return
        }
        if let optional = value as? any CandidOptionalEncodable {
            guard let wrapped = optional.wrappedEncodable else {
                node.content = .leaf(.opt(.empty), CandidValue.optNull)
                return
            }
            let inner = CandidEncodingNode()
            try encode(wrapped, into: inner, codingPath: codingPath)
            let (type, candid) = try inner.result(path: "")
            node.content = .leaf(.opt(type), .opt(candid))
            return
        }
        try value.encode(to: CandidEncodingSink(node: node, codingPath: codingPath))
    }

    static func leaf<T>(_ value: T) -> (CandidType, CandidValue)? {
        // Compare metatypes: a dynamic cast would also turn an empty `[Int16]` into `[UInt8]`.
        if T.self == [UInt8].self, let bytes = value as? [UInt8] { return (.blob, .blob(bytes)) }
        if T.self == CandidNat.self, let nat = value as? CandidNat { return (.nat, .nat(nat)) }
        if T.self == CandidInt.self, let int = value as? CandidInt { return (.int, .int(int)) }
        if T.self == CandidPrincipal.self, let principal = value as? CandidPrincipal {
            return (.principal, .principal(principal))
        }
        return nil
    }

    func result(path: String) throws(CandidEncodingError) -> (CandidType, CandidValue) {
        switch content {
        case .unset:
            return (.record([]), .record([]))
        case .leaf(let type, let value):
            return (type, value)
        case .unkeyed(let nodes):
            var types: [CandidType] = []
            var values: [CandidValue] = []
            for (index, node) in nodes.enumerated() {
                let (type, value) = try node.result(path: path + "[\(index)]")
                types.append(type)
                values.append(value)
            }
            // Prefer an element whose type is fully known (not inferred from `nil` or `[]`).
            let informative = types.first { !$0.mentionsEmpty } ?? types.first
            guard let elementType = informative else { return (.vec(.empty), .vec([])) }
            if elementType == .nat8 {
                return (.blob, .blob(values.map { if case .nat8(let byte) = $0 { return byte } else { return 0 } }))
            }
            return (.vec(elementType), .vec(values))
        case .keyed(let entries, let isVariant):
            if isVariant, entries.count == 1 {
                let (key, node) = entries[0]
                var (type, value) = try node.result(path: path + "." + key)
                if case .record(let fields) = type {
                    if fields.isEmpty {
                        (type, value) = (.null, .null)
                    } else if fields.count == 1, fields[0].label.name == "_0", case .record(let values) = value {
                        (type, value) = (fields[0].type, values[0].value)
                    }
                }
                let label = CandidLabel(key)
                return (.variant([CandidFieldType(label, type)]), .variant(CandidField(label, value)))
            }
            var types: [CandidFieldType] = []
            var fields: [CandidField] = []
            for (key, node) in entries {
                let (type, value) = try node.result(path: path + "." + key)
                let label = CandidLabel(key)
                if types.contains(where: { $0.label.id == label.id }) {
                    throw CandidEncodingError(path: path, "field \(key) collides with another field id \(label.id)")
                }
                types.append(CandidFieldType(label, type))
                fields.append(CandidField(label, value))
            }
            return (.record(types), .makeRecord(fields))
        }
    }
}

extension CandidType {
    /// Whether the type contains `empty` (as inferred for `nil` or `[]`).
    var mentionsEmpty: Bool {
        switch self {
        case .empty: return true
        case .opt(let inner), .vec(let inner): return inner.mentionsEmpty
        case .record(let fields), .variant(let fields): return fields.contains { $0.type.mentionsEmpty }
        default: return false
        }
    }
}

/// Lets the encoder see through `Optional` without knowing its wrapped type statically.
protocol CandidOptionalEncodable {
    var wrappedEncodable: (any Encodable)? { get }
}

extension Optional: CandidOptionalEncodable where Wrapped: Encodable {
    var wrappedEncodable: (any Encodable)? { self }
}

/// The `Encoder` handed to `Encodable.encode(to:)`.
struct CandidEncodingSink: Encoder {
    let node: CandidEncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([], isVariant: false) }
        return KeyedEncodingContainer(CandidKeyedEncoding<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return CandidUnkeyedEncoding(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        CandidSingleValueEncoding(node: node, codingPath: codingPath)
    }
}

struct CandidKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: CandidEncodingNode
    let codingPath: [any CodingKey]

    private func child(_ key: Key, variant: Bool = false) -> CandidEncodingNode {
        let child = CandidEncodingNode()
        guard case .keyed(var entries, let isVariant) = node.content else { return child }
        entries.removeAll { $0.key == key.stringValue }
        entries.append((key.stringValue, child))
        node.content = .keyed(entries, isVariant: isVariant || variant)
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).content = .leaf(.opt(.empty), CandidValue.optNull) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try CandidEncodingNode.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        try CandidEncodingNode.encode(value, into: child(key), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = child(key, variant: true)
        nested.content = .keyed([], isVariant: false)
        return KeyedEncodingContainer(CandidKeyedEncoding<NestedKey>(node: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = child(key)
        nested.content = .unkeyed([])
        return CandidUnkeyedEncoding(node: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { CandidEncodingSink(node: node, codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        CandidEncodingSink(node: child(key), codingPath: codingPath + [key])
    }
}

struct CandidUnkeyedEncoding: UnkeyedEncodingContainer {
    let node: CandidEncodingNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .unkeyed(let nodes) = node.content { return nodes.count }
        return 0
    }

    private func append() -> CandidEncodingNode {
        let child = CandidEncodingNode()
        if case .unkeyed(var nodes) = node.content {
            nodes.append(child)
            node.content = .unkeyed(nodes)
        }
        return child
    }

    mutating func encodeNil() throws { append().content = .leaf(.opt(.empty), CandidValue.optNull) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try CandidEncodingNode.encode(value, into: append(), codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = append()
        nested.content = .keyed([], isVariant: false)
        return KeyedEncodingContainer(CandidKeyedEncoding<NestedKey>(node: nested, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = append()
        nested.content = .unkeyed([])
        return CandidUnkeyedEncoding(node: nested, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { CandidEncodingSink(node: append(), codingPath: codingPath) }
}

struct CandidSingleValueEncoding: SingleValueEncodingContainer {
    let node: CandidEncodingNode
    let codingPath: [any CodingKey]

    private func set(_ type: CandidType, _ value: CandidValue) { node.content = .leaf(type, value) }

    mutating func encodeNil() throws { set(.opt(.empty), CandidValue.optNull) }
    mutating func encode(_ value: Bool) throws { set(.bool, .bool(value)) }
    mutating func encode(_ value: String) throws { set(.text, .text(value)) }
    mutating func encode(_ value: Double) throws { set(.float64, .float64(value)) }
    mutating func encode(_ value: Float) throws { set(.float32, .float32(value)) }
    mutating func encode(_ value: Int) throws { set(.int64, .int64(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.int8, .int8(value)) }
    mutating func encode(_ value: Int16) throws { set(.int16, .int16(value)) }
    mutating func encode(_ value: Int32) throws { set(.int32, .int32(value)) }
    mutating func encode(_ value: Int64) throws { set(.int64, .int64(value)) }
    mutating func encode(_ value: UInt) throws { set(.nat64, .nat64(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { set(.nat8, .nat8(value)) }
    mutating func encode(_ value: UInt16) throws { set(.nat16, .nat16(value)) }
    mutating func encode(_ value: UInt32) throws { set(.nat32, .nat32(value)) }
    mutating func encode(_ value: UInt64) throws { set(.nat64, .nat64(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try CandidEncodingNode.encode(value, into: node, codingPath: codingPath)
    }
}
