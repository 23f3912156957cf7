import EthereumTypes
import KeccakHashing

/// The pieces of the Solidity contract ABI the native contracts read and write
/// (docs.soliditylang.org, "Contract ABI Specification"): 4-byte selectors, 32-byte words, dynamic `bytes`.
enum ABI {
    /// keccak256(signature)[0..<4], e.g. `transfer(address,uint256)` → `a9059cbb`.
    static func selector(_ signature: String) -> [UInt8] { Array(Keccak256.hash(utf8: signature)[0..<4]) }

    /// selector as a big-endian integer, for `switch`.
    static func selectorValue(_ signature: String) -> UInt32 { selectorValue(selector(signature)[...]) }

    static func selectorValue(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.prefix(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    static func word(_ value: UInt256) -> [UInt8] { value.bigEndianBytes }
    static func word(_ value: UInt64) -> [UInt8] { UInt256(value).bigEndianBytes }
    static func word(_ address: Address) -> [UInt8] { [UInt8](repeating: 0, count: 12) + address.bytes }
    static func word(_ flag: Bool) -> [UInt8] { word(UInt256(flag ? 1 : 0)) }

    /// A `bytes`/`string` tail: length word, then the bytes right-padded to a whole word.
    static func tail(_ bytes: [UInt8]) -> [UInt8] {
        word(UInt256(UInt64(bytes.count))) + bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
    }

    /// The return data of a function returning one `string`: offset 0x20, then the tail.
    static func string(_ text: String) -> [UInt8] { word(UInt256(32)) + tail(Array(text.utf8)) }

    /// `Error(string)` revert data (selector 0x08c379a0), as `require(cond, "reason")` produces.
    static func errorString(_ reason: String) -> [UInt8] { selector("Error(string)") + string(reason) }

    /// `Panic(uint256)` revert data (selector 0x4e487b71): 0x11 is arithmetic overflow or underflow.
    static func panic(_ code: UInt64) -> [UInt8] { selector("Panic(uint256)") + word(code) }
}

/// Arguments after the selector, read the way Solidity's ABI decoder (coder v2) checks them: calldata too short
/// for the words asked for, an address word with high bits set, a bool other than 0 or 1, or an offset or length
/// pointing outside the data all fail (the contract reverts without data). Extra trailing bytes are accepted, as
/// Solidity accepts them.
struct ABIArguments {
    struct Malformed: Error {}

    /// The calldata after the 4-byte selector.
    let bytes: ArraySlice<UInt8>

    init(calldata: [UInt8]) { bytes = calldata.dropFirst(4) }
    init(bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The word at byte `position` of the argument area.
    func word(at position: Int) throws(Malformed) -> UInt256 {
        guard position >= 0, position <= bytes.count - 32 else { throw Malformed() }
        let start = bytes.startIndex + position
        return UInt256(bigEndian: bytes[start..<start + 32])!
    }

    func uint(_ index: Int) throws(Malformed) -> UInt256 { try word(at: 32 * index) }

    func address(_ index: Int) throws(Malformed) -> Address { try address(at: 32 * index) }

    func address(at position: Int) throws(Malformed) -> Address {
        let value = try word(at: position)
        guard value.bitWidthUsed <= 160 else { throw Malformed() }
        let start = bytes.startIndex + position
        return Address(bytes[start + 12..<start + 32])!
    }

    func bool(_ index: Int) throws(Malformed) -> Bool { try bool(at: 32 * index) }

    func bool(at position: Int) throws(Malformed) -> Bool {
        let value = try word(at: position)
        guard value <= UInt256(1) else { throw Malformed() }
        return !value.isZero
    }

    func uint8(_ index: Int) throws(Malformed) -> UInt8 {
        let value = try uint(index)
        guard let small = value.uint64Value, small < 256 else { throw Malformed() }
        return UInt8(small)
    }

    /// An offset word at `position`, added to `base`: where a dynamic value starts.
    func offset(at position: Int, base: Int) throws(Malformed) -> Int {
        guard let offset = try word(at: position).uint64Value, offset <= UInt64(bytes.count) else { throw Malformed() }
        let target = base + Int(offset)
        guard target <= bytes.count - 32 else { throw Malformed() }
        return target
    }

    /// A dynamic array's length at `position`; each element needs at least `wordsPerElement` words after it.
    func arrayLength(at position: Int, wordsPerElement: Int) throws(Malformed) -> Int {
        guard let count = try word(at: position).uint64Value,
            count <= UInt64((bytes.count - position - 32) / (32 * wordsPerElement))
        else { throw Malformed() }
        return Int(count)
    }

    /// `bytes` whose length word is at `position`.
    func dynamicBytes(at position: Int) throws(Malformed) -> [UInt8] {
        guard let length = try word(at: position).uint64Value, length <= UInt64(bytes.count - position - 32) else {
            throw Malformed()
        }
        let start = bytes.startIndex + position + 32
        return Array(bytes[start..<start + Int(length)])
    }
}
