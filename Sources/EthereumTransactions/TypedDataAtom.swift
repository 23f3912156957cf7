import ABICoding
import EthereumTypes
import JSONCoding
import KeccakHashing

/// Encoding of EIP-712 atomic (`address`, `bool`, `uintN`, `intN`, `bytesN`) and dynamic (`bytes`, `string`)
/// member values into one 32-byte word.
enum TypedDataAtom {
    static func encode(_ type: String, _ value: JSON, path: String) throws(TypedDataError) -> [UInt8] {
        func invalid(_ reason: String) -> TypedDataError {
            TypedDataError(.invalidValue(type: type, reason: reason), at: path)
        }
        switch type {
        case "string":
            guard case .string(let text) = value else { throw invalid("expected a string") }
            return Keccak256.hash(Array(text.utf8))
        case "bytes":
            guard case .string(let text) = value, let bytes = hexBytes(text) else {
                throw invalid("expected 0x-prefixed hex")
            }
            return Keccak256.hash(bytes)
        case "address":
            guard case .string(let text) = value, let address = try? Address(parsing: text) else {
                throw invalid("expected a 0x-prefixed 20-byte address")
            }
            return ABI.word(address)
        case "bool":
            switch value {
            case .bool(let b): return ABI.word(b)
            case .string("true"): return ABI.word(true)
            case .string("false"): return ABI.word(false)
            default: throw invalid("expected true or false")
            }
        default:
            break
        }
        if let width = fixedBytesWidth(type), width > 0 {
            guard case .string(let text) = value, let bytes = hexBytes(text) else {
                throw invalid("expected 0x-prefixed hex")
            }
            guard bytes.count == width else { throw invalid("expected \(width) bytes, found \(bytes.count)") }
            return bytes + [UInt8](repeating: 0, count: 32 - width)
        }
        if let (signed, bits) = integerBits(type), bits > 0 {
            let (negative, magnitude) = try integer(value, invalid: invalid)
            if signed {
                // Two's complement; the range is [−2^(bits−1), 2^(bits−1) − 1].
                let limit = UInt256(1) << (bits - 1)
                if negative {
                    guard magnitude <= limit else { throw invalid("below the minimum of int\(bits)") }
                    return (UInt256.max - magnitude + 1).bigEndianBytes
                }
                guard magnitude < limit else { throw invalid("above the maximum of int\(bits)") }
                return magnitude.bigEndianBytes
            }
            guard !negative || magnitude.isZero else { throw invalid("negative value for an unsigned type") }
            guard bits == 256 || magnitude < UInt256(1) << bits else { throw invalid("does not fit in \(bits) bits") }
            return magnitude.bigEndianBytes
        }
        throw TypedDataError(.unknownType(type), at: path)
    }

    /// `uint8`…`uint256` and `int8`…`int256` in steps of 8 (bits 0 means malformed).
    static func integerBits(_ type: String) -> (signed: Bool, bits: Int)? {
        let signed: Bool
        let digits: Substring
        if type.hasPrefix("uint") {
            signed = false
            digits = type.dropFirst(4)
        } else if type.hasPrefix("int") {
            signed = true
            digits = type.dropFirst(3)
        } else {
            return nil
        }
        guard let bits = Int(digits), bits % 8 == 0, (8...256).contains(bits) else { return (signed, 0) }
        return (signed, bits)
    }

    /// `bytes1`…`bytes32` (0 means malformed).
    static func fixedBytesWidth(_ type: String) -> Int? {
        guard type.hasPrefix("bytes"), type.count > 5 else { return nil }
        guard let width = Int(type.dropFirst(5)), (1...32).contains(width) else { return 0 }
        return width
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        return try? Quantity.parseData(text)
    }

    /// A JSON number or a decimal / `0x` hex string, as sign and magnitude.
    static func integer(_ value: JSON, invalid: (String) -> TypedDataError) throws(TypedDataError)
        -> (negative: Bool, magnitude: UInt256)
    {
        let text: String
        switch value {
        case .number(let n): text = n
        case .string(let s): text = s
        default: throw invalid("expected an integer")
        }
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let magnitude: UInt256?
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            magnitude = digits.count > 2 ? UInt256(hexDigits: digits.dropFirst(2)) : nil
        } else {
            magnitude = UInt256(decimal: digits)
        }
        guard let magnitude else { throw invalid("'\(text)' is not an integer below 2^256") }
        return (negative, magnitude)
    }
}
