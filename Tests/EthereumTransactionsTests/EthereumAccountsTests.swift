import EthereumTransactions
import HDWallet
import Testing

/// Ethereum addresses of BIP-32 keys (moved here from HDWalletTests when HDWallet became chain-neutral).
@Suite struct EthereumAccountsTests {
    static let vector1Seed: [UInt8] = Array(0..<16)
    static let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func publicDerivationGivesTheSameAddress() throws {
        let master = try ExtendedKey(seed: Self.vector1Seed)
        let account = try master.derived(DerivationPath(parsing: "m/44'/60'/0'"))
        let viaPrivate = try account.derived(DerivationPath(parsing: "m/0/7")).neutered
        let viaPublic = try account.neutered.derived(DerivationPath(parsing: "m/0/7"))
        #expect(viaPublic.ethereumAddress == viaPrivate.ethereumAddress)
    }

    @Test func ethereumAccounts() throws {
        let master = try ExtendedKey(seed: Mnemonic(phrase: Self.abandon).seed())
        let accounts = try EthereumAccounts(master: master)
        // The address every wallet shows for this well-known test mnemonic.
        #expect(try accounts.address(0).checksummed == "0x9858EfFD232B4033E47d90003D41EC34EcaEda94")
        for i: UInt32 in 0..<5 {
            let full = try master.derived(.ethereum(index: i))
            #expect(try accounts.key(i) == full)
            #expect(try accounts.address(i) == full.ethereumAddress)
        }
        #expect(accounts.path(3).description == "m/44'/60'/0'/0/3")
    }
}
