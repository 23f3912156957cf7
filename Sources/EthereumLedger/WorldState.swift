import EthereumTypes
import KeccakHashing
import MerkleTrie
import NativeContracts

/// The accounts now and what the chain has burned and issued: every account (with changes not yet sealed into a
/// block), the state trie as the last block sealed it plus the addresses changed since (`dirty`), the wei burned
/// and the supply (Σ balances + burned always equals it, to the wei).
///
/// A value; its accounts change only through the ledger's journal, the rest is captured whole by a snapshot.
public struct WorldState: Sendable {
    private(set) var accounts: [Address: Account] = [:]
    /// Addresses changed since the state trie was last committed.
    var dirty: Set<Address> = []
    var trie = PatriciaTrie()
    public internal(set) var burned = UInt256.zero
    /// Σ genesis balances + dev-method adjustments.
    public internal(set) var supply = UInt256.zero

    /// The genesis state: the explicit allocations and the native contracts (their code markers, the tokens'
    /// storage, WETH9's ETH backing its genesis supply), with the state trie built once from the sorted leaves.
    init(genesis: [GenesisAccount], contracts: NativeContractRegistry) {
        for g in genesis {
            var account = accounts[g.address] ?? Account()
            account.balance = account.balance + g.balance
            account.nonce = g.nonce
            account.code = g.code
            accounts[g.address] = account
            supply = supply + g.balance
        }
        supply = supply + Self.placeNativeContracts(contracts, into: &accounts)
        var leaves: [(key: TrieKey, source: Account)] = []
        leaves.reserveCapacity(accounts.count)
        for (address, account) in accounts where account.isInStateTrie {
            leaves.append((TrieKey(hashing: address.bytes), account))
        }
        leaves.sort { $0.key < $1.key }
        trie = PatriciaTrie(
            sortedCount: leaves.count, key: { leaves[$0].key }, value: { leaves[$0].source.stateEncoding })
    }

    /// The state read back from a store: `accounts` now, and for the addresses whose account differs from what the
    /// head sealed, the sealed value in `sealed` (dev changes after the head; sealed into the next block).
    ///
    /// - Throws: ``LedgerError/corruptDataDirectory(_:)`` when the rebuilt state root differs from `stateRoot`.
    init(
        restoring accounts: [Address: Account], sealed: [Address: Account?], burned: UInt256, supply: UInt256,
        stateRoot: [UInt8]
    ) throws(LedgerError) {
        self.accounts = accounts
        dirty = Set(sealed.keys)
        // Keys inline and each leaf's value encoded as its leaf is made, from the account looked up again then: no
        // key or value array per account is held while the trie is built.
        var leaves: [(key: TrieKey, source: Address)] = []
        leaves.reserveCapacity(accounts.count + sealed.count)
        let noneSealed = sealed.isEmpty
        for (address, account) in accounts
        where (noneSealed || sealed.index(forKey: address) == nil) && account.isInStateTrie {
            leaves.append((TrieKey(hashing: address.bytes), address))
        }
        for (address, value) in sealed {
            if let value, value.isInStateTrie { leaves.append((TrieKey(hashing: address.bytes), address)) }
        }
        leaves.sort { $0.key < $1.key }
        trie = PatriciaTrie(
            sortedCount: leaves.count, key: { leaves[$0].key },
            value: { i in
                let address = leaves[i].source
                let account = noneSealed ? accounts[address] : sealed[address] ?? accounts[address]
                guard let account else { preconditionFailure("a leaf's account is in the state read back") }
                return account.stateEncoding
            })
        leaves = []
        guard trie.rootHash == stateRoot else {
            throw .corruptDataDirectory("data directory is inconsistent: state root does not match the head block")
        }
        self.burned = burned
        self.supply = supply
    }

    /// The account now (an empty one for an address without state).
    public func account(_ address: Address) -> Account { accounts[address] ?? Account() }

    /// The account now, nil when the address has no state.
    func existing(_ address: Address) -> Account? { accounts[address] }

    /// Every address with state (the dev and genesis accounts, and everything touched since).
    public var addresses: [Address] { Array(accounts.keys) }

    /// Sum of every balance (for the conservation invariant: Σ balances + burned = supply).
    public var sumOfBalances: UInt256 { accounts.values.reduce(UInt256.zero) { $0 + $1.balance } }

    /// Sets (or removes) an account; the ledger's journal is the only caller.
    mutating func set(_ address: Address, _ account: Account?) { accounts[address] = account }

    /// Writes the dirty accounts into the state trie: returns the new root and what each changed address holds now
    /// (in address order: the history entries of the block being sealed).
    mutating func commitDirty() -> (root: [UInt8], changed: [(Address, Account?)]) {
        var changed: [(Address, Account?)] = []
        changed.reserveCapacity(dirty.count)
        for address in dirty.sorted() {
            let account = accounts[address]
            Self.write(address, account, into: &trie)
            changed.append((address, account))
        }
        dirty.removeAll(keepingCapacity: true)
        return (trie.rootHash, changed)
    }

    /// Sets the state-trie leaf of `address` to `account` (removing it when the account is not in the trie).
    static func write(_ address: Address, _ account: Account?, into trie: inout PatriciaTrie) {
        let key = Keccak256.hash(address.bytes)
        if let account, account.isInStateTrie {
            trie.set(key, account.stateEncoding)
        } else {
            trie.remove(key)
        }
    }

    /// Places the native contracts in the genesis state: their code markers, the tokens' storage, and WETH9's ETH
    /// backing its genesis supply. Returns the wei added to the supply.
    static func placeNativeContracts(_ registry: NativeContractRegistry, into accounts: inout [Address: Account])
        -> UInt256
    {
        var added = UInt256.zero
        for token in registry.tokens {
            var account = accounts[token.address] ?? Account()
            account.code = token.profile.codeMarker
            for (slot, value) in token.genesisStorage { account.storage[slot] = account.storage[slot] + value }
            if token.profile == .weth9 {
                account.balance = account.balance + token.genesisSupply
                added = added + token.genesisSupply
            }
            accounts[token.address] = account
        }
        if registry.multicall3, let code = registry.code(at: NativeContractRegistry.multicall3Address) {
            var account = accounts[NativeContractRegistry.multicall3Address] ?? Account()
            account.code = code
            accounts[NativeContractRegistry.multicall3Address] = account
        }
        return added
    }
}
