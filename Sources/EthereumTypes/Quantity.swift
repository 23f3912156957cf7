import ByteCoding

/// JSON-RPC hex encoding rules (execution-apis `base-types`): quantities are `0x` + minimal hex digits
/// (`0x0` for zero, no leading zeros); data is `0x` + an even number of hex digits.
public enum Quantity {
    /// Errors with geth's texts for bad hex arguments.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case missingPrefix
        case emptyNumber
        case leadingZero
        case invalidDigit
        case tooLarge(bits: Int)
        case oddLength

        /// geth's `hexutil` error strings.
        public var description: String {
            switch self {
            case .empty: return "empty hex string"
            case .missingPrefix: return "hex string without 0x prefix"
            case .emptyNumber: return "hex string \"0x\""
            case .leadingZero: return "hex number with leading zero digits"
            case .invalidDigit: return "invalid hex string"
            case .tooLarge(let bits): return "hex number > \(bits) bits"
            case .oddLength: return "hex string of odd length"
            }
        }
    }

    /// `0x`-prefixed minimal hex of `value`.
    public static func encode(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

    /// `0x`-prefixed minimal hex of `value`.
    public static func encode(_ value: UInt256) -> String { "0x" + value.hexDigits }

    /// `0x`-prefixed hex data.
    public static func encodeData<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String { Hex.encodePrefixed(bytes) }

    static func digits(_ text: some StringProtocol) throws(ParseError) -> Substring.UTF8View {
        guard !text.isEmpty else { throw .empty }
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { throw .missingPrefix }
        let d = Substring(text).dropFirst(2).utf8
        guard !d.isEmpty else { throw .emptyNumber }
        if d.count > 1 && d.first == UInt8(ascii: "0") { throw .leadingZero }
        guard d.allSatisfy({ Hex.nibble($0) != nil }) else { throw .invalidDigit }
        return d
    }

    /// Parses a strict quantity into UInt64.
    public static func parseUInt64(_ text: some StringProtocol) throws(ParseError) -> UInt64 {
        let d = try digits(text)
        guard d.count <= 16 else { throw .tooLarge(bits: 64) }
        var v: UInt64 = 0
        for c in d { v = v << 4 | UInt64(Hex.nibble(c)!) }
        return v
    }

    /// Parses a strict quantity into UInt256.
    public static func parseUInt256(_ text: some StringProtocol) throws(ParseError) -> UInt256 {
        let d = try digits(text)
        guard d.count <= 64 else { throw .tooLarge(bits: 256) }
        guard let v = UInt256(hexDigits: Substring(d)) else { throw .invalidDigit }
        return v
    }

    /// Parses `0x`-prefixed data with an even number of digits (`0x` alone is empty data).
    public static func parseData(_ text: some StringProtocol) throws(ParseError) -> [UInt8] {
        guard !text.isEmpty else { throw .empty }
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { throw .missingPrefix }
        let d = Substring(text).dropFirst(2)
        guard d.utf8.count % 2 == 0 else { throw .oddLength }
        do { return try Hex.decode(d) } catch { throw .invalidDigit }
    }
}
