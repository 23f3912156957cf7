/// A Swift value with a Candid form: what generated clients (`sandnet candid generate`) use to move typed values in
/// and out of ``CandidValue``.
///
/// Decoding is lenient where Candid subtyping is: an absent `opt` record field reads as nil, and `blob` and
/// `vec nat8` are one type.
public protocol CandidValueConvertible: Sendable {
    /// Reads the value from its Candid form.
    ///
    /// - Throws: `CandidConversionError` naming what was expected and what was found.
    init(candidValue: CandidValue) throws(CandidConversionError)
    /// The value's Candid form.
    var candidValue: CandidValue { get }
    /// The value an absent record field stands for (nil: the field is required; `opt` fields read as none).
    static var candidAbsentValue: Self? { get }
}

extension CandidValueConvertible {
    public static var candidAbsentValue: Self? { nil }
}

/// A Candid value that does not have the shape a Swift type expects.
public struct CandidConversionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, with the path to it (`TransferArgs.amount: expected nat64, found text`).
    public var message: String

    public init(_ message: String) { self.message = message }

    /// An error for a value that is not of the expected kind.
    public static func expected(_ what: String, found value: CandidValue) -> CandidConversionError {
        CandidConversionError("expected \(what), found \(value.candidText)")
    }

    /// The path to the value that is wrong (field and tag names, `[index]` for vector elements), outermost first.
    public var path: [String] = []

    /// The same error with a field or tag name in front of its path.
    public func inside(_ name: String) -> CandidConversionError {
        var error = self
        error.path.insert(name, at: 0)
        return error
    }

    public var description: String {
        guard !path.isEmpty else { return message }
        let joined = path.enumerated().map {
            $0.offset > 0 && !$0.element.hasPrefix("[") ? "." + $0.element : $0.element
        }
        return joined.joined() + ": " + message
    }
}

/// The value of Candid type `null`.
public struct CandidNull: CandidValueConvertible, Hashable {
    public init() {}
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .null = candidValue else { throw .expected("null", found: candidValue) }
    }
    public var candidValue: CandidValue { .null }
}

/// The value of Candid type `reserved` (any value reads as it; it carries nothing).
public struct CandidReserved: CandidValueConvertible, Hashable {
    public init() {}
    public init(candidValue: CandidValue) throws(CandidConversionError) {}
    public var candidValue: CandidValue { .reserved }
    public static var candidAbsentValue: CandidReserved? { CandidReserved() }
}

/// The type `empty`: it has no values.
public enum CandidEmpty: CandidValueConvertible, Hashable {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        throw .expected("no value (type empty)", found: candidValue)
    }
    public var candidValue: CandidValue {
        switch self {}
    }
}

extension CandidValue {
    /// The fields of a record value.
    ///
    /// - Throws: `CandidConversionError` when the value is not a record.
    public func recordFields() throws(CandidConversionError) -> [UInt32: CandidValue] {
        guard case .record(let fields) = self else { throw .expected("a record", found: self) }
        var byID: [UInt32: CandidValue] = [:]
        for field in fields { byID[field.label.id] = field.value }
        return byID
    }

    /// A variant value's tag id and payload.
    public func variantCase() throws(CandidConversionError) -> (id: UInt32, value: CandidValue) {
        guard case .variant(let field) = self else { throw .expected("a variant", found: self) }
        return (field.label.id, field.value)
    }
}

extension Dictionary where Key == UInt32, Value == CandidValue {
    /// Reads the field `name` (id `id`), or its absent value for `opt` fields.
    public func field<T: CandidValueConvertible>(_ id: UInt32, _ name: String, as type: T.Type = T.self)
        throws(CandidConversionError) -> T
    {
        guard let value = self[id] else {
            if let absent = T.candidAbsentValue { return absent }
            throw CandidConversionError("missing").inside(name)
        }
        do { return try T(candidValue: value) } catch { throw error.inside(name) }
    }
}

extension Bool: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .bool(let value) = candidValue else { throw .expected("bool", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .bool(self) }
}

extension String: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .text(let value) = candidValue else { throw .expected("text", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .text(self) }
}

extension Float: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .float32(let value) = candidValue else { throw .expected("float32", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .float32(self) }
}

extension Double: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .float64(let value) = candidValue else { throw .expected("float64", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .float64(self) }
}

extension UInt8: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .nat8(let value) = candidValue else { throw .expected("nat8", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .nat8(self) }
}

extension UInt16: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .nat16(let value) = candidValue else { throw .expected("nat16", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .nat16(self) }
}

extension UInt32: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .nat32(let value) = candidValue else { throw .expected("nat32", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .nat32(self) }
}

extension UInt64: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .nat64(let value) = candidValue else { throw .expected("nat64", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .nat64(self) }
}

extension Int8: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .int8(let value) = candidValue else { throw .expected("int8", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .int8(self) }
}

extension Int16: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .int16(let value) = candidValue else { throw .expected("int16", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .int16(self) }
}

extension Int32: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .int32(let value) = candidValue else { throw .expected("int32", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .int32(self) }
}

extension Int64: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .int64(let value) = candidValue else { throw .expected("int64", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .int64(self) }
}

extension CandidNat: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .nat(let value) = candidValue else { throw .expected("nat", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .nat(self) }
}

extension CandidInt: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .int(let value) = candidValue else { throw .expected("int", found: candidValue) }
        self = value
    }
    public var candidValue: CandidValue { .int(self) }
}

extension CandidFunctionReference: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .function(let value) = candidValue else {
            throw .expected("a function reference", found: candidValue)
        }
        self = value
    }
    public var candidValue: CandidValue { .function(self) }
}

extension Optional: CandidValueConvertible where Wrapped: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        switch candidValue {
        case .opt(nil), .null, .reserved: self = nil
        case .opt(let inner?): self = try Wrapped(candidValue: inner)
        default: throw .expected("opt", found: candidValue)
        }
    }
    public var candidValue: CandidValue { .opt(self?.candidValue) }
    public static var candidAbsentValue: Wrapped?? { .some(nil) }
}

extension Array: CandidValueConvertible where Element: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        switch candidValue {
        case .vec(let values):
            var elements: [Element] = []
            elements.reserveCapacity(values.count)
            for (index, value) in values.enumerated() {
                do { elements.append(try Element(candidValue: value)) } catch { throw error.inside("[\(index)]") }
            }
            self = elements
        case .blob(let bytes):
            if let bytes = bytes as? [Element] {
                self = bytes
                return
            }
            var elements: [Element] = []
            for byte in bytes { elements.append(try Element(candidValue: .nat8(byte))) }
            self = elements
        default: throw .expected("vec", found: candidValue)
        }
    }
    public var candidValue: CandidValue {
        if let bytes = self as? [UInt8] { return .blob(bytes) }
        return .vec(map(\.candidValue))
    }
}

/// A reference to a service (Candid type `service { ... }`): its principal.
public struct CandidServiceReference: CandidValueConvertible, Hashable {
    public var principal: CandidPrincipal

    public init(principal: CandidPrincipal) { self.principal = principal }

    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .service(let principal) = candidValue else {
            throw .expected("a service reference", found: candidValue)
        }
        self.principal = principal
    }
    public var candidValue: CandidValue { .service(principal) }
}
