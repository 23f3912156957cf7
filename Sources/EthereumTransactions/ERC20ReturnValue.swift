import EthereumTypes

/// ABI return data of the ERC-20 functions: one word for `uint256`, `uint8` and `bool`; offset, length and
/// padded bytes for `string`.
public enum ERC20ReturnValue {
    /// `balanceOf`, `allowance`, `totalSupply`.
    public static func encode(uint256 value: UInt256) -> [UInt8] { ABIWord.uint(value) }

    /// `decimals`.
    public static func encode(uint8 value: UInt8) -> [UInt8] { ABIWord.uint(UInt256(UInt64(value))) }

    /// `transfer`, `transferFrom`, `approve`.
    public static func encode(bool value: Bool) -> [UInt8] { ABIWord.uint(UInt256(value ? 1 : 0)) }

    /// `name`, `symbol`: offset 0x20, byte length, UTF-8 bytes right-padded to a whole word.
    public static func encode(string value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        let padding = (32 - bytes.count % 32) % 32
        return ABIWord.uint(32) + ABIWord.uint(UInt256(UInt64(bytes.count))) + bytes
            + [UInt8](repeating: 0, count: padding)
    }

    public static func decodeUInt256(_ data: [UInt8]) throws(ABIDecodingError) -> UInt256 {
        try ABIWord.requireLength(data, 32)
        return ABIWord.readUInt(data, at: 0)
    }

    public static func decodeUInt8(_ data: [UInt8]) throws(ABIDecodingError) -> UInt8 {
        let value = try decodeUInt256(data)
        guard let small = value.uint64Value, small < 256 else { throw ABIDecodingError(.dirtyWord, at: 0) }
        return UInt8(small)
    }

    public static func decodeBool(_ data: [UInt8]) throws(ABIDecodingError) -> Bool {
        let value = try decodeUInt256(data)
        guard value <= UInt256(1) else { throw ABIDecodingError(.dirtyWord, at: 0) }
        return value == UInt256(1)
    }

    /// Decodes an ABI `string`; offsets and lengths must stay inside `data` and the text must be UTF-8.
    public static func decodeString(_ data: [UInt8]) throws(ABIDecodingError) -> String {
        guard data.count >= 64, data.count % 32 == 0 else {
            throw ABIDecodingError(
                .wrongLength(expected: max(64, (data.count + 31) / 32 * 32), actual: data.count), at: 0)
        }
        guard let offset = ABIWord.readUInt(data, at: 0).uint64Value, offset % 32 == 0,
            offset <= UInt64(data.count - 32)
        else { throw ABIDecodingError(.invalidString, at: 0) }
        let start = Int(offset)
        guard let length = ABIWord.readUInt(data, at: start).uint64Value, length <= UInt64(data.count - start - 32)
        else { throw ABIDecodingError(.invalidString, at: start) }
        let bytes = data[(start + 32)..<(start + 32 + Int(length))]
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ABIDecodingError(.invalidString, at: start + 32)
        }
        return text
    }
}
