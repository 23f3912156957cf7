import EthereumTypes
import KeccakHashing

/// The Solidity contract ABI (docs.soliditylang.org, "Contract ABI Specification"): 4-byte selectors, 32-byte
/// words, and the head/tail encoding of any ``ABIType`` (``encode(_:as:)``; decoding is ``ABIDecoder``).
public enum ABI {
    /// keccak256(signature)[0..<4] of a canonical signature, e.g. `transfer(address,uint256)` → `a9059cbb`.
    public static func selector(_ signature: String) -> [UInt8] { Array(Keccak256.hash(utf8: signature)[0..<4]) }

    /// The selector as a big-endian integer, for `switch`.
    public static func selectorValue(_ signature: String) -> UInt32 { selectorValue(selector(signature)[...]) }

    /// The first 4 bytes as a big-endian integer.
    public static func selectorValue(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// keccak256 of an event signature: the first topic of its logs.
    public static func eventTopic(_ signature: String) -> [UInt8] { Keccak256.hash(utf8: signature) }

    // MARK: Words

    public static func word(_ value: UInt256) -> [UInt8] { value.bigEndianBytes }
    public static func word(_ value: UInt64) -> [UInt8] { UInt256(value).bigEndianBytes }
    public static func word(_ address: Address) -> [UInt8] { [UInt8](repeating: 0, count: 12) + address.bytes }
    public static func word(_ flag: Bool) -> [UInt8] { word(UInt256(flag ? 1 : 0)) }

    /// A `bytes`/`string` tail: length word, then the bytes right-padded to a whole word.
    public static func tail(_ bytes: [UInt8]) -> [UInt8] {
        var out = word(UInt64(bytes.count))
        out += bytes
        out += [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        return out
    }

    /// The return data of a function returning one `string`: offset 0x20, then the tail.
    public static func string(_ text: String) -> [UInt8] { word(UInt64(32)) + tail(Array(text.utf8)) }

    /// `Error(string)` revert data (selector 0x08c379a0), as `require(cond, "reason")` produces.
    public static func errorString(_ reason: String) -> [UInt8] { errorSelector + string(reason) }

    /// `Panic(uint256)` revert data (selector 0x4e487b71): 0x11 is arithmetic overflow or underflow.
    public static func panic(_ code: UInt64) -> [UInt8] { panicSelector + word(code) }

    public static let errorSelector: [UInt8] = [0x08, 0xc3, 0x79, 0xa0]
    public static let panicSelector: [UInt8] = [0x4e, 0x48, 0x7b, 0x71]

    // MARK: Encoding

    /// The encoding of `values` as the tuple `types` (what `abi.encode(v1, …, vn)` produces).
    ///
    /// - Throws: ``ABIEncodingError`` when a value does not fit its type (kind, range, length).
    public static func encode(_ values: [ABIValue], as types: [ABIType]) throws(ABIEncodingError) -> [UInt8] {
        var out: [UInt8] = []
        try encodeTuple(values, types, into: &out, path: "")
        return out
    }

    static func encodeTuple(
        _ values: [ABIValue], _ types: [ABIType], into out: inout [UInt8], path: String
    ) throws(ABIEncodingError) {
        guard values.count == types.count else {
            throw ABIEncodingError("\(values.count) values for \(types.count) types", path: path)
        }
        let headSize = types.reduce(0) { $0 + $1.headSize }
        let start = out.count
        out.reserveCapacity(start + headSize)
        var tails: [UInt8] = []
        for (index, (value, type)) in zip(values, types).enumerated() {
            let here = path + "[\(index)]"
            if type.isDynamic {
                out += word(UInt64(headSize + tails.count))
                try encodeValue(value, type, into: &tails, path: here)
            } else {
                try encodeValue(value, type, into: &out, path: here)
            }
        }
        out += tails
    }

    static func encodeValue(
        _ value: ABIValue, _ type: ABIType, into out: inout [UInt8], path: String
    ) throws(ABIEncodingError) {
        switch (type, value) {
        case (.uint(let bits), .uint(let v)):
            guard v.bitWidthUsed <= bits else { throw ABIEncodingError("\(v) does not fit uint\(bits)", path: path) }
            out += word(v)
        case (.int(let bits), .int(let v)):
            guard ABIDecoder.isSignExtended(v, bits: bits) else {
                throw ABIEncodingError("\(value) does not fit int\(bits)", path: path)
            }
            out += word(v)
        case (.address, .address(let a)): out += word(a)
        case (.bool, .bool(let b)): out += word(b)
        case (.fixedBytes(let n), .fixedBytes(let b)):
            guard b.count == n else { throw ABIEncodingError("\(b.count) bytes for bytes\(n)", path: path) }
            out += b + [UInt8](repeating: 0, count: 32 - n)
        case (.bytes, .bytes(let b)): out += tail(b)
        case (.string, .string(let s)): out += tail(Array(s.utf8))
        case (.array(let element), .array(let elements)):
            out += word(UInt64(elements.count))
            try encodeTuple(elements, Array(repeating: element, count: elements.count), into: &out, path: path)
        case (.fixedArray(let element, let count), .array(let elements)):
            guard elements.count == count else {
                throw ABIEncodingError("\(elements.count) elements for \(type)", path: path)
            }
            try encodeTuple(elements, Array(repeating: element, count: count), into: &out, path: path)
        case (.tuple(let components), .tuple(let elements)):
            try encodeTuple(elements, components, into: &out, path: path)
        default:
            throw ABIEncodingError("\(value) is not a \(type)", path: path)
        }
    }
}
