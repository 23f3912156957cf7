import ByteCoding
import EthereumLedger
import EthereumLedgerStorage
import EthereumTransactions
import EthereumTypes
import Foundation
import KeccakHashing
import KeyValueStorage
import LevelDBStorage
import MerkleTrie
import NativeContracts
import RLPCoding
import Testing

/// Native tokens inside the ledger: genesis storage, receipts with logs and blooms, failures with status 0,
/// `call`/`estimateGas`, persistence and reorgs.
@Suite struct TokenLedgerTests {
    let now: UInt64 = 1_800_000_000

    static let link = TokenDefinition(
        address: TokenDefinition.link.address, name: "ChainLink Token", symbol: "LINK", decimals: 18,
        profile: .openZeppelin4, holders: [.init(holder: Fixtures.alice, amount: 1_000)])
    static let usdt = TokenDefinition(
        address: TokenDefinition.usdt.address, name: "Tether USD", symbol: "USDT", decimals: 6, profile: .tether,
        holders: [.init(holder: Fixtures.alice, amount: 1_000)])
    static let weth = TokenDefinition(
        address: TokenDefinition.weth.address, name: "Wrapped Ether", symbol: "WETH", decimals: 18, profile: .weth9,
        holders: [.init(holder: Fixtures.bob, amount: 50)])

    static var config: ChainConfig {
        var c = Fixtures.config
        c.nativeContracts = NativeContractRegistry(tokens: [link, usdt, weth], multicall3: true)
        return c
    }

    static func word(_ a: Address) -> [UInt8] { [UInt8](repeating: 0, count: 12) + a.bytes }
    static func word(_ v: UInt256) -> [UInt8] { v.bigEndianBytes }
    static func calldata(_ signature: String, _ words: [[UInt8]]) -> [UInt8] {
        Array(Keccak256.hash(utf8: signature)[0..<4]) + words.flatMap { $0 }
    }

    /// A transaction carrying `data`, its intrinsic gas and floor computed as the codec computes them.
    static func tx(
        from: Address, to: Address, nonce: UInt64, data: [UInt8], value: UInt256 = .zero, gas: UInt64 = 200_000
    ) -> LedgerTransaction {
        let zeros = UInt64(data.count { $0 == 0 })
        let nonZeros = UInt64(data.count) - zeros
        let hash = Keccak256.hash(from.bytes + to.bytes + [UInt8(truncatingIfNeeded: nonce)] + data)
        return LedgerTransaction(
            type: 2, chainID: 11_155_111, nonce: nonce, gasLimit: gas, maxFeePerGas: Fixtures.gwei * 3,
            maxPriorityFeePerGas: Fixtures.gwei, to: to, value: value, data: data,
            intrinsicGas: 21_000 + 4 * zeros + 16 * nonZeros, floorGas: 21_000 + 10 * (zeros + 4 * nonZeros),
            hash: hash,
            sender: from, encoding: [2] + hash)
    }

    static func ledger() -> Ledger {
        Ledger(
            config: config,
            genesis: [
                GenesisAccount(address: Fixtures.alice, balance: Fixtures.ether * 100),
                GenesisAccount(address: Fixtures.bob, balance: Fixtures.ether * 100),
            ])
    }

    func balance(_ ledger: Ledger, _ token: TokenDefinition, _ holder: Address, atBlock: UInt64? = nil) -> UInt256 {
        let outcome = ledger.call(
            CallRequest(to: token.address, data: Self.calldata("balanceOf(address)", [Self.word(holder)])),
            atBlock: atBlock)
        return UInt256(bigEndian: outcome.output)!
    }

