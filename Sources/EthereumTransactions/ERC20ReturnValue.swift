import ABICoding
import EthereumTypes

/// ABI return data of the ERC-20 functions: one word for `uint256`, `uint8` and `bool`; offset, length and
/// padded bytes for `string`. Decoding is strict (``ABIDecoder/Options/strict``).
public enum ERC20ReturnValue {
    /// `balanceOf`, `allowance`, `totalSupply`.
    public static func encode(uint256 value: UInt256) -> [UInt8] { ABI.word(value) }

    /// `decimals`.
    public static func encode(uint8 value: UInt8) -> [UInt8] { ABI.word(UInt64(value)) }

    /// `transfer`, `transferFrom`, `approve`.
    public static func encode(bool value: Bool) -> [UInt8] { ABI.word(value) }

    /// `name`, `symbol`: offset 0x20, byte length, UTF-8 bytes right-padded to a whole word.
    public static func encode(string value: String) -> [UInt8] { ABI.string(value) }

    public static func decodeUInt256(_ data: [UInt8]) throws(ABIDecodingError) -> UInt256 {
        try ABIDecoder.decode(.uint256, from: data[...]).uintValue
    }

    public static func decodeUInt8(_ data: [UInt8]) throws(ABIDecodingError) -> UInt8 {
        try ABIDecoder.decode(.uint(bits: 8), from: data[...]).uint8Value
    }

    public static func decodeBool(_ data: [UInt8]) throws(ABIDecodingError) -> Bool {
        try ABIDecoder.decode(.bool, from: data[...]).boolValue
    }

    /// Decodes an ABI `string`; offsets and lengths must stay inside `data` and the text must be UTF-8.
    public static func decodeString(_ data: [UInt8]) throws(ABIDecodingError) -> String {
        try ABIDecoder.decode(.string, from: data[...]).stringValue
    }
}
