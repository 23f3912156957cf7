/// Decodes `Decodable` Swift values from Candid (Candid spec, "Deserialisation").
///
/// The mapping mirrors `CandidEncoder`. Record fields are looked up by the hash of the coding key. A variant tag
/// needs its name: it comes from the expected type when one is given (or from the coding keys when they are
/// `CaseIterable`); decoding a variant without either fails with a clear error.
public struct CandidDecoder: Sendable {
    /// Resource limits for the binary decoder.
    public var options: CandidDecodingOptions

    /// Creates a decoder.
    public init(options: CandidDecodingOptions = .init()) { self.options = options }

    /// Decodes the first argument of a message at its wire type.
    ///
    /// - Throws: `CandidDecodingError` for malformed messages, or a `DecodingError` when the value does not fit `T`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let message = try CandidDeserializer.decodeUntyped(bytes, options: options)
        guard let first = message.values.first else {
            throw DecodingError.valueNotFound(
                T.self, .init(codingPath: [], debugDescription: "message has no arguments"))
        }
        return try decode(type, from: first)
    }

    /// Decodes the first argument of a message coerced to an expected Candid type.
    ///
    /// - Throws: `CandidDecodingError`, `CandidTypeError` or `DecodingError`.
    public func decode<T: Decodable>(
        _ type: T.Type,
        from bytes: [UInt8],
        as candidType: CandidType,
        environment: CandidTypeEnvironment = .init()
    ) throws -> T {
        let types = try CandidArgumentTypes([candidType], environment: environment)
        let values = try CandidDeserializer.decode(bytes, as: types, options: options)
        return try decode(type, from: values[0])
    }

    /// Converts a decoded Candid value to a Swift value.
    ///
    /// - Throws: `DecodingError` when the value does not fit `T`.
    public func decode<T: Decodable>(_ type: T.Type, from value: CandidValue) throws -> T {
        try CandidDecodingSource(value: value, codingPath: []).decodeValue(T.self)
    }
}

/// Lets the decoder recognise `Optional` targets.
protocol CandidOptionalDecodable {
    static func makeNone() -> Self
    static func makeSome(from source: CandidDecodingSource) throws -> Self
}

extension Optional: CandidOptionalDecodable where Wrapped: Decodable {
    static func makeNone() -> Self { nil }
    static func makeSome(from source: CandidDecodingSource) throws -> Self { try source.decodeValue(Wrapped.self) }
}

