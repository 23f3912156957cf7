import Foundation

/// A JSON value inside EIP-712 typed data (domain and message).
///
/// Integers arrive as JSON numbers or as decimal / `0x` hex strings; numbers beyond 64 bits must be strings,
/// because JSON numbers that large lose precision in most parsers.
public indirect enum TypedDataValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    /// An integer JSON number, as decimal text (may start with `-`).
    case number(String)
    case string(String)
    case array([TypedDataValue])
    case object([String: TypedDataValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .number(String(i))
        } else if let u = try? c.decode(UInt64.self) {
            self = .number(String(u))
        } else if let d = try? c.decode(Double.self) {
            // Not an exact 64-bit integer: keep the text so that encoding rejects it with a clear reason.
            self = .number(String(d))
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([TypedDataValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: TypedDataValue].self))
        }
    }

    public subscript(key: String) -> TypedDataValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}
