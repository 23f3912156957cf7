/// Hexadecimal encoding and decoding of byte strings (lowercase output, either case accepted on input).
public enum Hex {
    /// Errors from ``Hex/decode(_:)``.
    public enum DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The string has an odd number of hex digits.
        case oddLength(Int)
        /// The character at `offset` (after any `0x` prefix) is not a hex digit.
        case invalidCharacter(offset: Int)
        /// A `0x` prefix was required but absent.
        case missingPrefix

        public var description: String {
            switch self {
            case .oddLength(let n): return "hex string has an odd number of digits (\(n))"
            case .invalidCharacter(let offset): return "invalid hex character at position \(offset)"
            case .missingPrefix: return "hex string without 0x prefix"
            }
        }
    }

    @usableFromInline static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Encodes `bytes` as lowercase hex without a prefix.
    public static func encode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { out in
            var i = 0
            for b in bytes {
                out[i] = digits[Int(b >> 4)]
                out[i + 1] = digits[Int(b & 0x0f)]
                i += 2
            }
            return i
        }
    }

    /// Encodes `bytes` as lowercase hex with a `0x` prefix.
    public static func encodePrefixed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2 + 2) { out in
            out[0] = UInt8(ascii: "0")
            out[1] = UInt8(ascii: "x")
            var i = 2
            for b in bytes {
                out[i] = digits[Int(b >> 4)]
                out[i + 1] = digits[Int(b & 0x0f)]
                i += 2
            }
            return i
        }
    }

    /// Value of one ASCII hex digit, or nil.
    @inlinable
    public static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    /// Decodes hex digits, with or without a `0x`/`0X` prefix.
    public static func decode(_ string: some StringProtocol) throws(DecodingError) -> [UInt8] {
        var utf8 = Array(string.utf8)
        if utf8.count >= 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X") {
            utf8.removeFirst(2)
        }
        return try decodeDigits(utf8[...])
    }

    /// Decodes hex that must carry a `0x` prefix (JSON-RPC data).
    public static func decodePrefixed(_ string: some StringProtocol) throws(DecodingError) -> [UInt8] {
        let utf8 = Array(string.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "0"),
            utf8[1] == UInt8(ascii: "x") || utf8[1] == UInt8(ascii: "X")
        else { throw .missingPrefix }
        return try decodeDigits(utf8[2...])
    }

    static func decodeDigits(_ digits: ArraySlice<UInt8>) throws(DecodingError) -> [UInt8] {
        guard digits.count % 2 == 0 else { throw .oddLength(digits.count) }
        var out = [UInt8]()
        out.reserveCapacity(digits.count / 2)
        var i = digits.startIndex
        var position = 0
        while i < digits.endIndex {
            guard let hi = nibble(digits[i]) else { throw .invalidCharacter(offset: position) }
            guard let lo = nibble(digits[i + 1]) else { throw .invalidCharacter(offset: position + 1) }
            out.append(hi << 4 | lo)
            i += 2
            position += 2
        }
        return out
    }
}