    @Test func genesisHoldsTheTokensInStorage() {
        let ledger = Self.ledger()
        let link = ledger.account(Self.link.address)
        #expect(link.code == [0xfe] + Array("sandnet:native:ERC20".utf8))
        #expect(
            ledger.storage(Self.link.address, slot: TokenProfile.openZeppelin4.layout.balanceSlot(Fixtures.alice))
                == 1_000)
        #expect(ledger.storage(Self.link.address, slot: 2) == 1_000)  // totalSupply
        #expect(link.stateEncoding != Account(code: link.code).stateEncoding)  // a real storage root
        // The storage root is the trie of keccak(slot) → rlp(word), recomputed here from scratch.
        var trie = PatriciaTrie()
        for (slot, word) in link.storage.words {
            var e = RLPEncoder()
            e.appendBytes(word.minimalBigEndianBytes)
            trie.set(Keccak256.hash(slot.bigEndianBytes), e.bytes)
        }
        #expect(link.storage.root == trie.rootHash)
        // WETH9's genesis supply is backed by ETH, and the conservation invariant holds.
        #expect(ledger.account(Self.weth.address).balance == 50)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        #expect(!ledger.account(NativeContractRegistry.multicall3Address).code.isEmpty)
        #expect(ledger.head.header.stateRoot != Fixtures.ledger().head.header.stateRoot)
    }

    @Test func transferTransactionHasLogsBloomAndExactGas() throws {
        var ledger = Self.ledger()
        let data = Self.calldata("transfer(address,uint256)", [Self.word(Fixtures.bob), Self.word(UInt256(300))])
        let tx = Self.tx(from: Fixtures.alice, to: Self.link.address, nonce: 0, data: data)
        let block = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        let receipt = block.receipts[0]
        #expect(receipt.status)
        #expect(receipt.logs.count == 1)
        #expect(receipt.logs[0].address == Self.link.address)
        #expect(
            receipt.logs[0].topics == [
                Array(Keccak256.hash(utf8: "Transfer(address,address,uint256)")), Self.word(Fixtures.alice),
                Self.word(Fixtures.bob),
            ])
        // Intrinsic (21,000 + calldata) + overhead 1,550 + sender 5,000 + fresh recipient 22,100 + LOG3 1,756.
        #expect(receipt.gasUsed == tx.intrinsicGas + 1_550 + 5_000 + 22_100 + 1_756)
        #expect(LogsBloom.mayContain(receipt.logsBloom, Self.link.address.bytes))
        #expect(LogsBloom.mayContain(block.header.logsBloom, Self.word(Fixtures.bob)))
        #expect(!LogsBloom.mayContain(block.header.logsBloom, Self.word(Fixtures.carol)))
        #expect(block.header.logsBloom == receipt.logsBloom)
        #expect(balance(ledger, Self.link, Fixtures.bob) == 300)
        #expect(balance(ledger, Self.link, Fixtures.bob, atBlock: 0) == 0)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        // eth_estimateGas of the same transfer again answers what it then uses.
        let again = CallRequest(from: Fixtures.alice, to: Self.link.address, data: data)
        let estimate = ledger.call(again).gasRequired
        let second = try #require(
            try ledger.submit(Self.tx(from: Fixtures.alice, to: Self.link.address, nonce: 1, data: data), now: now)
                .minedBlocks.first)
        #expect(second.receipts[0].gasUsed == estimate)
    }

    @Test func failedTransferIsMinedWithStatusZeroAndGasCharged() throws {
        var ledger = Self.ledger()
        let data = Self.calldata("transfer(address,uint256)", [Self.word(Fixtures.bob), Self.word(UInt256(5_000))])
        let tx = Self.tx(from: Fixtures.alice, to: Self.link.address, nonce: 0, data: data)
        let before = ledger.account(Fixtures.alice).balance
        let block = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        let receipt = block.receipts[0]
        #expect(!receipt.status)
        #expect(receipt.logs.isEmpty && receipt.logsBloom == LogsBloom.empty)
        #expect(receipt.gasUsed == tx.intrinsicGas + 1_550 + 2_100)
        #expect(ledger.account(Fixtures.alice).nonce == 1)
        #expect(ledger.account(Fixtures.alice).balance == before - UInt256(receipt.gasUsed) * receipt.effectiveGasPrice)
        #expect(balance(ledger, Self.link, Fixtures.alice) == 1_000)
        // The same as eth_call: geth's revert text with the Error(string) reason.
        let call = ledger.call(CallRequest(from: Fixtures.alice, to: Self.link.address, data: data))
        #expect(call.failureMessage == "execution reverted: ERC20: transfer amount exceeds balance")
        #expect(call.output.prefix(4) == [0x08, 0xc3, 0x79, 0xa0])
    }

    @Test func tetherAssertConsumesAllGas() throws {
        var ledger = Self.ledger()
        let data = Self.calldata("transfer(address,uint256)", [Self.word(Fixtures.bob), Self.word(UInt256(5_000))])
        let tx = Self.tx(from: Fixtures.alice, to: Self.usdt.address, nonce: 0, data: data, gas: 90_000)
        let block = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        #expect(!block.receipts[0].status)
        #expect(block.receipts[0].gasUsed == 90_000)
        let call = ledger.call(CallRequest(from: Fixtures.alice, to: Self.usdt.address, data: data))
        #expect(call.failure == .invalidOpcode && call.failureMessage == "invalid opcode: INVALID")
    }

    @Test func outOfGasTransferChangesNothing() throws {
        var ledger = Self.ledger()
        let data = Self.calldata("transfer(address,uint256)", [Self.word(Fixtures.bob), Self.word(UInt256(1))])
        let tx = Self.tx(from: Fixtures.alice, to: Self.link.address, nonce: 0, data: data, gas: 30_000)
        let block = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        #expect(!block.receipts[0].status && block.receipts[0].gasUsed == 30_000)
        #expect(balance(ledger, Self.link, Fixtures.bob) == 0)
        #expect(
            ledger.call(CallRequest(from: Fixtures.alice, to: Self.link.address, data: data, gas: 30_000))
                .failureMessage == "out of gas")
    }

    @Test func wethDepositMovesEtherAndKeepsTheSupplyInvariant() throws {
        var ledger = Self.ledger()
        let deposit = Self.tx(
            from: Fixtures.alice, to: Self.weth.address, nonce: 0, data: Self.calldata("deposit()", []),
            value: Fixtures.ether)
        let block = try #require(try ledger.submit(deposit, now: now).minedBlocks.first)
        #expect(block.receipts[0].status)
        #expect(ledger.account(Self.weth.address).balance == Fixtures.ether + 50)
        #expect(balance(ledger, Self.weth, Fixtures.alice) == Fixtures.ether)
        let supply = ledger.call(CallRequest(to: Self.weth.address, data: Self.calldata("totalSupply()", [])))
        #expect(supply.output == Self.word(Fixtures.ether + 50))
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        // Value to a non-payable token function fails and the value stays with the sender.
        let paid = Self.tx(
            from: Fixtures.alice, to: Self.link.address, nonce: 1, data: Self.calldata("decimals()", []), value: 5)
        let failed = try #require(try ledger.submit(paid, now: now).minedBlocks.first)
        #expect(!failed.receipts[0].status)
        #expect(ledger.account(Self.link.address).balance == 0)
    }

    @Test func storedTokenStateReopensWithTheSameRoots() throws {
        let path = NSTemporaryDirectory() + "sandnet-tokens-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        var config = Self.config
        var link = Self.link
        link.holders = [.init(holder: Signed.alice.address, amount: 1_000)]
        config.nativeContracts = NativeContractRegistry(tokens: [link], multicall3: true)
        let genesis = [GenesisAccount(address: Signed.alice.address, balance: Fixtures.ether * 100)]
        let data = Self.calldata("transfer(address,uint256)", [Self.word(Fixtures.bob), Self.word(UInt256(300))])
        // Stored transactions are decoded with the wallet's codec: this one is really signed.
        let tx = Signed.sign(
            .dynamicFee(
                DynamicFeeTransaction(
                    chainID: 11_155_111, nonce: 0, maxPriorityFeePerGas: Fixtures.gwei, maxFeePerGas: Fixtures.gwei * 3,
                    gas: 100_000, to: Self.link.address, value: .zero, data: data)))
        var root: [UInt8] = []
        do {
            var owner = try PersistentLedger.open(config: config, genesis: genesis, store: LevelDBStore(path: path))
            _ = try owner.perform { (l: inout Ledger) throws(LedgerError) in try l.submit(tx, now: now) }
            owner.perform { (l: inout Ledger) in l.setStorage(Self.link.address, slot: 99, value: 7) }
            try owner.flush()
            root = owner.ledger.head.header.stateRoot
        }
        let reopened = try PersistentLedger.open(config: config, genesis: genesis, store: LevelDBStore(path: path))
            .ledger
        #expect(reopened.head.header.stateRoot == root)
        #expect(balance(reopened, Self.link, Fixtures.bob) == 300)
        #expect(reopened.storage(Self.link.address, slot: 99) == 7)
        #expect(reopened.block(number: 1)?.receipts[0].logs.count == 1)
    }

    @Test func reorgReplaysTokenTransfers() throws {
        var ledger = Self.ledger()
        let data = Self.calldata("transfer(address,uint256)", [Self.word(Fixtures.bob), Self.word(UInt256(300))])
        let old = try #require(
            try ledger.submit(Self.tx(from: Fixtures.alice, to: Self.link.address, nonce: 0, data: data), now: now)
                .minedBlocks.first)
        let replaced = try ledger.reorg(depth: 1, requeueTransactions: false, now: now)
        #expect(replaced.count == 1 && replaced[0].hash != old.hash && replaced[0].transactions.isEmpty)
        #expect(balance(ledger, Self.link, Fixtures.bob) == 0)
        #expect(ledger.head.header.logsBloom == LogsBloom.empty)
        #expect(ledger.head.header.stateRoot == Self.ledger().head.header.stateRoot)
    }
}

