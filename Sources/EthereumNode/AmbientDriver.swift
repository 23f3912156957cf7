import AmbientTraffic
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import HDWallet
import NativeContracts
import Synchronization

/// The ambient driver: other users on the chain (README, "A chain that lives"). It owns the traffic generator (its
/// fee profile switchable at run time) and the users' keys, and builds the timer's blocks (and `anvil_mine`'s under
/// a fee profile other than `dev`) with their transactions, in the miner's turn.
///
/// Lock: its one lock is taken alone (the generator and keys are read before the chain's lock is taken).
public final class AmbientDriver: Sendable {
    /// The generator and the users' keys, derived on first use.
    struct State: Sendable {
        var generator: TrafficGenerator
        var users: [DevAccount] = []
    }

    private let state: Mutex<State>
    private let configuration: NodeConfiguration
    private let chain: NodeChain

    init(configuration: NodeConfiguration, chain: NodeChain) {
        let ambient = configuration.ambient
        state = Mutex(
            State(
                generator: TrafficGenerator(seed: ambient.seed, profile: ambient.profile, users: max(ambient.users, 2)))
        )
        self.configuration = configuration
        self.chain = chain
    }

    /// Index of the first simulated user's key under m/44'/60'/0'/0.
    static let firstUserIndex: UInt32 = 2_000_000

    /// The fee profile other users follow now.
    public var feeProfile: FeeProfile { state.withLock { $0.generator.profile } }

    /// Switches the fee profile from the next block on (`sandnet_setFeeProfile`, the scenario step).
    public func setFeeProfile(_ profile: FeeProfile) { state.withLock { $0.generator.profile = profile } }

    /// The simulated users' addresses (empty until traffic first ran).
    public var users: [Address] { state.withLock { $0.users.map(\.address) } }

    /// Whether a timer block is due at `now`: interval mining's next block, or (automine with
    /// ``NodeConfiguration/emptyBlockInterval``) a block when the head is that old.
    func timerBlockDue(_ chain: Ledger, now: UInt64) -> Bool {
        let interval: UInt64
        switch chain.miningMode {
        case .interval(let seconds): interval = seconds
        case .automatic:
            guard let idle = configuration.emptyBlockInterval, idle > 0 else { return false }
            interval = idle
        case .manual: return false
        }
        return chain.timerBlockDue(interval: interval, now: now)
    }

