import CryptoCore
import EthereumLedger
import EthereumLedgerStorage
import EthereumTransactions
import EthereumTypes
import Foundation
import HDWallet
import JSONCoding
import KeyValueStorage
import NativeContracts
import Synchronization

/// The fake Sepolia node without its transport: the ledger behind one lock, dev accounts, the faucet, filters and
/// events, with a typed API (``balance(of:at:)``, ``feeHistory(count:newest:percentiles:)``, ``mine(blocks:interval:)``
/// …) that the JSON-RPC layer (`EthereumRPC`) converts to and from JSON.
///
/// Lock order, where locks nest: ``minerTurn`` → ``ledger``. The filter and faucet-limiter locks are taken alone
/// (never while the ledger lock is held, and they never take it). Event handlers run after the ledger lock is
/// released, possibly inside ``minerTurn``.
public final class SandnetNode: Sendable {
    public let configuration: NodeConfiguration
    /// The chain and its owner, which writes each operation's changes to the data directory as one batch.
    let ledger: Mutex<PersistentLedger>
    /// Dev accounts in derivation order with their (public, test-only) private keys.
    public let devAccounts: [DevAccount]
    let keys: [Address: [UInt8]]
    public let faucetAddress: Address
    let faucetKey: [UInt8]
    let clock: @Sendable () -> UInt64
    public let events = EventHub()
    let filters: Mutex<FilterRegistry>
    let faucetLimiter = Mutex(FaucetLimiter())
    /// Serialises automatic mining so concurrent submissions batch into one block.
    let minerTurn = Mutex(())
    /// Other users' traffic (``AmbientConfiguration``).
    let ambient: Mutex<AmbientState>
    /// Chain conditions (``ChainConditions``) and the transactions they hold back.
    let conditionState = Mutex(ConditionState())
    /// Addresses eth_sendTransaction sends from without their keys (``impersonate(_:)``).
    let impersonation: Mutex<Impersonation>
    /// The chain as created, for `anvil_reset` (``reset()``): its configuration (tokens included) and genesis.
    let genesis: (config: ChainConfig, accounts: [GenesisAccount])
    /// `anvil_metadata`'s instance id: new at start and at every ``reset()``.
    let instance = Mutex(SandnetNode.newInstanceID())

