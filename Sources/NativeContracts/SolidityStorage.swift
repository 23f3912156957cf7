import ABICoding
import EthereumTypes
import KeccakHashing

/// Solidity's storage layout for mappings (docs.soliditylang.org, "Layout of State Variables in Storage").
public enum SolidityStorage {
    /// The slot of `mapping[key]` for a mapping at `slot`: keccak256(pad32(key) ‖ pad32(slot)).
    public static func mappingSlot(_ key: Address, _ slot: UInt256) -> UInt256 {
        let preimage = ABI.word(key) + slot.bigEndianBytes
        return UInt256(bigEndian: Keccak256.hash(preimage))!
    }
}

/// The code native contracts show to `eth_getCode`: INVALID (0xfe), so that anything executing it halts at
/// once, followed by the ASCII text `sandnet:native:<kind>` (kind ERC20, WETH9 or MULTICALL3). Wallets test
/// `getCode != 0x` to decide "is a contract"; this says what the account is without pretending to be bytecode.
public enum NativeCode {
    public static func marker(_ kind: String) -> [UInt8] { [0xfe] + Array("sandnet:native:\(kind)".utf8) }
}
