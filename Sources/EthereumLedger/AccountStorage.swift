import EthereumTypes
import KeccakHashing
import MerkleTrie
import RLPCoding

/// An account's storage (Yellow Paper §4.1): 32-byte words by 32-byte slot, with its Merkle-Patricia trie kept up
/// to date on every write (key keccak256(slot), value rlp(the word without leading zeros)), so the storage root
/// costs O(changes · depth) and a copy is an O(1) snapshot.
public struct AccountStorage: Sendable, Equatable {
    public private(set) var words: [UInt256: UInt256] = [:]
    private var trie = PatriciaTrie()

    public init() {}

    public init(_ words: [UInt256: UInt256]) {
        for (slot, value) in words { self[slot] = value }
    }

    public var isEmpty: Bool { words.isEmpty }

    /// The word at `slot`; setting zero deletes it.
    public subscript(slot: UInt256) -> UInt256 {
        get { words[slot] ?? .zero }
        set {
            let key = Keccak256.hash(slot.bigEndianBytes)
            if newValue.isZero {
                guard words.removeValue(forKey: slot) != nil else { return }
                trie.remove(key)
            } else {
                words[slot] = newValue
                var e = RLPEncoder(capacity: 33)
                e.appendBytes(newValue.minimalBigEndianBytes)
                trie.set(key, e.bytes)
            }
        }
    }

    /// The storage root.
    public var root: [UInt8] { trie.rootHash }

    public static func == (a: AccountStorage, b: AccountStorage) -> Bool { a.words == b.words }
}

extension AccountStorage {
    /// The Merkle proof of `slot` in the storage trie (EIP-1186): the nodes on the path to keccak256(slot), root
    /// first; for a slot holding zero, an exclusion proof. Empty when the storage is.
    public func proof(for slot: UInt256) -> [[UInt8]] { trie.proof(for: Keccak256.hash(slot.bigEndianBytes)) }
}