/// The `Decoder` handed to `Decodable.init(from:)`.
struct CandidDecodingSource: Decoder {
    let value: CandidValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch<T>(_ type: T.Type, _ what: String) -> DecodingError {
        .typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "expected \(what), found \(value.shortKind)"))
    }

    /// Converts a value already known to be of type `T` (checked by the caller's metatype test) without trapping.
    func cast<T, U>(_ value: U) throws -> T {
        guard let typed = value as? T else { throw mismatch(T.self, "\(T.self)") }
        return typed
    }

    /// The value with `opt` wrappers removed (for non-optional targets).
    var unwrapped: CandidValue {
        var current = value
        while case .opt(.some(let inner)) = current { current = inner }
        return current
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if let optional = T.self as? any CandidOptionalDecodable.Type {
            switch value {
            case .opt(.none), .null, .reserved: return try cast(optional.makeNone())
            case .opt(.some(let inner)):
                return try cast(try optional.makeSome(from: CandidDecodingSource(value: inner, codingPath: codingPath)))
            default:
                return try cast(try optional.makeSome(from: self))
            }
        }
        let plain = unwrapped
        switch T.self {
        case is [UInt8].Type:
            switch plain {
            case .blob(let bytes): return try cast(bytes)
            case .vec(let elements):
                var bytes: [UInt8] = []
                for element in elements {
                    guard case .nat8(let byte) = element else { throw mismatch(T.self, "blob") }
                    bytes.append(byte)
                }
                return try cast(bytes)
            default: throw mismatch(T.self, "blob")
            }
        case is CandidNat.Type:
            guard let nat = plain.integerValue?.natValue else { throw mismatch(T.self, "nat") }
            return try cast(nat)
        case is CandidInt.Type:
            guard let int = plain.integerValue else { throw mismatch(T.self, "int") }
            return try cast(int)
        case is CandidPrincipal.Type:
            switch plain {
            case .principal(let principal), .service(let principal): return try cast(principal)
            default: throw mismatch(T.self, "principal")
            }
        default:
            return try T(from: CandidDecodingSource(value: plain, codingPath: codingPath))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch unwrapped {
        case .record(let fields):
            return KeyedDecodingContainer(
                CandidKeyedDecoding<Key>(fields: fields, variant: false, codingPath: codingPath))
        case .variant(let field):
            return KeyedDecodingContainer(
                CandidKeyedDecoding<Key>(fields: [field], variant: true, codingPath: codingPath))
        case .null:
            return KeyedDecodingContainer(CandidKeyedDecoding<Key>(fields: [], variant: false, codingPath: codingPath))
        default:
            throw mismatch([String: Int].self, "record or variant")
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch unwrapped {
        case .vec(let elements): return CandidUnkeyedDecoding(elements: elements, codingPath: codingPath)
        case .blob(let bytes): return CandidUnkeyedDecoding(elements: bytes.map { .nat8($0) }, codingPath: codingPath)
        case .record(let fields): return CandidUnkeyedDecoding(elements: fields.map(\.value), codingPath: codingPath)
        default: throw mismatch([Int].self, "vec")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CandidSingleValueDecoding(source: self)
    }
}

struct CandidKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [CandidField]
    let variant: Bool
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        fields.compactMap { field in
            if let name = field.label.name, let key = Key(stringValue: name) { return key }
            if let cases = Key.self as? any CaseIterable.Type {
                for candidate in cases.allCasesAsKeys(Key.self)
                where CandidLabel.hash(candidate.stringValue) == field.label.id {
                    return candidate
                }
            }
            return Key(intValue: Int(field.label.id))
        }
    }

    private func field(_ key: Key) -> CandidField? {
        let id = CandidLabel.hash(key.stringValue)
        if let match = fields.first(where: { $0.label.id == id }) { return match }
        if let intValue = key.intValue { return fields.first { $0.label.id == UInt32(truncatingIfNeeded: intValue) } }
        return nil
    }

    func contains(_ key: Key) -> Bool { field(key) != nil }

    private func source(_ key: Key) throws -> CandidDecodingSource {
        guard let field = field(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(
                    codingPath: codingPath,
                    debugDescription: "no field \(key.stringValue) (id \(CandidLabel.hash(key.stringValue)))"))
        }
        return CandidDecodingSource(value: field.value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let field = field(key) else { return true }
        switch field.value {
        case .null, .opt(.none), .reserved: return true
        default: return false
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try source(key).decodeValue(T.self)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let field = field(key) else { return nil }
        switch field.value {
        case .null, .opt(.none), .reserved: return nil
        case .opt(.some(let inner)):
            return try CandidDecodingSource(value: inner, codingPath: codingPath + [key]).decodeValue(T.self)
        default:
            return try CandidDecodingSource(value: field.value, codingPath: codingPath + [key]).decodeValue(T.self)
        }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let inner = try source(key)
        if variant {
            // Enum payloads: a record is the labelled payload, null is no payload, anything else is `_0`.
            switch inner.value {
            case .record(let fields):
                return KeyedDecodingContainer(
                    CandidKeyedDecoding<NestedKey>(fields: fields, variant: false, codingPath: inner.codingPath))
            case .null:
                return KeyedDecodingContainer(
                    CandidKeyedDecoding<NestedKey>(fields: [], variant: false, codingPath: inner.codingPath))
            default:
                return KeyedDecodingContainer(
                    CandidKeyedDecoding<NestedKey>(
                        fields: [CandidField("_0", inner.value)], variant: false, codingPath: inner.codingPath))
            }
        }
        return try inner.container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try source(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        CandidDecodingSource(value: .record(fields), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try source(key) }
}

extension CaseIterable {
    /// All cases as coding keys, for mapping hashed variant ids back to names.
    static func allCasesAsKeys<Key: CodingKey>(_: Key.Type) -> [Key] {
        allCases.compactMap { $0 as? Key }
    }
}

struct CandidUnkeyedDecoding: UnkeyedDecodingContainer {
    let elements: [CandidValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [CandidValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> CandidDecodingSource {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                CandidValue.self, .init(codingPath: codingPath, debugDescription: "vec has no more elements"))
        }
        defer { currentIndex += 1 }
        return CandidDecodingSource(value: elements[currentIndex], codingPath: codingPath)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        switch elements[currentIndex] {
        case .null, .opt(.none):
            currentIndex += 1
            return true
        default:
            return false
        }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(T.self) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

struct CandidSingleValueDecoding: SingleValueDecodingContainer {
    let source: CandidDecodingSource
    var codingPath: [any CodingKey] { source.codingPath }

    func decodeNil() -> Bool {
        switch source.value {
        case .null, .opt(.none), .reserved: return true
        default: return false
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = source.unwrapped else { throw source.mismatch(type, "bool") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = source.unwrapped else { throw source.mismatch(type, "text") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch source.unwrapped {
        case .float64(let number): return number
        case .float32(let number): return Double(number)
        default: throw source.mismatch(type, "float64")
        }
    }

    func decode(_ type: Float.Type) throws -> Float {
        switch source.unwrapped {
        case .float32(let number): return number
        case .float64(let number): return Float(number)
        default: throw source.mismatch(type, "float32")
        }
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let integer = source.unwrapped.integerValue else { throw source.mismatch(type, "an integer") }
        if let small = integer.int64Value, let exact = T(exactly: small) { return exact }
        if let large = integer.natValue?.uint64Value, let exact = T(exactly: large) { return exact }
        throw DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "\(integer) does not fit \(T.self)"))
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try source.decodeValue(T.self) }
}
