import EthereumTypes
import KeccakHashing
import RLPCoding

/// An account's state (Yellow Paper §4.1). EVM-less: only the native contracts (tokens, Multicall3) and the
/// storage developer methods write storage.
public struct Account: Sendable, Equatable {
    public var nonce: UInt64
    public var balance: UInt256
    /// Code given in genesis, or a native contract's marker; never executed (value sent to other code is
    /// credited, no code runs).
    public var code: [UInt8]
    public var storage: AccountStorage

    public init(
        nonce: UInt64 = 0, balance: UInt256 = .zero, code: [UInt8] = [], storage: AccountStorage = AccountStorage()
    ) {
        self.nonce = nonce
        self.balance = balance
        self.code = code
        self.storage = storage
    }

    /// keccak256("") — the code hash of an account without code.
    public static let emptyCodeHash: [UInt8] = Keccak256.hash([UInt8]())

    public var codeHash: [UInt8] { code.isEmpty ? Self.emptyCodeHash : Keccak256.hash(code) }

    /// EIP-161: no nonce, no balance, no code.
    public var isEmpty: Bool { nonce == 0 && balance.isZero && code.isEmpty }

    /// True when the account belongs in the state trie: not empty, or holding code or storage.
    public var isInStateTrie: Bool { !isEmpty || !storage.isEmpty }

    /// rlp[nonce, balance, storageRoot, codeHash]: the state trie leaf.
    public var stateEncoding: [UInt8] {
        var e = RLPEncoder(capacity: 80)
        e.appendList { list in
            list.appendUInt64(nonce)
            list.appendBytes(balance.minimalBigEndianBytes)
            list.appendBytes(storage.isEmpty ? emptyStorageRoot : storage.root)
            list.appendBytes(codeHash)
        }
        return e.bytes
    }
}

/// keccak256(rlp("")): the storage root of every account here.
let emptyStorageRoot: [UInt8] = Keccak256.hash([0x80])
