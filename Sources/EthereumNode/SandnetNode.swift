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

/// The fake Sepolia node without its transport: a thin facade over small owners, each a `final class` with one
/// lock, that the JSON-RPC layer (`EthereumRPC`) and the server reach through it (ARCHITECTURE.md, "Ethereum node"):
///
/// - ``chain`` (``NodeChain``): the ledger and its persistence; typed reads (``balance(of:at:)``, …) run under its
///   lock.
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
/// before or after, never while holding its own lock. Event handlers run inside the miner's turn with the chain's
/// lock released; they must not call into the node.
public final class SandnetNode: Sendable {
    public let configuration: NodeConfiguration
    /// The chain and its owner, which writes each operation's changes to the data directory as one batch.
    public let chain: NodeChain
    /// Dev accounts in derivation order with their (public, test-only) private keys.
    public let devAccounts: [DevAccount]
    let keys: [Address: [UInt8]]
    public let faucetAddress: Address
    let faucetKey: [UInt8]
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
    /// The chain as created, for `anvil_reset` (``reset()``): its configuration (tokens included) and genesis.
    let genesis: (config: ChainConfig, accounts: [GenesisAccount])
    /// Failures on paths no client waits on (the block timer, scheduled reorgs, held transactions).
    public let failures = FailureReporter()

