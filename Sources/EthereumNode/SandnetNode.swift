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

/// The fake Sepolia node without its transport: a composition of small owners, each with one concern, that the
/// JSON-RPC layer (`EthereumRPC`) and the server reach through it (ARCHITECTURE.md, "Ethereum node"):
///
/// - ``chain`` (``NodeChain``): the ledger and its persistence; typed reads (``NodeChain/balance(of:at:)``, …) run
///   under its lock.
/// - ``submitter`` (``TransactionSubmitter``): the submit path (decode, conditions, admission, automine).
/// - ``dev`` (``DevControls``), ``parameters`` (``NodeParameters``), ``pool`` (``NodePool``): developer methods.
/// - ``accounts`` (``DevAccounts``): the keys the node holds (a value).
/// - `miner` (``Miner``): the miner's turn; every block sealed or removed is published inside it, in chain order.
/// - ``filters`` (``NodeFilters``), ``events`` (``EventHub``): polling filters and subscriptions.
/// - ``ambient`` (``AmbientDriver``): other users' traffic and the timer's block.
/// - ``conditions`` (``ConditionsGate``): dropped, delayed transactions and scheduled reorgs.
/// - ``impersonation`` (``Impersonation``), `faucetLimiter` (``FaucetLimiter``), ``failures`` (``FailureReporter``).
///
/// Lock order, where locks nest (an arrow: the left lock may be held while the right one is taken; no other
/// nesting exists):
///
///     Miner (turn) → NodeChain → (nothing)
///     Miner (turn) → NodeFilters
///     Miner (turn) → EventHub's subscriber and handler locks → (subscribers' own locks, never the node's)
///     Miner (turn) → ConditionsGate, FilterRegistry restart (anvil_reset only)
///
/// Every other lock (``AmbientDriver``, ``ConditionsGate``, ``Impersonation``, ``FaucetLimiter``,
/// ``FailureReporter``, ``NodeFilters`` outside a turn) is taken alone: its owner reads what it needs from the chain
/// before or after, never while holding its own lock. ``TransactionSubmitter``, ``DevControls``,
/// ``NodeParameters`` and ``NodePool`` hold no state and no lock of their own. Event handlers run inside the miner's
/// turn with the chain's lock released; they must not call into the node.
public final class SandnetNode: Sendable {
    public let configuration: NodeConfiguration
    /// The chain and its owner, which writes each operation's changes to the data directory as one batch.
    public let chain: NodeChain
    /// The keys the node holds: dev accounts and the faucet.
    public let accounts: DevAccounts
    let clock: @Sendable () -> UInt64
    public let events = EventHub()
    /// Polling filters.
    public let filters: NodeFilters
    /// The faucet's cooldowns (checked and recorded at once).
    let faucetLimiter = FaucetLimiter()
    /// The miner's turn: every block sealed or removed is published inside it, in chain order.
    let miner: Miner
    /// Other users' traffic (``AmbientConfiguration``) and the timer's blocks.
    public let ambient: AmbientDriver
    /// Chain conditions (``ChainConditions``) and the transactions they hold back.
    public let conditions = ConditionsGate()
    /// Addresses eth_sendTransaction sends from without their keys.
    public let impersonation: Impersonation
    /// Failures on paths no client waits on (the block timer, scheduled reorgs, held transactions).
    public let failures = FailureReporter()
    /// The submit path: raw transactions, eth_sendTransaction, unsigned (impersonated) transactions.
    public let submitter: TransactionSubmitter
    /// Anvil's developer controls: accounts, mining, snapshots, reverts, reorgs, reset, state dump.
    public let dev: DevControls
    /// The chain's run-time parameters and clock rules, and its native contracts.
    public let parameters: NodeParameters
    /// The transaction pool as txpool_* shows it and anvil_drop* edits it.
    public let pool: NodePool

