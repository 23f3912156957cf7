/// Why EIP-712 typed data could not be parsed or hashed; `path` locates the value (`message.to[1].wallet`).
public struct TypedDataError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The document is not JSON of the `{types, primaryType, domain, message}` shape.
        case invalidDocument(String)
        /// A type name that is neither atomic, dynamic, an array of those, nor defined in `types`.
        case unknownType(String)
        /// A struct member the value does not provide.
        case missingField(String)
        /// A value that does not fit its type.
        case invalidValue(type: String, reason: String)
    }

    public let kind: Kind
    public let path: String

    public init(_ kind: Kind, at path: String) {
        self.kind = kind
        self.path = path
    }

    public var description: String {
        switch kind {
        case .invalidDocument(let reason): return "invalid typed data: \(reason)"
        case .unknownType(let type): return "\(path): unknown type '\(type)'"
        case .missingField(let name): return "\(path): missing field '\(name)'"
        case .invalidValue(let type, let reason): return "\(path): invalid \(type): \(reason)"
        }
    }
}