    /// Creates the node and its chain: in `store` when given (opened or created), else in memory.
    public init(
        configuration: NodeConfiguration, store: (any KeyValueStore)? = nil,
        clock: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970) }
    ) throws {
        self.configuration = configuration
        self.clock = clock
        filters = Mutex(
            FilterRegistry(limit: configuration.filterLimit, criteriaLimit: configuration.filterCriteriaLimit))
        ambient = Mutex(AmbientState(configuration.ambient))
        impersonation = Mutex(Impersonation(automatic: configuration.autoImpersonate))
        let mnemonic = try Mnemonic(phrase: configuration.mnemonic)
        let master = try ExtendedKey(seed: mnemonic.seed(passphrase: ""))
        let accounts = try EthereumAccounts(master: master)
        var dev: [DevAccount] = []
        for i in 0..<configuration.accountCount {
            let key = try accounts.key(UInt32(i))
            dev.append(DevAccount(address: key.ethereumAddress, privateKey: key.privateKey!))
        }
        // The faucet key is derived, not random, so a data directory reopens with the same faucet.
        let faucet = try accounts.key(UInt32(1_000_000))
        faucetAddress = faucet.ethereumAddress
        faucetKey = faucet.privateKey!
        devAccounts = dev
        keys = Dictionary(dev.map { ($0.address, $0.privateKey) }, uniquingKeysWith: { a, _ in a })
        var genesis = dev.map { GenesisAccount(address: $0.address, balance: configuration.accountBalance) }
        genesis.append(GenesisAccount(address: faucet.ethereumAddress, balance: configuration.faucetBalance))
        genesis += configuration.genesisAccounts
        // The supply (Σ balances + burned) must fit in 256 bits, as it always does on Ethereum.
        var supply = UInt256.zero
        for account in genesis {
            let (sum, overflow) = supply.addingReportingOverflow(account.balance)
            guard !overflow else {
                throw LedgerError.valueOutOfRange("genesis balances total more than 2^256-1 wei")
            }
            supply = sum
        }
        // Every native token: the dev accounts' and the faucet's genesis holdings (whole tokens × 10^decimals).
        var chainConfig = configuration.chain
        var tokens = chainConfig.nativeContracts.tokens
        for i in tokens.indices {
            var unit = UInt256(1)
            for _ in 0..<tokens[i].decimals { unit = unit * 10 }
            for account in dev where configuration.devTokenBalance > 0 {
                tokens[i].holders.append(
                    .init(holder: account.address, amount: UInt256(configuration.devTokenBalance) * unit))
            }
            if configuration.faucetTokenReserve > 0 {
                tokens[i].holders.append(
                    .init(holder: faucet.ethereumAddress, amount: UInt256(configuration.faucetTokenReserve) * unit))
            }
        }
        if let problem = NativeContractRegistry.validate(tokens) { throw LedgerError.valueOutOfRange(problem) }
        // WETH9-profile tokens are backed by as much ETH, which counts in the supply too.
        for token in tokens where token.profile == .weth9 {
            let (sum, overflow) = supply.addingReportingOverflow(token.genesisSupply)
            guard !overflow else {
                throw LedgerError.valueOutOfRange(
                    "genesis balances and \(token.symbol)'s ETH backing total more than 2^256-1 wei")
            }
            supply = sum
        }
        chainConfig.nativeContracts = NativeContractRegistry(
            tokens: tokens, multicall3: chainConfig.nativeContracts.multicall3)
        self.genesis = (chainConfig, genesis)
        var chain: PersistentLedger
        if let store {
            chain = try PersistentLedger.open(config: chainConfig, genesis: genesis, store: store)
        } else {
            chain = PersistentLedger(Ledger(config: chainConfig, genesis: genesis))
        }
        chain.perform { $0.miningMode = configuration.miningMode }
        ledger = Mutex(chain)
    }

    public var now: UInt64 { clock() }

    /// The chain's clock: the wall clock plus the offset `evm_increaseTime` and `evm_setTime` set (never below 0).
    /// The market follows it (README, "Markets").
    public var chainTime: UInt64 {
        let now = Int64(min(clock(), Ledger.maxTimestamp))
        let offset = ledger.withLock { $0.ledger.timeOffset }
        return UInt64(max(0, now + offset))
    }

    /// Runs `body` on the ledger under the lock; what it changed is written to the data directory before the
    /// lock is released (see ``PersistentLedger/perform(_:)`` for a failed write).
    func withLedger<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> T {
        try ledger.withLock { (owner) throws(E) -> T in try owner.perform(body) }
    }

    func publish(_ blocks: [Block]) {
        for block in blocks {
            events.publish(.newBlock(block))
            filters.withLock { $0.record(block: block) }
        }
    }

    /// A read-only copy of the ledger (copy-on-write: O(1)).
    public var snapshotOfLedger: Ledger { ledger.withLock { $0.ledger } }

    // MARK: Transactions

    /// Decodes, validates and recovers a raw transaction into the ledger's form.
    func ledgerTransaction(raw: [UInt8]) throws -> LedgerTransaction {
        let signed = try SignedTransaction(decoding: raw)
        if signed.transaction.chainID == nil && !configuration.allowUnprotectedTransactions {
            throw NodeError.unprotectedTransaction
        }
        let sender = try signed.recoverSender()
        return Self.ledgerTransaction(signed, sender: sender)
    }

    static func ledgerTransaction(_ signed: SignedTransaction, sender: Address) -> LedgerTransaction {
        LedgerTransaction(signed, sender: sender)
    }

    /// eth_sendRawTransaction: decodes, validates and submits a signed transaction; returns its hash.
    @discardableResult
    public func submit(raw: [UInt8]) throws -> [UInt8] {
        releaseHeld()
        let tx = try ledgerTransaction(raw: raw)
        if try divert(tx) { return tx.hash }  // dropped or delayed (``ChainConditions``)
        return try submit(tx)
    }

    /// Admits `tx`, then (automatic mining) mines it before returning. Admission and mining take the ledger
    /// lock separately and miners take turns, so transactions that arrive while a block is being sealed
    /// share the next block (group commit): one seal serves many concurrent requests.
    func submit(_ tx: LedgerTransaction) throws -> [UInt8] {
        let now = clock()
        let (result, automatic) = try withLedger { chain in
            (try chain.submit(tx, now: now, mineNow: false), chain.miningMode == .automatic)
        }
        events.publish(.pendingTransaction(tx.hash))
        filters.withLock { $0.record(pending: tx.hash) }
        if automatic {
            try minerTurn.withLock { _ in
                let blocks = try withLedger { chain -> [Block] in
                    guard chain.pool.contains(tx.hash), chain.miningMode == .automatic else { return [] }
                    return try chain.mineExecutable(now: clock())
                }
                publish(blocks)
            }
        }
        return result.hash
    }

    /// Signs and submits an EIP-1559 transfer from a key we hold (eth_sendTransaction, the faucet).
    func sendFromKey(
        _ key: [UInt8], from: Address, request: TransactionRequest
    ) throws -> [UInt8] {
        try submit(Self.ledgerTransaction(try signFromKey(key, from: from, request: request), sender: from))
    }

    /// Fills in the nonce (pending), gas and fees as eth_sendTransaction does and signs with `key`.
    func signFromKey(_ key: [UInt8], from: Address, request: TransactionRequest) throws -> SignedTransaction {
        try completed(request, from: from).signed(privateKey: key)
    }

    /// The transaction eth_sendTransaction would send for `request`: the nonce (pending), gas and fees filled in.
    func completed(_ request: TransactionRequest, from: Address) throws -> Transaction {
        let (nonce, baseFee, tip, chainID) = withLedger { chain in
            (request.nonce ?? chain.pendingNonce(from), chain.nextBaseFee, suggestedTip(chain), chain.config.chainID)
        }
        let gas: UInt64
        if let given = request.gas {
            gas = given
        } else if let to = request.to, configuration.chain.nativeContracts.contract(at: to) != nil {
            gas = try estimateGas(request)  // a token call uses more than its intrinsic gas
        } else {
            gas = request.gasNeeded
        }
        if let gasPrice = request.gasPrice {
            return .legacy(
                LegacyTransaction(
                    chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: request.to,
                    value: request.value, data: request.data))
        } else {
            let priority = request.maxPriorityFeePerGas ?? UInt256.min(tip, request.maxFeePerGas ?? .max)
            guard let maxFee = request.maxFeePerGas ?? FeeMarket.defaultMaxFee(baseFee: baseFee, tip: priority) else {
                // geth computes 2 × base fee + tip in big integers and its pool refuses the result.
                throw NodeError.feeCapOverflow
            }
            return .dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: nonce, maxPriorityFeePerGas: priority,
                    maxFeePerGas: maxFee, gas: gas, to: request.to, value: request.value, data: request.data,
                    accessList: request.accessList))
        }
    }

    /// Flushes the pool and head to disk (clean shutdown).
    public func shutdown() throws {
        try ledger.withLock { try $0.flush() }
    }

    /// Timer tick: mines a block if one is due (interval mining, or automine's empty-block interval), with other
    /// users' transactions for it. Returns the blocks mined.
    @discardableResult
    public func tick() -> [Block] {
        let blocks = (try? mineTimerBlock(now: clock())) ?? []
        if !blocks.isEmpty { afterTimerBlock() }
        return blocks
    }

    public var miningMode: MiningMode { ledger.withLock { $0.ledger.miningMode } }
}

/// A dev account: a public test key, never for a real network.
public struct DevAccount: Sendable, Equatable {
    public let address: Address
    public let privateKey: [UInt8]
}
