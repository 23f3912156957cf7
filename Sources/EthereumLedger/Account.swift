import EthereumTypes
import KeccakHashing
import RLPCoding

/// An account's state (Yellow Paper §4.1). EVM-less: storage is always empty.
public struct Account: Sendable, Equatable {
    public var nonce: UInt64
    public var balance: UInt256
    /// Code given in genesis; never executed (value sent to a contract is credited, no code runs).
    public var code: [UInt8]

    public init(nonce: UInt64 = 0, balance: UInt256 = .zero, code: [UInt8] = []) {
        self.nonce = nonce
        self.balance = balance
        self.code = code
    }

    /// keccak256("") — the code hash of an account without code.
    public static let emptyCodeHash: [UInt8] = Keccak256.hash([UInt8]())

    public var codeHash: [UInt8] { code.isEmpty ? Self.emptyCodeHash : Keccak256.hash(code) }

    /// EIP-161: no nonce, no balance, no code.
    public var isEmpty: Bool { nonce == 0 && balance.isZero && code.isEmpty }

    /// rlp[nonce, balance, storageRoot, codeHash]: the state trie leaf.
    public var stateEncoding: [UInt8] {
        var e = RLPEncoder(capacity: 80)
        e.appendList { list in
            list.appendUInt64(nonce)
            list.appendBytes(balance.minimalBigEndianBytes)
            list.appendBytes(emptyStorageRoot)
            list.appendBytes(codeHash)
        }
        return e.bytes
    }
}

/// keccak256(rlp("")): the storage root of every account here.
let emptyStorageRoot: [UInt8] = Keccak256.hash([0x80])
