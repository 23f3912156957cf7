import EthereumTypes
import HDWallet

/// Ethereum accounts `m/44'/60'/account'/0/i` of one master key (BIP-44), with the parent
/// `m/44'/60'/account'/0` and its fingerprint derived once, so each address costs one normal derivation.
public struct EthereumAccounts: Sendable {
    /// The account-level parent, `m/44'/60'/account'/0`.
    public let parent: ExtendedKey
    /// The BIP-44 account number.
    public let account: UInt32
    private let parentFingerprint: UInt32

    /// Derives and caches `m/44'/60'/account'/0` from a master (depth 0) key.
    public init(master: ExtendedKey, account: UInt32 = 0) throws(ExtendedKeyError) {
        let path = DerivationPath.ethereum(index: 0, account: account)
        parent = try master.derived(DerivationPath(indices: Array(path.indices.dropLast())))
        self.account = account
        parentFingerprint = parent.fingerprint
    }

    /// The path of account `index`.
    public func path(_ index: UInt32) -> DerivationPath { .ethereum(index: index, account: account) }

    /// The key at `m/44'/60'/account'/0/index`.
    public func key(_ index: UInt32) throws(ExtendedKeyError) -> ExtendedKey {
        try parent.child(index, parentFingerprint: parentFingerprint)
    }

    /// The address at `m/44'/60'/account'/0/index`.
    public func address(_ index: UInt32) throws(ExtendedKeyError) -> Address {
        try key(index).ethereumAddress
    }
}
