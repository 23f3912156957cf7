import EthereumLedger
import EthereumTransactions
import EthereumTypes

/// The submit path: a transaction from the wire or from a key the node holds is decoded and recovered, passed through
/// the chain conditions (``ConditionsGate`` decides, the submitter acts), admitted to the pool under
/// ``NodeChain``'s lock, announced to subscribers and filters, and under automatic mining sealed in the miner's turn.
///
/// Holds no state of its own (so no lock); the locks it takes are the owners': the miner's turn, then inside it the
/// chain's (ARCHITECTURE.md, "How an eth_sendRawTransaction travels").
public final class TransactionSubmitter: Sendable {
    let configuration: NodeConfiguration
    let chain: NodeChain
    let miner: Miner
    let events: EventHub
    let filters: NodeFilters
    let conditions: ConditionsGate
    let failures: FailureReporter
    let impersonation: Impersonation
    let accounts: DevAccounts
    let clock: @Sendable () -> UInt64

    init(
        configuration: NodeConfiguration, chain: NodeChain, miner: Miner, events: EventHub, filters: NodeFilters,
        conditions: ConditionsGate, failures: FailureReporter, impersonation: Impersonation, accounts: DevAccounts,
        clock: @escaping @Sendable () -> UInt64
    ) {
        self.configuration = configuration
        self.chain = chain
        self.miner = miner
        self.events = events
        self.filters = filters
        self.conditions = conditions
        self.failures = failures
        self.impersonation = impersonation
        self.accounts = accounts
        self.clock = clock
    }

    /// eth_sendRawTransaction: decodes, validates and submits a signed transaction; returns its hash.
    @discardableResult
    public func submit(raw: [UInt8]) throws -> [UInt8] {
        releaseHeld()
        let tx = try ledgerTransaction(raw: raw)
        if try divert(tx) { return tx.hash }  // dropped or delayed (``ChainConditions``)
        return try submit(tx)
    }

    /// Decodes, validates and recovers a raw transaction into the ledger's form.
    func ledgerTransaction(raw: [UInt8]) throws -> LedgerTransaction {
        let signed = try SignedTransaction(decoding: raw)
        if signed.transaction.chainID == nil && !configuration.allowUnprotectedTransactions {
            throw NodeError.unprotectedTransaction
        }
        return LedgerTransaction(signed, sender: try signed.recoverSender())
    }

    /// Admits `tx`, then (automatic mining) mines it before returning. Admission and mining take the ledger
    /// lock separately and miners take turns, so transactions that arrive while a block is being sealed
    /// share the next block (group commit): one seal serves many concurrent requests.
    func submit(_ tx: LedgerTransaction) throws -> [UInt8] {
        let now = clock()
        let (result, automatic) = try chain.withLedger { chain in
            (try chain.submit(tx, now: now, mineNow: false), chain.miningMode == .automatic)
        }
        events.publish(.pendingTransaction(tx.hash))
        filters.record(pending: tx.hash)
        if automatic {
            try miner.turn { turn in
                turn.sealed(
                    try chain.withLedger { chain -> [Block] in
                        guard chain.pool.contains(tx.hash), chain.miningMode == .automatic else { return [] }
                        return try chain.mineExecutable(now: clock())
                    })
            }
        }
        return result.hash
    }

    /// eth_sendTransaction: fills in the nonce, fees and gas, signs with the sender's key and submits.
    ///
    /// - Returns: the transaction hash.
    /// From an impersonated address whose key the node does not hold, the transaction is sent unsigned
    /// (``sendUnsigned(_:from:)``).
    public func sendTransaction(_ request: TransactionRequest, from: Address) throws -> [UInt8] {
        if !accounts.holds(from) && impersonation.covers(from) {
            return try sendUnsigned(request, from: from)
        }
        return try sendFromKey(try accounts.key(for: from), from: from, request: request)
    }

    /// eth_signTransaction: the transaction eth_sendTransaction would send (nonce, gas and fees filled in the same
    /// way), signed by the sender's key and not submitted.
    ///
    /// - Returns: the signed transaction in the node's form (its EIP-2718 encoding is `encoding`).
    public func signTransaction(_ request: TransactionRequest, from: Address) throws -> LedgerTransaction {
        LedgerTransaction(try signFromKey(try accounts.key(for: from), from: from, request: request), sender: from)
    }

    /// eth_sendUnsignedTransaction (and eth_sendTransaction from an impersonated address): fills in the nonce, fees
    /// and gas as eth_sendTransaction does and submits the transaction unsigned, with `from` as its sender.
    ///
    /// - Returns: the transaction hash (Keccak-256 of its encoding with the placeholder signature).
    @discardableResult
    public func sendUnsigned(_ request: TransactionRequest, from: Address) throws -> [UInt8] {
        let signed = SignedTransaction(
            transaction: try completed(request, from: from), signature: Self.placeholderSignature(for: from))
        return try submit(LedgerTransaction(signed, sender: from))
    }

    /// The signature an unsigned transaction carries: s = 1 (as Anvil's) and r = 2^160 + the sender, so two
    /// senders' otherwise equal transactions differ in encoding and hash. It recovers to no particular address.
    static func placeholderSignature(for sender: Address) -> EthereumSignature {
        EthereumSignature(yParity: 0, r: UInt256(bigEndian: [1] + sender.bytes) ?? .zero, s: UInt256(1))
    }

    /// Signs and submits an EIP-1559 transfer from a key we hold (eth_sendTransaction, the faucet).
    func sendFromKey(_ key: [UInt8], from: Address, request: TransactionRequest) throws -> [UInt8] {
        try submit(LedgerTransaction(try signFromKey(key, from: from, request: request), sender: from))
    }

    /// Fills in the nonce (pending), gas and fees as eth_sendTransaction does and signs with `key`.
    func signFromKey(_ key: [UInt8], from: Address, request: TransactionRequest) throws -> SignedTransaction {
        try completed(request, from: from).signed(privateKey: key)
    }

    /// The transaction eth_sendTransaction would send for `request`: the nonce (pending), gas and fees filled in.
    func completed(_ request: TransactionRequest, from: Address) throws -> Transaction {
        let (nonce, baseFee, tip, chainID) = chain.withLedger { chain in
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

    // MARK: Chain conditions (the gate decides, the submitter acts)

    /// Applies the conditions to a raw transaction after it passed the pool's checks; returns true when the
    /// transaction was taken out of the normal path (dropped or held).
    func divert(_ tx: LedgerTransaction) throws -> Bool {
        let decision = conditions.decide(tx.hash)
        guard decision != .admit else { return false }
        let now = clock()
        // Checked exactly as an admission (geth's errors come back now), then taken out of the pool again.
        let head = try chain.withLedger { chain -> UInt64 in
            _ = try chain.submit(tx, now: now, mineNow: false)
            _ = chain.dropTransaction(tx.hash)
            return chain.blockNumber
        }
        if case .hold(let blocks) = decision { try conditions.hold(tx, until: head + blocks) }
        return true
    }

    /// Submits the held transactions whose block has come; a refusal (the chain moved on) goes to ``failures``.
    func releaseHeld() {
        for tx in conditions.takeDue(head: chain.blockNumber) {
            _ = failures.reporting(.heldTransaction) { try submit(tx) }
        }
    }
}
