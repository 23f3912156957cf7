import ByteCoding
import EthereumTypes

/// A value of an ``ABIType``. Signed integers are held as their two's-complement 256-bit word.
public enum ABIValue: Sendable, Hashable, CustomStringConvertible {
    case uint(UInt256)
    /// Two's complement: `-1` is `UInt256.max`.
    case int(UInt256)
    case address(Address)
    case bool(Bool)
    /// `bytes<M>`: exactly M bytes.
    case fixedBytes([UInt8])
    case bytes([UInt8])
    case string(String)
    /// The elements of `T[]` or `T[k]`.
    case array([ABIValue])
    case tuple([ABIValue])

    /// A signed value.
    public static func signed(_ value: Int64) -> ABIValue {
        value >= 0 ? .int(UInt256(UInt64(value))) : .int(UInt256.max - UInt256(UInt64(-(value + 1))))
    }

    public var description: String {
        switch self {
        case .uint(let v): return v.description
        case .int(let v):
            return v.bitWidthUsed == 256 ? "-" + ((UInt256.max - v) + UInt256(1)).description : v.description
        case .address(let a): return a.checksummed
        case .bool(let b): return b ? "true" : "false"
        case .fixedBytes(let b), .bytes(let b):
            return Hex.encodePrefixed(b)
        case .string(let s): return "\"\(s)\""
        case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
        case .tuple(let elements): return "(" + elements.map(\.description).joined(separator: ", ") + ")"
        }
    }

    // MARK: Reading values whose type the decoder has checked

    // A mismatch below is a programmer error: the caller asks for a type other than the one it decoded.

    /// The value of a `uint<M>`.
    public var uintValue: UInt256 {
        guard case .uint(let v) = self else { preconditionFailure("ABI value \(self) is not a uint") }
        return v
    }

    /// The value of a `uint8` (or any `uint<M>` below 256).
    public var uint8Value: UInt8 {
        guard case .uint(let v) = self, let small = v.uint64Value, small < 256 else {
            preconditionFailure("ABI value \(self) is not a uint8")
        }
        return UInt8(small)
    }

    public var addressValue: Address {
        guard case .address(let a) = self else { preconditionFailure("ABI value \(self) is not an address") }
        return a
    }

    public var boolValue: Bool {
        guard case .bool(let b) = self else { preconditionFailure("ABI value \(self) is not a bool") }
        return b
    }

    /// The bytes of `bytes`, `bytes<M>` or `string` (its UTF-8).
    public var bytesValue: [UInt8] {
        switch self {
        case .bytes(let b), .fixedBytes(let b): return b
        case .string(let s): return Array(s.utf8)
        default: preconditionFailure("ABI value \(self) is not bytes")
        }
    }

    public var stringValue: String {
        guard case .string(let s) = self else { preconditionFailure("ABI value \(self) is not a string") }
        return s
    }

    /// The elements of an array or the components of a tuple.
    public var elements: [ABIValue] {
        switch self {
        case .array(let e), .tuple(let e): return e
        default: preconditionFailure("ABI value \(self) is not an array or tuple")
        }
    }
}
