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

extension StateProof {
    /// How far below the head state proofs (and simulations) reach: geth keeps the state of the last 128 blocks in
    /// memory (`state.TriesInMemory`) and answers older ones only from an archive's history.
    public static let provableStateDepth: UInt64 = 128

    /// Proves `address` and its storage `slots` against the state at the end of block `number` (nil: the head,
    /// including unsealed developer changes, the state `Ledger.account(_:atBlock:)` reads).
    ///
    /// The state trie at a past block is today's with every account changed since set back to its value at that
    /// block (O(changed accounts · depth) hashes); its root is checked against the block's `stateRoot`.
    ///
    /// - Returns: nil for a block more than ``provableStateDepth`` below the head, or one whose state cannot be
    ///   rebuilt to its header's root (the caller answers geth's `historical state … is not available`).
    init?(proving address: Address, slots: [UInt256], world: WorldState, chain: ChainHistory, atBlock number: UInt64?) {
        let height = chain.height
        let past = number.flatMap { $0 < height ? $0 : nil }
        let view = StateView(world: world, chain: chain, block: past)
        var trie = world.trie
        var changed = world.dirty
        if let past {
            guard height - past <= Self.provableStateDepth, let header = chain.block(number: past)?.header else {
                return nil
            }
            guard let since = chain.addressesChanged(after: past) else { return nil }
            changed.formUnion(since)
            for address in changed { WorldState.write(address, view.account(address), into: &trie) }
            guard trie.rootHash == header.stateRoot else { return nil }
        } else {
            for address in changed { WorldState.write(address, world.existing(address), into: &trie) }
        }
        let proven = view.account(address)
        let present = proven.isInStateTrie
        self.init(
            account: present ? proven : nil, accountProof: trie.proof(for: Keccak256.hash(address.bytes)),
            stateRoot: trie.rootHash,
            storage: slots.map { slot in
                StateProof.Slot(
                    slot: slot, value: proven.storage[slot],
                    proof: present ? proven.storage.proof(for: slot) : [])
            })
    }
}
