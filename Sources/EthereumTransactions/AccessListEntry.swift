import EthereumTypes

/// One entry of an EIP-2930 access list: an address and the storage slots the transaction pre-declares.
public struct AccessListEntry: Sendable, Hashable {
    public var address: Address
    /// 32-byte storage keys; encoded as exactly 32 big-endian bytes each (never minimal).
    public var storageKeys: [UInt256]

    public init(address: Address, storageKeys: [UInt256] = []) {
        self.address = address
        self.storageKeys = storageKeys
    }
}
