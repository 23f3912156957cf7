/// A Solidity ABI type (docs.soliditylang.org, "Contract ABI Specification", "Types"), as written in a canonical
/// signature: `uint256`, `address`, `bytes32`, `(address,bool,bytes)[]`, `uint8[4]`.
public indirect enum ABIType: Sendable, Hashable, CustomStringConvertible {
    /// `uint<M>`, 8 ≤ M ≤ 256, M % 8 == 0.
    case uint(bits: Int)
    /// `int<M>`, two's complement.
    case int(bits: Int)
    case address
    case bool
    /// `bytes<M>`, 1 ≤ M ≤ 32, right-padded.
    case fixedBytes(Int)
    case bytes
    case string
    /// `T[]`.
    case array(ABIType)
    /// `T[k]`.
    case fixedArray(ABIType, count: Int)
    /// `(T1,…,Tn)`.
    case tuple([ABIType])

    public static let uint256 = ABIType.uint(bits: 256)
    public static let int256 = ABIType.int(bits: 256)
    public static let bytes32 = ABIType.fixedBytes(32)

    /// The canonical name used in signatures: `uint256`, `(address,bytes)[]`.
    public var description: String {
        switch self {
        case .uint(let bits): return "uint\(bits)"
        case .int(let bits): return "int\(bits)"
        case .address: return "address"
        case .bool: return "bool"
        case .fixedBytes(let n): return "bytes\(n)"
        case .bytes: return "bytes"
        case .string: return "string"
        case .array(let element): return "\(element)[]"
        case .fixedArray(let element, let count): return "\(element)[\(count)]"
        case .tuple(let components): return "(" + components.map(\.description).joined(separator: ",") + ")"
        }
    }

    /// Dynamic types are encoded in the tail, behind an offset in the head.
    public var isDynamic: Bool {
        switch self {
        case .bytes, .string, .array: return true
        case .fixedArray(let element, let count): return count > 0 && element.isDynamic
        case .tuple(let components): return components.contains { $0.isDynamic }
        default: return false
        }
    }

    /// Bytes the type takes in the head of its enclosing tuple: 32 for a dynamic type (its offset), the whole
    /// encoding for a static one. The parser bounds it (``ABISignature/maxStaticSize``).
    public var headSize: Int {
        if isDynamic { return 32 }
        switch self {
        case .fixedArray(let element, let count): return element.headSize * count
        case .tuple(let components): return components.reduce(0) { $0 + $1.headSize }
        default: return 32
        }
    }

    /// Nesting depth: 1 for an elementary type.
    var depth: Int {
        switch self {
        case .array(let element), .fixedArray(let element, _): return 1 + element.depth
        case .tuple(let components): return 1 + (components.map(\.depth).max() ?? 0)
        default: return 1
        }
    }

    /// Parses one type (`uint`, `int` and `byte` are read as `uint256`, `int256` and `bytes1`), optionally followed
    /// by a parameter name, as in `address to`.
    ///
    /// - Throws: ``ABISignatureError`` naming the position and, for an oversized type, the limit.
    public init(parsing text: String) throws(ABISignatureError) {
        var parser = ABISignatureParser(text)
        self = try parser.parameter()
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("unexpected text after the type") }
    }
}
