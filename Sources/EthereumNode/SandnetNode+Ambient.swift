import AmbientTraffic
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import HDWallet
import NativeContracts

/// Other users on the chain (README, "A chain that lives"): which fee profile they follow and how blocks keep
/// coming while automine is on.
public struct AmbientConfiguration: Sendable, Equatable {
    /// `dev`: nobody else sends (the library's default, so tests and in-process scenarios stay still).
    public var profile: FeeProfile = .dev
    /// Seed of the traffic (the same seed and profile replay the same transactions block by block).
    public var seed: UInt64 = 0
    /// Simulated users, each with an account of its own (m/44'/60'/0'/0/2000000+i of the mnemonic).
    public var users = 64
    /// A user's balance is topped up to this (1,000 ETH) before it sends, when it runs low.
    public var userBalance = UInt256(1_000 as UInt64) * UInt256(1_000_000_000_000_000_000 as UInt64)

    /// Tokens the users send in their token-like transactions (USDC, LINK and the USDT-quirks token); those the
    /// chain has no native token at are left out, and with none left those transactions stay plain transfers.
    public var tokens: [Address] = [
        TokenDefinition.usdc.address, TokenDefinition.link.address, TokenDefinition.usdt.address,
    ]
    /// A user's balance of each token is topped up to this many whole tokens before it sends, when it runs low.
    public var userTokens: UInt64 = 1_000_000
    /// Gas limit of a token transfer: enough for every default token's transfer to a fresh holder (USDT's, the
    /// dearest, uses 63,209).
    public static let tokenTransferGasLimit: UInt64 = 65_000

    public init() {}
}

/// The node's ambient-traffic state: the generator (switchable at run time) and the users' keys, derived on
/// first use.
struct AmbientState: Sendable {
    var generator: TrafficGenerator
    var users: [DevAccount] = []

    init(_ configuration: AmbientConfiguration) {
        generator = TrafficGenerator(
            seed: configuration.seed, profile: configuration.profile, users: max(configuration.users, 2))
    }
}

extension SandnetNode {
    /// Index of the first simulated user's key under m/44'/60'/0'/0.
    static let firstAmbientUserIndex: UInt32 = 2_000_000

    /// The fee profile other users follow now.
    public var feeProfile: FeeProfile { ambient.withLock { $0.generator.profile } }

    /// Switches the fee profile from the next block on (`sandnet_setFeeProfile`, the scenario step).
    public func setFeeProfile(_ profile: FeeProfile) { ambient.withLock { $0.generator.profile = profile } }

    /// The simulated users' addresses (empty until traffic first ran).
    public var ambientUsers: [Address] { ambient.withLock { $0.users.map(\.address) } }

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

    /// Mines the timer's block: other users' transactions for it (signed with their keys, each with its gas
    /// charged as the generator drew it), the pool's executable transactions by tip, and an empty block when
    /// there are none. Runs in the miner's turn, so a submission in automine never interleaves.
    func mineTimerBlock(now: UInt64) throws -> [Block] {
        try minerTurn.withLock { _ in try mineWithTraffic(now: now, timer: true, spacing: nil) }
    }

    /// anvil_mine under a fee profile other than `dev`: each block with other users' transactions for it.
    func mineWithTraffic(blocks count: Int, now: UInt64, interval: UInt64?) throws -> [Block] {
        try minerTurn.withLock { _ in
            var mined: [Block] = []
            for i in 0..<count {
                mined += try mineWithTraffic(now: now, timer: false, spacing: i > 0 ? interval : nil)
            }
            return mined
        }
    }

    /// One block with traffic (the caller holds ``minerTurn``): when `timer`, only if one is due; `spacing` puts
    /// it that many seconds after the head.
    private func mineWithTraffic(now: UInt64, timer: Bool, spacing: UInt64?) throws -> [Block] {
        let plan = try withLedger { chain throws -> (ChainHead, [AmbientTransaction], [Address: UInt64], MiningMode)? in
            if timer { guard timerBlockDue(chain, now: now) else { return nil } }
            if let spacing { try chain.setNextTimestamp(chain.head.header.timestamp + spacing) }
            var timestamp = chain.nextBlockTimestamp(now: now)
            if timer, case .interval(let seconds) = chain.miningMode, chain.blockTimestampInterval == nil {
                timestamp = max(timestamp, chain.head.header.timestamp + seconds)
            }
            let head = ChainHead(
                number: chain.blockNumber + 1, timestamp: timestamp, baseFee: chain.nextBaseFee,
                gasLimit: chain.config.gasLimit)
            let traffic = ambient.withLock { $0.generator }.transactions(for: head)
            guard !traffic.isEmpty else { return (head, [], [:], chain.miningMode) }
            let users = try ambientKeys()
            var nonces: [Address: UInt64] = [:]
            for tx in traffic where nonces[users[tx.sender].address] == nil {
                nonces[users[tx.sender].address] = chain.pendingNonce(users[tx.sender].address)
            }
            return (head, traffic, nonces, chain.miningMode)
        }
        guard let (head, traffic, startNonces, mode) = plan else { return [] }
        let users = traffic.isEmpty ? [] : try ambientKeys()
        let chainID = self.chainID
        var nonces = startNonces
        var signed: [LedgerTransaction] = []
        var tokenSenders: [(token: TokenDefinition, sender: Address)] = []
        signed.reserveCapacity(traffic.count)
        let tokens = ambientTokens
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
                gas = SandnetNode.ambientTokenGasLimit
                tokenSenders.append((token, user.address))
            }
            let transaction = Transaction.dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: nonce,
                    maxPriorityFeePerGas: tx.maxPriorityFeePerGas, maxFeePerGas: tx.maxFeePerGas, gas: gas,
                    to: to, value: value, data: data, accessList: []))
            var ledgerTx = Self.ledgerTransaction(
                try transaction.signed(privateKey: user.privateKey), sender: user.address)
            // EVM-less: the gas a contract call would burn is charged as the transaction's own cost (a token
            // transfer's is what the native token's execution uses).
            if token == nil { ledgerTx.intrinsicGas = tx.gas }
            signed.append(ledgerTx)
        }
        let balance = configuration.ambient.userBalance
        let wholeTokens = UInt256(configuration.ambient.userTokens)
        let blocks = try withLedger { chain -> [Block] in
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
        publish(blocks)
        return blocks
    }

    static let ambientTokenGasLimit = AmbientConfiguration.tokenTransferGasLimit

    /// The configured ambient tokens the chain has, in the configured order.
    var ambientTokens: [TokenDefinition] {
        configuration.ambient.tokens.compactMap { configuration.chain.nativeContracts.token(at: $0) }
    }

    /// The simulated users' keys, derived once.
    func ambientKeys() throws -> [DevAccount] {
        let count = ambient.withLock { $0.generator.users }
        if let users = ambient.withLock({ $0.users.count == count ? $0.users : nil }) { return users }
        let mnemonic = try Mnemonic(phrase: configuration.mnemonic)
        let accounts = try EthereumAccounts(master: try ExtendedKey(seed: mnemonic.seed(passphrase: "")))
        var users: [DevAccount] = []
        for i in 0..<UInt32(count) {
            let key = try accounts.key(Self.firstAmbientUserIndex + i)
            users.append(DevAccount(address: key.ethereumAddress, privateKey: key.privateKey!))
        }
        ambient.withLock { $0.users = users }
        return users
    }
}
