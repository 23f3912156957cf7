import EthereumTypes
import KeccakHashing
import MerkleTrie

/// An account with its Merkle proofs against a block's state root (EIP-1186, what `eth_getProof` answers).
public struct StateProof: Sendable, Equatable {
    /// One storage slot: its word and the storage-trie nodes proving it (empty when the account has no storage).
    public struct Slot: Sendable, Equatable {
        public var slot: UInt256
        public var value: UInt256
        public var proof: [[UInt8]]
    }

    /// The account, or nil when the state trie does not hold it (geth then answers zero hashes).
    public var account: Account?
    /// The state-trie nodes on the path to keccak256(address), root first; an exclusion proof for an absent account.
    public var accountProof: [[UInt8]]
    /// The root the proofs lead to.
    public var stateRoot: [UInt8]
    public var storage: [Slot]
}

extension Ledger {
    /// How far below the head state proofs reach: geth keeps the state of the last 128 blocks in memory
    /// (`state.TriesInMemory`) and answers older ones only from an archive's history.
    public static let provableStateDepth: UInt64 = 128

    /// Proves `address` and its storage `slots` against the state at the end of block `number` (nil: the head,
    /// including unsealed developer changes, the state `account(_:atBlock:)` reads).
    ///
    /// The state trie at a past block is today's with every account changed since set back to its value at that
    /// block (O(changed accounts · depth) hashes); its root is checked against the block's `stateRoot`.
    ///
    /// - Returns: nil for a block more than ``provableStateDepth`` below the head, or one whose state cannot be
    ///   rebuilt to its header's root (the caller answers geth's `historical state … is not available`).
    public func stateProof(_ address: Address, slots: [UInt256], atBlock number: UInt64? = nil) -> StateProof? {
        let past = number.flatMap { $0 < blockNumber ? $0 : nil }
        var trie = state.stateTrie
        var changed = state.dirty
        if let past {
            guard blockNumber - past <= Self.provableStateDepth, let header = block(number: past)?.header else {
                return nil
            }
            for (address, entries) in state.history where (entries.last?.block ?? 0) > past { changed.insert(address) }
            Self.write(changed, into: &trie) { account($0, atBlock: past) }
            guard trie.rootHash == header.stateRoot else { return nil }
        } else {
            Self.write(changed, into: &trie) { state.accounts[$0] }
        }
        let proven = account(address, atBlock: past)
        let present = proven.isInStateTrie
        return StateProof(
            account: present ? proven : nil, accountProof: trie.proof(for: Keccak256.hash(address.bytes)),
            stateRoot: trie.rootHash,
            storage: slots.map { slot in
                StateProof.Slot(
                    slot: slot, value: proven.storage[slot],
                    proof: present ? proven.storage.proof(for: slot) : [])
            })
    }

    /// Sets the state-trie leaves of `addresses` to what `account` answers (removing those not in the trie).
    private static func write(
        _ addresses: Set<Address>, into trie: inout PatriciaTrie, account: (Address) -> Account?
    ) {
        for address in addresses {
            let key = Keccak256.hash(address.bytes)
            if let value = account(address), value.isInStateTrie {
                trie.set(key, value.stateEncoding)
            } else {
                trie.remove(key)
            }
        }
    }
}