    /// Creates the node and its chain: in `store` when given (opened or created), else in memory.
    public init(
        configuration: NodeConfiguration, store: (any KeyValueStore)? = nil,
        clock: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970) }
    ) throws {
        self.configuration = configuration
        self.clock = clock
        impersonation = Impersonation(automatic: configuration.autoImpersonate)
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
        // Every native token: the dev accounts' and the faucet's genesis holdings (whole tokens × 10^decimals, shrunk
        // by a power of ten where that passes 2^256-1: DefaultTokenAmounts).
        var chainConfig = configuration.chain
        var tokens = chainConfig.nativeContracts.tokens
        for i in tokens.indices {
            guard
                let amounts = DefaultTokenAmounts(
                    token: tokens[i], devAccounts: dev.count, configuration: configuration)
            else {
                throw LedgerError.valueOutOfRange(
                    "token \(tokens[i].symbol): its holders and the default holdings total more than 2^256-1 units")
            }
            for account in dev where !amounts.dev.isZero {
                tokens[i].holders.append(.init(holder: account.address, amount: amounts.dev))
            }
            if !amounts.faucet.isZero {
                tokens[i].holders.append(.init(holder: faucet.ethereumAddress, amount: amounts.faucet))
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
        self.chain = NodeChain(chain, clock: clock)
        filters = NodeFilters(
            limit: configuration.filterLimit, criteriaLimit: configuration.filterCriteriaLimit, chain: self.chain,
            clock: clock)
        miner = Miner(events: events, filters: filters)
        ambient = AmbientDriver(configuration: configuration, chain: self.chain)
    }

    public var now: UInt64 { clock() }

    /// The chain's clock: the wall clock plus the offset `evm_increaseTime` and `evm_setTime` set (never below 0).
    /// The market follows it (README, "Markets").
    public var chainTime: UInt64 {
        let now = Int64(min(clock(), BlockSchedule.maxTimestamp))
        let offset = withLedger { $0.schedule.timeOffset }
        return UInt64(max(0, now + offset))
    }

    /// Runs `body` on the ledger under the chain's lock (``NodeChain/withLedger(_:)``).
    func withLedger<T, E: Error>(_ body: (inout Ledger) throws(E) -> T) throws(E) -> T {
        try chain.withLedger(body)
    }

    /// The head's number (``NodeChain/blockNumber``).
    public var blockNumber: UInt64 { chain.blockNumber }
    /// The chain id now (``NodeChain/chainID``; ``setChainID(_:)`` changes it).
    public var chainID: UInt64 { chain.chainID }

    /// A read-only copy of the ledger (copy-on-write: O(1)).
    public var snapshotOfLedger: Ledger { chain.snapshot }

    /// The node's faucet (its rules; the server shapes its HTTP answers).
    public var faucet: EthereumFaucet { EthereumFaucet(node: self) }

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
        filters.record(pending: tx.hash)
        if automatic {
            try miner.turn { turn in
                turn.sealed(
                    try withLedger { chain -> [Block] in
                        guard chain.pool.contains(tx.hash), chain.miningMode == .automatic else { return [] }
                        return try chain.mineExecutable(now: clock())
                    })
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
            (
                request.nonce ?? chain.pendingNonce(from), chain.nextBaseFee, self.chain.suggestedTip(chain),
                chain.config.chainID
            )
        }
        let gas: UInt64
        if let given = request.gas {
            gas = given
        } else if let to = request.to, configuration.chain.nativeContracts.contract(at: to) != nil {
            gas = try chain.estimateGas(request)  // a token call uses more than its intrinsic gas
        } else {
            gas = request.gasNeeded
        }
        if let gasPrice = request.gasPrice {
            if gasPrice.isZero { throw NodeError.invalidFeeArguments("gasPrice must be non-zero after london fork") }
            return .legacy(
                LegacyTransaction(
                    chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: request.to,
                    value: request.value, data: request.data))
        } else {
            // geth's `setFeeDefaults`: the suggested tip fills a missing tip (even when a fee cap is given), then the
            // fee cap must cover it.
            if let maxFee = request.maxFeePerGas, request.maxPriorityFeePerGas != nil, maxFee.isZero {
                throw NodeError.invalidFeeArguments("maxFeePerGas must be non-zero")
            }
            let priority = request.maxPriorityFeePerGas ?? tip
            guard let maxFee = request.maxFeePerGas ?? FeeMarket.defaultMaxFee(baseFee: baseFee, tip: priority) else {
                // geth computes 2 × base fee + tip in big integers and its pool refuses the result.
                throw NodeError.feeCapOverflow
            }
            if maxFee < priority {
                throw NodeError.invalidFeeArguments(
                    "maxFeePerGas (0x\(maxFee.hexDigits)) < maxPriorityFeePerGas (0x\(priority.hexDigits))")
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

    /// anvil_mine under a fee profile other than `dev`: each block with other users' transactions for it.
    func mineWithTraffic(blocks count: Int, now: UInt64, interval: UInt64?) throws -> [Block] {
        try miner.turn { turn in
            var mined: [Block] = []
            for i in 0..<count {
                mined += try ambient.mineBlock(now: now, timer: false, spacing: i > 0 ? interval : nil, &turn)
            }
            return mined
        }
    }

    // MARK: Chain conditions (the gate decides, the node acts)

    /// Applies the conditions to a raw transaction after it passed the pool's checks; returns true when the
    /// transaction was taken out of the normal path (dropped or held).
    func divert(_ tx: LedgerTransaction) throws -> Bool {
        let decision = conditions.decide(tx.hash)
        guard decision != .admit else { return false }
        let now = clock()
        // Checked exactly as an admission (geth's errors come back now), then taken out of the pool again.
        let head = try withLedger { chain -> UInt64 in
            _ = try chain.submit(tx, now: now, mineNow: false)
            _ = chain.dropTransaction(tx.hash)
            return chain.blockNumber
        }
        if case .hold(let blocks) = decision { try conditions.hold(tx, until: head + blocks) }
        return true
    }

    /// Submits the held transactions whose block has come; a refusal (the chain moved on) goes to ``failures``.
    func releaseHeld() {
        for tx in conditions.takeDue(head: blockNumber) {
            _ = failures.reporting(.heldTransaction) { try submit(tx) }
        }
    }

    /// After a timer block: a scheduled reorg when one is due, then the held transactions whose block came.
    func afterTimerBlock() {
        if let reorg = conditions.timerBlockSealed(head: blockNumber) {
            failures.reporting(.scheduledReorg) { try self.reorg(depth: reorg.depth, requeue: reorg.requeue) }
        }
        releaseHeld()
    }

    // MARK: Impersonation

    /// eth_sendUnsignedTransaction (and eth_sendTransaction from an impersonated address): fills in the nonce, fees
    /// and gas as eth_sendTransaction does and submits the transaction unsigned, with `from` as its sender.
    ///
    /// - Returns: the transaction hash (Keccak-256 of its encoding with the placeholder signature).
    @discardableResult
    public func sendUnsigned(_ request: TransactionRequest, from: Address) throws -> [UInt8] {
        let signed = SignedTransaction(
            transaction: try completed(request, from: from), signature: Self.placeholderSignature(for: from))
        return try submit(Self.ledgerTransaction(signed, sender: from))
    }

    /// The signature an unsigned transaction carries: s = 1 (as Anvil's) and r = 2^160 + the sender, so two
    /// senders' otherwise equal transactions differ in encoding and hash. It recovers to no particular address.
    static func placeholderSignature(for sender: Address) -> EthereumSignature {
        EthereumSignature(yParity: 0, r: UInt256(bigEndian: [1] + sender.bytes) ?? .zero, s: UInt256(1))
    }

    public var miningMode: MiningMode { chain.miningMode }
}

/// A dev account: a public test key, never for a real network.
public struct DevAccount: Sendable, Equatable {
    public let address: Address
    public let privateKey: [UInt8]
}
