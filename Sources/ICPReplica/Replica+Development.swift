import ICPIdentity
import ICPLedger
import ICPLedgerStorage
import KeyValueStorage

extension Replica {
    /// The minting account of the development ledger: the NNS governance canister, as on mainnet.
    public static let governanceCanister: Principal = {
        do { return try Principal(text: "rrkah-fqaaa-aaaaa-aaaaq-cai") } catch { preconditionFailure("\(error)") }
    }()

    /// The key prefix of the ICP ledger inside a node's data directory (the Ethereum chain uses single-letter tags).
    public static let storePrefix: [UInt8] = [0x01] + Array("icp/".utf8)

    /// A development replica as `sandnet node` runs it: the ledger's minting account is the governance canister,
    /// and the first `identities` secp256k1 keys of `mnemonic` at `m/44'/223'/0'/0/i` each start with `balance`.
    /// With a store the ledger is opened from (or created in) its `icp/` part and survives restarts.
    ///
    /// - Returns: the replica and the funded identities.
    public static func development(
        mnemonic: String, identities: Int, balance: Tokens, fee: Tokens = Tokens(e8s: LedgerConfiguration.defaultFee),
        store: (any KeyValueStore)?, configuration: Configuration = Configuration(),
        clock: @escaping @Sendable () -> UInt64
    ) throws -> (Replica, [KeyIdentity]) {
        var funded: [KeyIdentity] = []
        for index in 0..<identities {
            funded.append(try KeyIdentity(mnemonic: mnemonic, path: .bip44(coinType: 223, index: UInt32(index))))
        }
        let ledgerConfiguration = LedgerConfiguration(
            mintingAccount: Account(owner: governanceCanister), transferFee: fee)
        let initial = funded.map { (AccountIdentifier(principal: $0.principal), balance) }
        let now = clock()
        let ledger: PersistentICPLedger
        if let store {
            ledger = try PersistentICPLedger.open(
                configuration: ledgerConfiguration, store: PrefixedStore(store, prefix: storePrefix),
                initialBalances: initial, now: now)
        } else {
            ledger = PersistentICPLedger(
                LedgerCanister(configuration: ledgerConfiguration, initialBalances: initial, now: now))
        }
        return (Replica(ledger: ledger, configuration: configuration, clock: clock), funded)
    }
}