@Suite struct TokenDevControlTests {
    let now: UInt64 = 1_800_000_000

    @Test func estimateGasAnswersWhatTheTransactionUses() throws {
        var ledger = TokenLedgerTests.ledger()
        let data = TokenLedgerTests.calldata(
            "transfer(address,uint256)", [TokenLedgerTests.word(Fixtures.carol), TokenLedgerTests.word(UInt256(10))])
        let request = CallRequest(from: Fixtures.alice, to: TokenLedgerTests.usdt.address, data: data)
        let estimate = try ledger.estimateGas(request)
        let tx = TokenLedgerTests.tx(
            from: Fixtures.alice, to: TokenLedgerTests.usdt.address, nonce: 0, data: data, gas: estimate)
        let block = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        #expect(block.receipts[0].status && block.receipts[0].gasUsed == estimate)
        // Carol now holds USDT: the next transfer to her is cheaper (no zero → non-zero word), and one gas less
        // than that is not enough.
        let again = try ledger.estimateGas(request)
        #expect(again == estimate - 17_100)
        #expect(throws: EstimateGasError.gasRequiredExceedsAllowance(cap: again - 1)) {
            var short = request
            short.gas = again - 1
            return try ledger.estimateGas(short)
        }
        let tooMuch = TokenLedgerTests.calldata(
            "transfer(address,uint256)",
            [TokenLedgerTests.word(Fixtures.carol), TokenLedgerTests.word(UInt256(10_000))])
        #expect(throws: EstimateGasError.failed(message: "invalid opcode: INVALID")) {
            try ledger.estimateGas(CallRequest(from: Fixtures.alice, to: TokenLedgerTests.usdt.address, data: tooMuch))
        }
        do {
            _ = try ledger.estimateGas(
                CallRequest(from: Fixtures.alice, to: TokenLedgerTests.link.address, data: tooMuch))
            Issue.record("a reverting call has no estimate")
        } catch {
            #expect(error.message == "execution reverted: ERC20: transfer amount exceeds balance")
        }
    }

    @Test func dealKeepsTotalSupplyConsistent() throws {
        var ledger = TokenLedgerTests.ledger()
        let link = TokenLedgerTests.link.address
        try ledger.setTokenBalance(token: link, holder: Fixtures.bob, amount: 400)
        try ledger.setTokenBalance(token: link, holder: Fixtures.alice, amount: 100)
        #expect(ledger.tokenBalance(token: link, holder: Fixtures.bob) == 400)
        #expect(ledger.storage(link, slot: 2) == 500)  // 1,000 − 900 + 400
        let weth = TokenLedgerTests.weth.address
        try ledger.setTokenBalance(token: weth, holder: Fixtures.alice, amount: Fixtures.ether)
        #expect(ledger.account(weth).balance == Fixtures.ether + 50)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        try ledger.setTokenAllowance(token: link, owner: Fixtures.bob, spender: Fixtures.carol, amount: 77)
        let allowance = ledger.call(
            CallRequest(
                to: link,
                data: TokenLedgerTests.calldata(
                    "allowance(address,address)",
                    [TokenLedgerTests.word(Fixtures.bob), TokenLedgerTests.word(Fixtures.carol)])))
        #expect(allowance.output == TokenLedgerTests.word(UInt256(77)))
        #expect(throws: LedgerError.valueOutOfRange("\(Fixtures.carol.checksummed) is not a native token")) {
            try ledger.setTokenBalance(token: Fixtures.carol, holder: Fixtures.bob, amount: 1)
        }
        // Sealed into the next block with the rest of the state.
        _ = try ledger.mine(now: now)
        #expect(ledger.tokenBalance(token: link, holder: Fixtures.bob, atBlock: 1) == 400)
        #expect(ledger.tokenBalance(token: link, holder: Fixtures.bob, atBlock: 0) == 0)
    }

    @Test func reorgReturnsTheRemovedBlocksWithTheirLogs() throws {
        var ledger = TokenLedgerTests.ledger()
        let data = TokenLedgerTests.calldata(
            "transfer(address,uint256)", [TokenLedgerTests.word(Fixtures.bob), TokenLedgerTests.word(UInt256(300))])
        let tx = TokenLedgerTests.tx(from: Fixtures.alice, to: TokenLedgerTests.link.address, nonce: 0, data: data)
        let old = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        let (removed, mined) = try ledger.reorgReplacing(depth: 1, requeueTransactions: true, now: now)
        #expect(removed == [old])
        #expect(removed[0].receipts[0].logs.count == 1)
        // Requeued, the transfer runs again in the replacement block: same log, new block hash.
        #expect(mined.count == 1 && mined[0].hash != old.hash)
        #expect(mined[0].receipts[0].logs == old.receipts[0].logs)
        #expect(ledger.tokenBalance(token: TokenLedgerTests.link.address, holder: Fixtures.bob) == 300)
    }
}
