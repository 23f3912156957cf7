import EthereumTypes
import KeccakHashing

/// Solidity ABI words: every static value is one 32-byte big-endian word.
enum ABIWord {
    static func selector(_ signature: String) -> [UInt8] { Array(Keccak256.hash(utf8: signature)[0..<4]) }

    static func address(_ address: Address) -> [UInt8] { [UInt8](repeating: 0, count: 12) + address.bytes }

    static func uint(_ value: UInt256) -> [UInt8] { value.bigEndianBytes }

    static func readUInt(_ bytes: [UInt8], at offset: Int) -> UInt256 {
        UInt256(bigEndianWord: bytes[offset..<offset + 32])
    }

    static func readAddress(_ bytes: [UInt8], at offset: Int) throws(ABIDecodingError) -> Address {
        guard bytes[offset..<offset + 12].allSatisfy({ $0 == 0 }),
            let address = Address(bytes[offset + 12..<offset + 32])
        else { throw ABIDecodingError(.dirtyWord, at: offset) }
        return address
    }

    static func requireLength(_ bytes: [UInt8], _ expected: Int) throws(ABIDecodingError) {
        guard bytes.count == expected else {
            throw ABIDecodingError(.wrongLength(expected: expected, actual: bytes.count), at: 0)
        }
    }
}