    /// One block with traffic, in the miner's `turn`: when `timer`, only if one is due; `spacing` puts it that many
    /// seconds after the head. Other users' transactions are signed with their keys, each with its gas charged as the
    /// generator drew it; the pool's executable transactions join them by tip; an empty block when there are none.
    func mineBlock(now: UInt64, timer: Bool, spacing: UInt64?, _ turn: inout Miner.Turn) throws -> [Block] {
        // The generator and the users' keys are read before the chain's lock is taken: the two locks never nest.
        let generator = state.withLock { $0.generator }
        let users = generator.profile == .dev ? [] : try keys()
        let plan = try chain.withLedger {
            chain throws -> (ChainHead, [AmbientTransaction], [Address: UInt64], MiningMode, UInt64)? in
            if timer { guard timerBlockDue(chain, now: now) else { return nil } }
            if let spacing { try chain.setNextTimestamp(chain.head.header.timestamp + spacing) }
            var timestamp = chain.nextBlockTimestamp(now: now)
            if timer, case .interval(let seconds) = chain.miningMode, chain.schedule.blockTimestampInterval == nil {
                timestamp = max(timestamp, chain.head.header.timestamp + seconds)
            }
            let head = ChainHead(
                number: chain.blockNumber + 1, timestamp: timestamp, baseFee: chain.nextBaseFee,
                gasLimit: chain.config.gasLimit)
            let traffic = users.isEmpty ? [] : generator.transactions(for: head)
            guard !traffic.isEmpty else { return (head, [], [:], chain.miningMode, chain.config.chainID) }
            var nonces: [Address: UInt64] = [:]
            for tx in traffic where nonces[users[tx.sender].address] == nil {
                nonces[users[tx.sender].address] = chain.pendingNonce(users[tx.sender].address)
            }
            return (head, traffic, nonces, chain.miningMode, chain.config.chainID)
        }
        guard let (head, traffic, startNonces, mode, chainID) = plan else { return [] }
        var nonces = startNonces
        var signed: [LedgerTransaction] = []
        var tokenSenders: [(token: TokenDefinition, sender: Address)] = []
        signed.reserveCapacity(traffic.count)
        let tokens = self.tokens
        for tx in traffic {
            let user = users[tx.sender]
            let nonce = nonces[user.address, default: 0]
            nonces[user.address] = nonce + 1
            // A token-like call becomes a transfer of one of the tokens (chosen by its drawn gas, so no draw
            // shifts), of 0.01–1,000 tokens (the drawn value's 1–100,000 steps).
            let token = tx.isTokenTransfer && !tokens.isEmpty ? tokens[Int(tx.gas % UInt64(tokens.count))] : nil
            var to = users[tx.recipient].address
            var value = tx.value
            var data: [UInt8] = []
            var gas = tx.gas
            if let token {
                let steps = tx.value / UInt256(1_000_000_000_000 as UInt64)
                let amount = steps * Units.powerOfTen(max(Int(token.decimals) - 2, 0))
                data = ERC20Call.transfer(to: to, amount: amount).encoded()
                to = token.address
                value = .zero
                gas = AmbientConfiguration.tokenTransferGasLimit
                tokenSenders.append((token, user.address))
            }
            let transaction = Transaction.dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: nonce,
                    maxPriorityFeePerGas: tx.maxPriorityFeePerGas, maxFeePerGas: tx.maxFeePerGas, gas: gas,
                    to: to, value: value, data: data, accessList: []))
            var ledgerTx = LedgerTransaction(try transaction.signed(privateKey: user.privateKey), sender: user.address)
            // EVM-less: the gas a contract call would burn is charged as the transaction's own cost (a token
            // transfer's is what the native token's execution uses).
            if token == nil { ledgerTx.intrinsicGas = tx.gas }
            signed.append(ledgerTx)
        }
        let balance = configuration.ambient.userBalance
        let wholeTokens = UInt256(configuration.ambient.userTokens)
        let blocks = try chain.withLedger { chain -> [Block] in
            guard chain.blockNumber + 1 == head.number else { return [] }  // someone mined meanwhile
            for user in Set(signed.map(\.sender)) where chain.account(user).balance < balance / UInt256(2) {
                try chain.setBalance(user, balance)
            }
            for (token, sender) in tokenSenders {
                let full = wholeTokens * Units.powerOfTen(Int(token.decimals))
                if chain.tokenBalance(token: token.address, holder: sender) < full / UInt256(2) {
                    try chain.setTokenBalance(token: token.address, holder: sender, amount: full)
                }
            }
            // Ambient traffic is best effort: a transaction the pool refuses (full, say) is left out.
            for tx in signed { _ = try? chain.submit(tx, now: now, mineNow: false) }
            if timer, case .interval = mode { return try chain.mineDue(now: now) }
            return try chain.mine(blocks: 1, now: now)
        }
        turn.sealed(blocks)
        return blocks
    }

    /// The configured ambient tokens the chain has, in the configured order.
    var tokens: [TokenDefinition] {
        configuration.ambient.tokens.compactMap { configuration.chain.nativeContracts.token(at: $0) }
    }

    /// The simulated users' keys, derived once.
    func keys() throws -> [DevAccount] {
        let count = state.withLock { $0.generator.users }
        if let users = state.withLock({ $0.users.count == count ? $0.users : nil }) { return users }
        let mnemonic = try Mnemonic(phrase: configuration.mnemonic)
        let accounts = try EthereumAccounts(master: try ExtendedKey(seed: mnemonic.seed(passphrase: "")))
        var users: [DevAccount] = []
        for i in 0..<UInt32(count) {
            let key = try accounts.key(Self.firstUserIndex + i)
            users.append(DevAccount(address: key.ethereumAddress, privateKey: key.privateKey!))
        }
        state.withLock { $0.users = users }
        return users
    }
}