    /// Creates the node and its chain: in `store` when given (opened or created), else in memory.
    public init(
        configuration: NodeConfiguration, store: (any KeyValueStore)? = nil,
        clock: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970) }
    ) throws {
        self.configuration = configuration
        self.clock = clock
        impersonation = Impersonation(automatic: configuration.autoImpersonate)
        let accounts = try DevAccounts(mnemonic: configuration.mnemonic, count: configuration.accountCount)
        self.accounts = accounts
        let devAccounts = accounts.dev
        let faucet = accounts.faucet
        var genesis = devAccounts.map { GenesisAccount(address: $0.address, balance: configuration.accountBalance) }
        genesis.append(GenesisAccount(address: faucet.address, balance: configuration.faucetBalance))
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
        // Every native token: the dev accounts' and the faucet's genesis holdings (whole tokens × 10^decimals, shrunk
        // by a power of ten where that passes 2^256-1: DefaultTokenAmounts).
        var chainConfig = configuration.chain
        var tokens = chainConfig.nativeContracts.tokens
        for i in tokens.indices {
            guard
                let amounts = DefaultTokenAmounts(
                    token: tokens[i], devAccounts: devAccounts.count, configuration: configuration)
            else {
                throw LedgerError.valueOutOfRange(
                    "token \(tokens[i].symbol): its holders and the default holdings total more than 2^256-1 units")
            }
            for account in devAccounts where !amounts.dev.isZero {
                tokens[i].holders.append(.init(holder: account.address, amount: amounts.dev))
            }
            if !amounts.faucet.isZero {
                tokens[i].holders.append(.init(holder: faucet.address, amount: amounts.faucet))
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
        let collections = DefaultCollectionHoldings.filled(
            chainConfig.nativeContracts.collections, dev: devAccounts.map(\.address), owner: faucet.address)
        switch NativeContractRegistry(tokens: tokens, multicall3: chainConfig.nativeContracts.multicall3)
            .adding(collections)
        {
        case .success(let registry): chainConfig.nativeContracts = registry
        case .failure(let error): throw LedgerError.valueOutOfRange(error.message)
        }
        var chain: PersistentLedger
        if let store {
            chain = try PersistentLedger.open(config: chainConfig, genesis: genesis, store: store)
        } else {
            chain = PersistentLedger(Ledger(config: chainConfig, genesis: genesis))
        }
        chain.perform { $0.miningMode = configuration.miningMode }
        self.chain = NodeChain(chain, clock: clock)
        filters = NodeFilters(
            limit: configuration.filterLimit, criteriaLimit: configuration.filterCriteriaLimit, chain: self.chain,
            clock: clock)
        miner = Miner(events: events, filters: filters)
        ambient = AmbientDriver(configuration: configuration, chain: self.chain)
        submitter = TransactionSubmitter(
            configuration: configuration, chain: self.chain, miner: miner, events: events, filters: filters,
            conditions: conditions, failures: failures, impersonation: impersonation, accounts: accounts, clock: clock)
        dev = DevControls(
            configuration: configuration, chain: self.chain, miner: miner, ambient: ambient, filters: filters,
            conditions: conditions, submitter: submitter, accounts: accounts, genesis: (chainConfig, genesis),
            clock: clock)
        parameters = NodeParameters(chain: self.chain, configuration: configuration, clock: clock)
        pool = NodePool(chain: self.chain)
    }

    public var now: UInt64 { clock() }

    /// Runs `body` on the ledger under the chain's lock (``NodeChain/withLedger(_:)``).
    func withLedger<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> T {
        try chain.withLedger(body)
    }

    /// The head's number (``NodeChain/blockNumber``).
    public var blockNumber: UInt64 { chain.blockNumber }
    /// The chain id now (``NodeChain/chainID``; ``NodeParameters/setChainID(_:)`` changes it).
    public var chainID: UInt64 { chain.chainID }

    /// A read-only copy of the ledger (copy-on-write: O(1)).
    public var snapshotOfLedger: Ledger { chain.snapshot }

    /// The node's faucet (its rules; the server shapes its HTTP answers).
    public var faucet: EthereumFaucet { EthereumFaucet(node: self) }

    /// The dev accounts in derivation order (``DevAccounts/dev``).
    public var devAccounts: [DevAccount] { accounts.dev }
    /// The faucet's account (``DevAccounts/faucet``).
    public var faucetAddress: Address { accounts.faucet.address }

    /// eth_sendRawTransaction (``TransactionSubmitter/submit(raw:)``): decodes, validates and submits a signed
    /// transaction; returns its hash.
    @discardableResult
    public func submit(raw: [UInt8]) throws -> [UInt8] { try submitter.submit(raw: raw) }

    /// Flushes the pool and head to disk (clean shutdown).
    public func shutdown() throws {
        try chain.flush()
    }

    /// Timer tick: mines a block if one is due (interval mining, or automine's empty-block interval), with other
    /// users' transactions for it. Returns the blocks mined; a failure (a full disk, say) goes to ``failures``'
    /// handler and leaves the chain as it was, and the next tick tries again.
    @discardableResult
    public func tick() -> [Block] {
        let now = clock()
        let blocks =
            failures.reporting(.timerBlock) {
                try miner.turn { turn in try ambient.mineBlock(now: now, timer: true, spacing: nil, &turn) }
            } ?? []
        if !blocks.isEmpty { afterTimerBlock() }
        return blocks
    }

    /// After a timer block: a scheduled reorg when one is due, then the held transactions whose block came.
    func afterTimerBlock() {
        if let reorg = conditions.timerBlockSealed(head: blockNumber) {
            failures.reporting(.scheduledReorg) { try dev.reorg(depth: reorg.depth, requeue: reorg.requeue) }
        }
        submitter.releaseHeld()
    }

    public var miningMode: MiningMode { chain.miningMode }
}
