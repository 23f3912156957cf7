import EthereumTransactions
import EthereumTypes
import HDWallet

/// A dev account: a public test key, never for a real network.
public struct DevAccount: Sendable, Equatable {
    public let address: Address
    public let privateKey: [UInt8]
}

/// The keys the node holds: the dev accounts (BIP-44 `m/44'/60'/0'/0/i` of the configured mnemonic, in derivation
/// order) and the faucet's (index 1,000,000: derived, not random, so a data directory reopens with the same faucet).
/// A value: it never changes after the node starts.
public struct DevAccounts: Sendable {
    /// The dev accounts in derivation order with their (public, test-only) private keys.
    public let dev: [DevAccount]
    /// The faucet's account.
    public let faucet: DevAccount
    private let keys: [Address: [UInt8]]

    /// Derives `count` dev accounts and the faucet's from `mnemonic` (BIP-39, empty passphrase).
    init(mnemonic phrase: String, count: Int) throws {
        let mnemonic = try Mnemonic(phrase: phrase)
        let accounts = try EthereumAccounts(master: try ExtendedKey(seed: mnemonic.seed(passphrase: "")))
        var dev: [DevAccount] = []
        for i in 0..<count {
            let key = try accounts.key(UInt32(i))
            dev.append(DevAccount(address: key.ethereumAddress, privateKey: key.privateKey!))
        }
        let faucet = try accounts.key(UInt32(1_000_000))
        self.dev = dev
        self.faucet = DevAccount(address: faucet.ethereumAddress, privateKey: faucet.privateKey!)
        keys = Dictionary(dev.map { ($0.address, $0.privateKey) }, uniquingKeysWith: { a, _ in a })
    }

    /// A dev account's key (not the faucet's), nil for any other address.
    func devKey(for address: Address) -> [UInt8]? { keys[address] }

    /// Whether the node holds `address`'s key (a dev account or the faucet).
    func holds(_ address: Address) -> Bool { keys[address] != nil || address == faucet.address }

    /// The key of a dev account or the faucet.
    func key(for address: Address) throws(NodeError) -> [UInt8] {
        guard let key = keys[address] ?? (address == faucet.address ? faucet.privateKey : nil) else {
            throw .unknownAccount
        }
        return key
    }

    /// eth_sign and personal_sign: an EIP-191 signature (65 bytes) by a key the node holds.
    public func signPersonalMessage(_ message: [UInt8], address: Address) throws -> [UInt8] {
        try PersonalMessage.sign(message, privateKey: try key(for: address)).bytes
    }

    /// eth_signTypedData_v4: an EIP-712 signature (65 bytes) by a dev account's key.
    ///
    /// - Throws: ``NodeError/unknownAccount``, or ``NodeError/invalidTypedData(_:)`` when the data cannot be
    ///   encoded.
    public func signTypedData(_ typedData: () throws -> TypedData, address: Address) throws -> [UInt8] {
        guard let key = keys[address] else { throw NodeError.unknownAccount }
        do {
            return try typedData().sign(privateKey: key).bytes
        } catch {
            throw NodeError.invalidTypedData("\(error)")
        }
    }
}
